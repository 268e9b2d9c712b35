export interface Config {
  /**
   * The Backstage Kubernetes plugin's cluster list. Flink Standalone reads the entries of type
   * `config` from it, so an app configured for that plugin needs no second cluster list.
   */
  kubernetes?: {
    clusterLocatorMethods?: Array<{
      /** Only `config` locators are read. */
      type: string;
      clusters?: Array<{
        /** The cluster's name, as entities and templates refer to it. */
        name: string;
        /** The API server URL. */
        url: string;
        /**
         * The auth strategy for requests: `serviceAccount` (default; the token below, else the
         * backend pod's own ServiceAccount) or the key of a strategy a backend module adds with
         * `flinkStandaloneAuthStrategyExtensionPoint`. Other string fields of the entry reach
         * that strategy as `authMetadata`.
         */
        authProvider?: string;
        /**
         * Bearer token of the backend's ServiceAccount. Without it, in-cluster credentials are used.
         * @visibility secret
         */
        serviceAccountToken?: string;
        /**
         * PEM (or base64 PEM) of the API server's CA.
         * @visibility secret
         */
        caData?: string;
        /** Path of a file with the API server's CA. */
        caFile?: string;
        /** Skip TLS verification of the API server (never in production). */
        skipTLSVerify?: boolean;
      }>;
    }>;
  };

  /** Flink Standalone's own options. */
  flinkStandalone?: {
    /**
     * Per-cluster options. An entry whose name matches a `kubernetes` cluster adds options to
     * it; an entry with `kubeconfig` defines a cluster of its own (for local use).
     */
    clusters?: Array<{
      /** The cluster's name. */
      name: string;
      /** Use a kubeconfig file (and context) for this cluster instead of a `kubernetes` entry. */
      kubeconfig?: {
        /** Path of the kubeconfig file. */
        path: string;
        /** The context to use; defaults to the file's current context. */
        context?: string;
      };
      /**
       * Namespaces Flink clusters may live in. A request for any other namespace is refused
       * (HTTP 403) before any call to Kubernetes, and the watch cache watches only these
       * namespaces (so the backend's RBAC can be namespaced). Absent: every namespace.
       */
      allowedNamespaces?: string[];
      /** How the backend reaches the Flink REST API of clusters here. */
      flinkRest?: {
        /**
         * `proxy` (default): through the API server's service proxy (services/proxy RBAC).
         * `direct`: HTTP to `baseUrl`.
         */
        mode?: 'proxy' | 'direct';
        /**
         * For `direct`: the REST base URL; `{name}` and `{namespace}` are replaced by the Flink
         * cluster's, e.g. `http://{name}-rest.{namespace}.svc:8081` or `http://127.0.0.1:8081`.
         */
        baseUrl?: string;
        /** Request timeout in milliseconds (default 2000). */
        timeoutMs?: number;
      };
      /**
       * Where people open the Flink UI of clusters here (entity pages, the apply action's
       * output); `{name}` and `{namespace}` are replaced, e.g.
       * `https://flink.example.com/{namespace}/{name}/`. Absent: the direct REST URL when
       * `flinkRest.mode` is `direct`, else none. An entity's
       * `flink-standalone.backstage.io/flink-ui-url` annotation wins.
       */
      flinkUiUrl?: string;
    }>;
    /**
     * How the observer refreshes the Flink REST answers it shows. A cluster's answer is
     * refreshed in the background when someone reads its status and the answer is older than
     * `maxAgeSeconds`; at most `maxPerSecond` refreshes start per second over all clusters (each
     * is three requests through the API server's service proxy), so the REST traffic is bounded
     * by `3 × maxPerSecond` requests a second however many people look (plus, once after a job
     * restarts, the reads of its checkpoint statistics and TaskManager logs that tell where it
     * restored from). Past the budget an older answer is served; its `fetchedAt` says how old.
     */
    flinkRestRefresh?: {
      /** Seconds an answer is served before it is refreshed (default 5). */
      maxAgeSeconds?: number;
      /** Refreshes started per second at most, over all clusters (default 20). */
      maxPerSecond?: number;
    };
    /** Seconds after which a pod still Terminating counts as stuck (default 300). */
    stuckTerminatingAfterSeconds?: number;
    /**
     * Seconds a StatefulSet rollout may wait for a pod to become Ready before the observer calls
     * it blocked and names the pod (default 300).
     */
    stuckRolloutAfterSeconds?: number;
  };
}
