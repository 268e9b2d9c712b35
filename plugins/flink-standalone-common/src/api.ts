import type { FlinkClusterLocation } from './annotations';
import type { FlinkClusterStatus } from './status';

/** `GET /entities/:namespace/:kind/:name/status` of the flink-standalone backend. */
export interface EntityFlinkStatusResponse {
  location: FlinkClusterLocation;
  status: FlinkClusterStatus;
  /** Where people open the Flink UI, when one is known. */
  flinkUiUrl?: string;
}

/** `POST /entities/:namespace/:kind/:name/scale` body. */
export interface ScaleRequest {
  taskManagers: number;
}

export interface ScaleResponse {
  kind: string;
  name: string;
  previousReplicas: number;
  replicas: number;
}

/** `DELETE /entities/:namespace/:kind/:name` query: `?deleteClaims=true|false`. */
export interface DeleteResponse {
  deleted: { kind: string; name: string }[];
  claimsDeleted: string[];
  claimsKept: string[];
}

/** `GET /clusters` */
export interface ClustersResponse {
  clusters: { name: string }[];
}
