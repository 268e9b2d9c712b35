/**
 * Labels and environment variables the renderer owns; a spec may not set them.
 *
 * @public
 */
export const LABEL_APP = 'app';
/** @public */
export const LABEL_COMPONENT = 'component';
/** @public */
export const LABEL_TYPE = 'type';
/** @public */
export const LABEL_KUBERNETES_ID = 'backstage.io/kubernetes-id';
/**
 * The operator's value for standalone clusters, so its tooling recognises ours.
 *
 * @public
 */
export const TYPE_FLINK_STANDALONE = 'flink-standalone-kubernetes';
/** @public */
export const MANAGED_BY = 'flink-standalone-backstage';

const RESERVED_LABELS = [
  LABEL_APP,
  LABEL_COMPONENT,
  LABEL_TYPE,
  LABEL_KUBERNETES_ID,
];

export function isReservedLabel(key: string): boolean {
  return RESERVED_LABELS.includes(key) || key.startsWith('app.kubernetes.io/');
}

export const ENV_POD_NAME = 'POD_NAME';
export const ENV_POD_IP = 'POD_IP';
export const RESERVED_ENV_NAMES = [ENV_POD_NAME, ENV_POD_IP];

/**
 * Variables the official image's entrypoint turns into Flink configuration at start, over the
 * rendered file: each would fight the spec, and what to do instead.
 */
export const ENTRYPOINT_CONFIG_ENV: Readonly<Record<string, string>> = {
  FLINK_PROPERTIES: 'use flinkConfiguration instead',
  TASK_MANAGER_NUMBER_OF_TASK_SLOTS: 'use taskManager.slots instead',
  JOB_MANAGER_RPC_ADDRESS:
    'the renderer sets jobmanager.rpc.address (the JobManager Service, or the pod IP with highAvailability)',
};
