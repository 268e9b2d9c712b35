import type { ClusterSpec } from '../spec/schema';

/** Object names, compatible with the Flink operator's standalone mode. */
export interface ClusterObjectNames {
  configMap: string;
  /** Headless: JobManager rpc/blob, and the governing Service of a JobManager StatefulSet. */
  jobManagerService: string;
  restService: string;
  /** Headless: the governing Service of the TaskManager StatefulSet. */
  taskManagerService: string;
  jobManager: string;
  taskManager: string;
  /** ServiceAccount, Role and RoleBinding for Kubernetes HA. */
  rbac: string;
  podDisruptionBudget: string;
}

export function clusterObjectNames(name: string): ClusterObjectNames {
  return {
    configMap: `flink-config-${name}`,
    jobManagerService: name,
    restService: `${name}-rest`,
    taskManagerService: `${name}-taskmanager`,
    jobManager: name,
    taskManager: `${name}-taskmanager`,
    rbac: name,
    podDisruptionBudget: `${name}-taskmanager`,
  };
}

/** The ServiceAccount the Flink pods run as: the user's, or ours when HA needs one. */
export function podServiceAccount(spec: ClusterSpec): string | undefined {
  return (
    spec.podTemplate.serviceAccountName ??
    (spec.highAvailability ? clusterObjectNames(spec.name).rbac : undefined)
  );
}

export const PORTS = {
  jobManagerRpc: 6123,
  blobServer: 6124,
  rest: 8081,
  taskManagerRpc: 6122,
} as const;

/** The container name the operator uses, so its tooling and docs apply unchanged. */
export const MAIN_CONTAINER = 'flink-main-container';
export const CONFIG_VOLUME = 'flink-config-volume';
export const CONFIG_MOUNT_PATH = '/opt/flink/conf';
export const USRLIB_VOLUME = 'flink-usrlib';
export const USRLIB_PATH = '/opt/flink/usrlib';

export const ANNOTATION_PREFIX = 'flink-standalone.backstage.io';
/** On pod templates: changes when the Flink configuration changes, so the pods roll. */
export const CONFIG_HASH_ANNOTATION = `${ANNOTATION_PREFIX}/config-hash`;
