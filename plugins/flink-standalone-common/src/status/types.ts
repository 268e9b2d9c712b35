import type { SavepointRecord } from '../plan';
import type { FlinkComponent } from '../render/labels';
import type { WorkloadKind } from '../spec';

/**
 * The JobManager deployment state, in the Flink Kubernetes operator's vocabulary. It is derived
 * in this order, the first match wins:
 * - `MISSING`: there is no JobManager workload.
 * - `ERROR`: a pod or workload of the cluster shows one of the {@link CLUSTER_ERROR_REASONS}.
 * - `DEPLOYING`: the JobManager workload exists but none of its pods is Ready.
 * - `DEPLOYED_NOT_READY`: a JobManager pod is Ready, the Flink REST API does not answer.
 * - `READY`: the Flink REST API answers.
 *
 * @public
 */
export const JOB_MANAGER_DEPLOYMENT_STATUSES = [
  'MISSING',
  'DEPLOYING',
  'DEPLOYED_NOT_READY',
  'READY',
  'ERROR',
] as const;
/** @public */
export type JobManagerDeploymentStatus =
  (typeof JOB_MANAGER_DEPLOYMENT_STATUSES)[number];

/**
 * What turns a cluster into `ERROR`: the operator's error reasons, as Kubernetes names them.
 *
 * @public
 */
export const CLUSTER_ERROR_REASONS = [
  /** Warning event on the workload (or a Deployment's ReplicaSet) while pods are missing. */
  'FailedCreate',
  /** Container waiting reasons. */
  'CrashLoopBackOff',
  'ImagePullBackOff',
  'ErrImagePull',
  'RunContainerError',
  'CreateContainerConfigError',
  /** A container's current or last termination reason. */
  'OOMKilled',
  /** Warning events on a pod that is not Ready. */
  'FailedMount',
  'FailedAttachVolume',
] as const;
/** @public */
export type ClusterErrorReason = (typeof CLUSTER_ERROR_REASONS)[number];

/** @public */
export interface ClusterError {
  reason: ClusterErrorReason;
  /** What Kubernetes said (container or event message), prefixed with where it happened. */
  message: string;
  component: FlinkComponent;
  /** `Kind/name` of the object that shows the error. */
  object: string;
  pod?: string;
  container?: string;
}

/** @public */
export const CLUSTER_CONDITION_TYPES = [
  'JobManagerReady',
  'TaskManagersReady',
  'TaskManagersRegistered',
  'VolumesBound',
  'RolloutComplete',
  'NoStuckPods',
  'FlinkRestReachable',
] as const;
/** @public */
export type ClusterConditionType = (typeof CLUSTER_CONDITION_TYPES)[number];

/** @public */
export type ConditionStatus = 'True' | 'False' | 'Unknown';

/**
 * A Kubernetes-style condition.
 *
 * @public
 */
export interface ClusterCondition {
  type: ClusterConditionType;
  status: ConditionStatus;
  /** CamelCase, stable: for programs. */
  reason: string;
  /** For people. */
  message: string;
  lastTransitionTime?: string;
}

/** @public */
export interface ReplicaCounts {
  /** spec.replicas */
  desired: number;
  /** Pods the controller counts as existing (status.replicas). */
  current: number;
  ready: number;
  /** Pods at the update revision. */
  updated: number;
  available: number;
}

/** @public */
export type RetentionPolicy = 'Retain' | 'Delete';

/**
 * A StatefulSet's persistentVolumeClaimRetentionPolicy (Kubernetes defaults: Retain).
 *
 * @public
 */
export interface ClaimRetention {
  whenDeleted: RetentionPolicy;
  whenScaled: RetentionPolicy;
}

/**
 * The JobManager or TaskManager StatefulSet or Deployment.
 *
 * @public
 */
export interface WorkloadStatus {
  kind: WorkloadKind;
  name: string;
  component: FlinkComponent;
  replicas: ReplicaCounts;
  generation?: number;
  observedGeneration?: number;
  /**
   * Revisions as the pods carry them: StatefulSet controller revisions
   * (`controller-revision-hash`), Deployment ReplicaSet `pod-template-hash`es.
   */
  currentRevision?: string;
  updateRevision?: string;
  rolloutComplete: boolean;
  /** Deployment only: the controller's message once the rollout passed its progress deadline. */
  rolloutStalled?: string;
  /** StatefulSet only: the pod the rollout waits for in vain, and what to do about it. */
  rolloutBlocked?: RolloutBlock;
  /** StatefulSet only. */
  podManagementPolicy?: string;
  /** StatefulSet only. */
  retention?: ClaimRetention;
}

/**
 * A StatefulSet rollout that cannot progress: the controller waits for `pod` to become Ready,
 * and it has not for longer than the observer's threshold.
 *
 * @public
 */
export interface RolloutBlock {
  pod: string;
  /** The pod's revision. */
  revision?: string;
  /** The StatefulSet's update revision. */
  updateRevision: string;
  /** When the pod was last seen turning not Ready (or was created). */
  notReadySince: string;
  /**
   * The forced-rollback trap: the pod runs a revision the StatefulSet no longer wants, and the
   * controller (`OrderedReady`) will not replace a pod that is not Ready: only deleting it helps.
   */
  deleteRequired: boolean;
  /** What happened and the remedy, in a sentence or two. */
  message: string;
}

