/**
 * Object names, compatible with the Flink operator's standalone mode.
 *
 * @public
 */
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

/** @public */
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

/** @public */
export const PORTS = {
  jobManagerRpc: 6123,
  blobServer: 6124,
  rest: 8081,
  taskManagerRpc: 6122,
} as const;

/**
 * The container name the operator uses, so its tooling and docs apply unchanged.
 *
 * @public
 */
export const MAIN_CONTAINER = 'flink-main-container';
export const CONFIG_VOLUME = 'flink-config-volume';
export const CONFIG_MOUNT_PATH = '/opt/flink/conf';
export const USRLIB_VOLUME = 'flink-usrlib';
export const USRLIB_PATH = '/opt/flink/usrlib';

/** @public */
export const ANNOTATION_PREFIX = 'flink-standalone.backstage.io';
/**
 * On pod templates: changes when the Flink configuration changes, so the pods roll.
 *
 * @public
 */
export const CONFIG_HASH_ANNOTATION = `${ANNOTATION_PREFIX}/config-hash`;
