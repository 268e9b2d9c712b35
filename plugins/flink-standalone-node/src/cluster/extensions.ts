import { createExtensionPoint } from '@backstage/backend-plugin-api';
import type { SharedRestAnswers } from '../rest/sharedRestAnswers';

/**
 * What discovery knows about a Kubernetes cluster: where its API server is and how to trust it.
 * Credentials come from the auth strategy named by `authProvider`.
 *
 * @public
 */
export interface FlinkClusterDetails {
  /** The name entities and templates refer to. */
  name: string;
  /** The API server URL. */
  url: string;
  /** The key of the auth strategy that authenticates requests, e.g. `serviceAccount`. */
  authProvider: string;
  /**
   * Values for the auth strategy (e.g. `serviceAccountToken`, a role to assume). They stay in
   * the backend: no route or action output shows them.
   */
  authMetadata?: Record<string, string>;
  /** PEM (or base64 PEM) of the API server's CA. */
  caData?: string;
  /** Path of a file with the API server's CA. */
  caFile?: string;
  /** Skip TLS verification of the API server (never in production). */
  skipTLSVerify?: boolean;
}

/**
 * The credential of one request to an API server.
 *
 * @public
 */
export type FlinkClusterCredential =
  | { type: 'bearer token'; token: string }
  | { type: 'x509 client certificate'; cert: string; key: string }
  | { type: 'anonymous' };

/**
 * Authenticates requests to clusters whose `authProvider` is its key.
 *
 * @public
 */
export interface FlinkClusterAuthStrategy {
  /**
   * Called before every request (watches included), so rotating tokens stay fresh; cache inside
   * when getting one is costly.
   */
  getCredential(cluster: FlinkClusterDetails): Promise<FlinkClusterCredential>;
}

/**
 * Discovers the Kubernetes clusters Flink clusters can live in. Asked once, when the clusters
 * are built at backend startup.
 *
 * @public
 */
export interface FlinkClusterSupplier {
  getClusters(): Promise<FlinkClusterDetails[]>;
}

/**
 * The interface of {@link flinkStandaloneAuthStrategyExtensionPoint}.
 *
 * @public
 */
export interface FlinkStandaloneAuthStrategyExtensionPoint {
  /** Adds a strategy for clusters whose `authProvider` is `key` (`serviceAccount` is built in). */
  addAuthStrategy(key: string, strategy: FlinkClusterAuthStrategy): void;
}

/**
 * Lets a backend module of the `flink-standalone` plugin add cluster credentials, e.g. tokens
 * from a vault or a cloud provider's IAM.
 *
 * @public
 */
export const flinkStandaloneAuthStrategyExtensionPoint =
  createExtensionPoint<FlinkStandaloneAuthStrategyExtensionPoint>({
    id: 'flink-standalone.auth-strategy',
  });

/**
 * A supplier, or a function of the default supplier that returns one.
 *
 * @public
 */
export type FlinkClusterSupplierRegistration =
  | FlinkClusterSupplier
  | ((options: {
      getDefault: () => FlinkClusterSupplier;
    }) => FlinkClusterSupplier);

/**
 * The interface of {@link flinkStandaloneClusterSupplierExtensionPoint}.
 *
 * @public
 */
export interface FlinkStandaloneClusterSupplierExtensionPoint {
  /**
   * Replaces the default supplier (the `config` entries of `kubernetes.clusterLocatorMethods`).
   * The function form gets the default, to add clusters to it rather than replace it.
   */
  addClusterSupplier(supplier: FlinkClusterSupplierRegistration): void;
}

/**
 * Lets a backend module of the `flink-standalone` plugin discover clusters its own way.
 *
 * @public
 */
export const flinkStandaloneClusterSupplierExtensionPoint =
  createExtensionPoint<FlinkStandaloneClusterSupplierExtensionPoint>({
    id: 'flink-standalone.cluster-supplier',
  });

/**
 * What the extension points collected, handed to the cluster service by the backend plugin.
 *
 * @public
 */
export interface FlinkStandaloneClusterExtensions {
  authStrategies?: Map<string, FlinkClusterAuthStrategy>;
  clusterSupplier?: FlinkClusterSupplierRegistration;
  /**
   * The flink-standalone plugin's `CacheService`, where backend replicas share Flink REST
   * answers (a shared store, e.g. Redis, makes one refresh serve every replica).
   */
  sharedRestAnswers?: SharedRestAnswers;
}
