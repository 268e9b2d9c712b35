export {
  parseClusterSpec,
  validateClusterSpec,
  ClusterSpecError,
} from './parse';
export type { SpecProblem, SpecValidation } from './parse';
export {
  clusterSpecSchema,
  MAX_NAME_LENGTH,
  FLINK_USER_ID,
  WORKLOAD_KINDS,
} from './schema';
export type {
  ClusterSpec,
  ClusterSpecInput,
  JobManagerSpec,
  TaskManagerSpec,
  VolumeClaimTemplateSpec,
  WorkloadKind,
} from './schema';
export {
  FLINK_VERSIONS,
  configFileName,
  localRecoveryKeys,
} from './flinkVersions';
export type { FlinkVersion } from './flinkVersions';
export { OWNED_KEYS } from './ownedKeys';
export type { OwnedKey, OwnedWhen } from './ownedKeys';
export { isQuantity, quantityValue, toFlinkMemorySize } from './quantity';
export {
  LABEL_KUBERNETES_ID,
  TYPE_FLINK_STANDALONE,
  MANAGED_BY,
} from './reserved';