/** @public */
export interface PodStatus {
  name: string;
  component: FlinkComponent;
  /**
   * StatefulSet pods: the ordinal (`apps.kubernetes.io/pod-index` or the `-<n>` suffix).
   * Deployment pods have no stable identity: null.
   */
  ordinal: number | null;
  /** Pending, Running, Succeeded, Failed, Unknown. */
  phase: string;
  ready: boolean;
  /** Sum over the pod's containers. */
  restarts: number;
  revision?: string;
  /** revision === the workload's update revision; null when that is not known. */
  updated: boolean | null;
  /** The scheduler's message while the pod cannot be placed on any node. */
  unschedulable?: string;
  node?: string;
  /** null: the node is not known (not scheduled, or not in the snapshot). */
  nodeReady: boolean | null;
  startTime?: string;
  /** The first waiting reason of the pod's containers (init containers first), e.g. ContainerCreating. */
  waitingReason?: string;
  /** The first current or last termination reason of the pod's containers but `Completed`, e.g. OOMKilled, Error. */
  terminatedReason?: string;
  deletionTimestamp?: string;
  /** When deletion was requested: deletionTimestamp minus the grace period. */
  terminatingSince?: string;
  /** Terminating past its grace period and longer than the configured threshold. */
  stuck: boolean;
  /** Why it is stuck and what to do about it. */
  stuckMessage?: string;
  /** Names of the claims the pod mounts. */
  claims: string[];
  /**
   * TaskManager pods: where its subtasks read their state in the job's latest restore (from
   * its log, read through Flink's REST API once per restore). Absent when no restore is known.
   */
  restoredFrom?: RestoreSource;
}

/**
 * Where a TaskManager's subtasks read keyed state in a restore: `local` copies on its own
 * volume only, `remote` checkpoint storage only, `mixed`, or `none` (nothing to restore here).
 *
 * @public
 */
export type RestoreSource = 'local' | 'remote' | 'mixed' | 'none';

/**
 * The latest restore of a running job from a checkpoint or savepoint.
 *
 * @public
 */
export interface JobRestore {
  jobId: string;
  checkpointId: number;
  /** When the JobManager began the restore (ISO). */
  restoredAt: string;
  savepoint: boolean;
  /** By TaskManager resource id (the pod name): where it read its state. */
  taskManagers: Record<string, RestoreSource>;
}

/** @public */
export type ClaimPhase = 'Bound' | 'Pending' | 'Lost';

/** @public */
export interface ClaimStatus {
  name: string;
  component?: FlinkComponent;
  /** The ordinal of the StatefulSet pod that owns the claim; null for others. */
  ordinal: number | null;
  /** The claim template (StatefulSet) or ephemeral volume (Deployment) it was made from. */
  template?: string;
  phase: ClaimPhase;
  /** status.capacity.storage, once bound. */
  capacity?: string;
  /** spec.resources.requests.storage */
  requested?: string;
  storageClass?: string;
  volumeName?: string;
  accessModes: string[];
  /** A StatefulSet claim's retention policy, or `Ephemeral`: deleted with its pod. */
  retention?: ClaimRetention | 'Ephemeral';
  /** The pod that uses (or would use) the claim, when it exists. */
  pod?: string;
}

/**
 * Why the Flink REST API is not reachable, when that is known.
 *
 * @public
 */
export const REST_UNREACHABLE_REASONS = [
  /** The pods run on simulated (kwok) nodes: no Flink process runs in them. */
  'SimulatedNodes',
  /** No JobManager pod is Ready. */
  'NotRunning',
  /** The request failed (refused, timed out, HTTP error). */
  'Error',
] as const;
/** @public */
export type RestUnreachableReason = (typeof REST_UNREACHABLE_REASONS)[number];

/** @public */
export interface FlinkRestSummary {
  reachable: boolean;
  /** When the REST answers were fetched; absent when never. */
  fetchedAt?: string;
  unreachableReason?: RestUnreachableReason;
  error?: string;
  version?: string;
  taskManagersRegistered?: number;
  slotsTotal?: number;
  slotsFree?: number;
  /** Job counts by Flink job state (RUNNING, FINISHED, …). */
  jobsByState: Record<string, number>;
  /** The latest restore of a running job, when one happened since the job started. */
  lastRestore?: JobRestore;
}

/** @public */
export interface ClusterEvent {
  /** Normal or Warning. */
  type: string;
  reason: string;
  message: string;
  /** `Kind/name` of the involved object. */
  object: string;
  count: number;
  lastTimestamp?: string;
}

/**
 * What the observer reports about one Flink cluster.
 *
 * @public
 */
export interface FlinkClusterStatus {
  /** Kubernetes cluster name, and the Flink cluster's namespace and name. */
  cluster: string;
  namespace: string;
  name: string;
  jobManagerDeploymentStatus: JobManagerDeploymentStatus;
  /** CamelCase reason of the state; under ERROR, the error's reason. */
  reason: string;
  /** The state in a sentence. */
  message: string;
  /** The first of `errors`: JobManager before TaskManagers, by ordinal. */
  error?: ClusterError;
  errors: ClusterError[];
  conditions: ClusterCondition[];
  jobManager?: WorkloadStatus;
  taskManager?: WorkloadStatus;
  /** JobManager pods first, then TaskManagers, each by ordinal and name. */
  pods: PodStatus[];
  claims: ClaimStatus[];
  flink: FlinkRestSummary;
  /** Newest first. */
  events: ClusterEvent[];
  /** The savepoints its jobs were stopped with (upgrades, suspends), newest first. */
  savepoints: SavepointRecord[];
  observedAt: string;
  /** The cache lost its watch: what is shown is as of `lastSyncedAt`. */
  stale: boolean;
  lastSyncedAt?: string;
}
