import type {
  CoreV1Event,
  V1Deployment,
  V1Node,
  V1PersistentVolumeClaim,
  V1Pod,
  V1ReplicaSet,
  V1StatefulSet,
} from '@kubernetes/client-node';
import type {
  JobRestore,
  RestUnreachableReason,
} from '@flink-standalone/plugin-flink-standalone-common';

/** @public */
export type Workload = V1StatefulSet | V1Deployment;

/**
 * What the watch cache holds about one Flink cluster.
 *
 * @public
 */
export interface ClusterSnapshot {
  /** Kubernetes cluster name (from config) and the Flink cluster's namespace/name (spec.name). */
  cluster: string;
  namespace: string;
  name: string;
  /** The workload named `<name>`; undefined → MISSING. */
  jobManager?: Workload;
  /** The workload named `<name>-taskmanager`. */
  taskManager?: Workload;
  /** Pods labelled app=<name>, type=flink-standalone-kubernetes; JM and TM by label `component`. */
  pods: V1Pod[];
  /** Claims labelled for this cluster: StatefulSet `<tpl>-<sts>-<ordinal>`, ephemeral `<pod>-<volume>`. */
  claims: V1PersistentVolumeClaim[];
  /**
   * The ReplicaSets of Deployment workloads. Only they tell which pod-template-hash is a
   * Deployment's update revision while it rolls out; without them it is known once complete.
   */
  replicaSets?: V1ReplicaSet[];
  /** Events whose involvedObject is one of the above. */
  events: CoreV1Event[];
  /** The nodes the pods run on (for stuck Terminating: node readiness; simulated nodes). */
  nodes: V1Node[];
  /** Cache state: stale when the watch is disconnected; lastSyncedAt = time of the last good sync (ISO). */
  stale: boolean;
  lastSyncedAt?: string;
}

/**
 * The latest answers of the cluster's Flink REST API.
 *
 * @public
 */
export interface FlinkRestObservation {
  reachable: boolean;
  fetchedAt: string;
  /** e.g. "connect ECONNREFUSED", "HTTP 503", timeout. */
  error?: string;
  /** Why REST cannot be reached, when the fetcher knows. */
  unreachableReason?: RestUnreachableReason;
  /** GET /overview */
  overview?: {
    flinkVersion: string;
    taskmanagers: number;
    slotsTotal: number;
    slotsAvailable: number;
    jobsRunning: number;
    jobsFinished: number;
    jobsCancelled: number;
    jobsFailed: number;
  };
  /** GET /taskmanagers */
  taskManagers?: {
    id: string;
    path?: string;
    slotsNumber: number;
    freeSlots: number;
    timeSinceLastHeartbeat?: number;
  }[];
  /** GET /jobs/overview */
  jobs?: {
    jid: string;
    name: string;
    state: string;
    startTime?: number;
    /** Changes with every job status transition (e.g. RESTARTING → RUNNING). */
    lastModification?: number;
    tasksRunning?: number;
    tasksTotal?: number;
  }[];
  /** The latest restore of a running job (checkpoint statistics and TaskManager logs). */
  lastRestore?: JobRestore;
}

/** @public */
export interface ObserveOptions {
  now: Date;
  /** A pod terminating longer than this (and past its grace period) is stuck. Default 300. */
  stuckTerminatingAfterSeconds: number;
  /** A StatefulSet rollout waiting longer than this for a pod to become Ready is blocked. Default 300. */
  stuckRolloutAfterSeconds?: number;
  /** Events kept in the status, newest first. Default 20. */
  maxEvents?: number;
}

export const DEFAULT_OBSERVE_OPTIONS = {
  stuckTerminatingAfterSeconds: 300,
  stuckRolloutAfterSeconds: 300,
  maxEvents: 20,
} as const;
