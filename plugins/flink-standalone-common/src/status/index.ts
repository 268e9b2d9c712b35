export {
  JOB_MANAGER_DEPLOYMENT_STATUSES,
  CLUSTER_ERROR_REASONS,
  CLUSTER_CONDITION_TYPES,
  REST_UNREACHABLE_REASONS,
} from './types';
export type {
  JobManagerDeploymentStatus,
  ClusterErrorReason,
  ClusterError,
  ClusterConditionType,
  ConditionStatus,
  ClusterCondition,
  ReplicaCounts,
  RetentionPolicy,
  ClaimRetention,
  WorkloadStatus,
  PodStatus,
  RolloutBlock,
  RestoreSource,
  JobRestore,
  ClaimPhase,
  ClaimStatus,
  RestUnreachableReason,
  FlinkRestSummary,
  ClusterEvent,
  FlinkClusterStatus,
} from './types';
export { findCondition, isHealthy } from './health';
// The labels an observer selects and classifies the cluster's objects by.
export { LABEL_APP, LABEL_COMPONENT, LABEL_TYPE } from '../spec/reserved';
