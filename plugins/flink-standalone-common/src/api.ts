import type { FlinkClusterLocation } from './annotations';
import type { FlinkClusterStatus } from './status';

/**
 * `GET /entities/:namespace/:kind/:name/status` of the flink-standalone backend.
 *
 * @public
 */
export interface EntityFlinkStatusResponse {
  location: FlinkClusterLocation;
  status: FlinkClusterStatus;
  /** Where people open the Flink UI, when one is known. */
  flinkUiUrl?: string;
}

/**
 * `POST /entities/:namespace/:kind/:name/scale` body.
 *
 * @public
 */
export interface ScaleRequest {
  taskManagers: number;
}

/** @public */
export interface ScaleResponse {
  kind: string;
  name: string;
  previousReplicas: number;
  replicas: number;
}

/**
 * `DELETE /entities/:namespace/:kind/:name` query: `?deleteClaims=true|false` and
 * `?deleteHighAvailabilityData=true|false` (default false: Flink's HA ConfigMaps are kept).
 *
 * @public
 */
export interface DeleteResponse {
  deleted: { kind: string; name: string }[];
  claimsDeleted: string[];
  claimsKept: string[];
  /** The HA ConfigMaps Flink created for the cluster (Kubernetes HA only); absent from old backends. */
  highAvailabilityConfigMapsDeleted?: string[];
  highAvailabilityConfigMapsKept?: string[];
}

/**
 * `POST /entities/:namespace/:kind/:name/unblock-rollout` with `{ "pod": "<name>" }`: deletes
 * that pod if, and only if, the observer names it as blocking a StatefulSet rollout (409
 * otherwise).
 *
 * @public
 */
export interface UnblockRolloutResponse {
  pod: string;
  workload: string;
  revision?: string;
  updateRevision: string;
}

/**
 * `POST /entities/:namespace/:kind/:name/force-delete-pod` with `{ "pod": "<name>" }`:
 * force-deletes that pod if, and only if, the observer shows it stuck Terminating on a NotReady
 * node (409 otherwise).
 *
 * @public
 */
export interface ForceDeletePodResponse {
  pod: string;
  /** The NotReady node the pod was bound to. */
  node: string;
  /** When its deletion was asked (ISO). */
  terminatingSince?: string;
}

/**
 * `GET /clusters`
 *
 * @public
 */
export interface ClustersResponse {
  clusters: { name: string }[];
}
