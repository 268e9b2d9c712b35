export interface Config {
  flinkStandalone?: {
    /**
     * Status reads (the route entity pages poll) reuse, for `ttlSeconds`, a caller's
     * decisions for reading entities and statuses and the entities read from the catalog; with
     * a CONDITIONAL decision, the caller's answer per entity (as the catalog and the
     * permission framework give it with the caller's credentials). Past `ttlSeconds`, and up to
     * twice that, the reused decision is served while a new one loads in the background;
     * entities and answers read within the last minute are refreshed in the background once
     * `ttlSeconds` old (some of the oldest earlier, to keep the rate even: all of them once
     * per `ttlSeconds`), 100 to a request. A policy change, a new owner or an
     * edited annotation shows within about `ttlSeconds` for a page that keeps polling, within
     * twice that in any case. 0 asks the catalog and the permission framework on every read.
     */
    statusReadCache?: {
      /** Seconds a decision, an entity or an answer is reused (default 10). */
      ttlSeconds?: number;
    };
  };
}
