export interface Config {
  flinkStandalone?: {
    frontend?: {
      /**
       * How often the entity card and tab fetch the cluster's status again, in seconds.
       * 0 turns automatic refresh off. Default: 10.
       * @visibility frontend
       */
      refreshIntervalSeconds?: number;
    };
  };
}
