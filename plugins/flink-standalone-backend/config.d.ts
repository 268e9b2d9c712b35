export interface Config {
  flinkStandalone?: {
    /**
     * Status reads (the route entity pages poll) reuse, for `ttlSeconds`, a caller's
     * definitive decisions for reading entities and statuses (ALLOW or DENY; a CONDITIONAL
     * decision is asked per request) and the entities read from the catalog. Past
     * `ttlSeconds`, and up to twice that, the reused decision is served while a new one loads
     * in the background; entities read within the last minute are refreshed in the background
     * once `ttlSeconds` old, 100 to a catalog request. A policy change, a new owner or an
     * edited annotation shows within about `ttlSeconds` for a page that keeps polling, within
     * twice that in any case. 0 asks the catalog and the permission framework on every read.
     */
    statusReadCache?: {
      /** Seconds a decision or an entity is reused (default 10). */
      ttlSeconds?: number;
    };
  };
}
