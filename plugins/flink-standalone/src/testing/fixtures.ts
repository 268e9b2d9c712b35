import type { Entity } from '@backstage/catalog-model';
import {
  ANNOTATION_FLINK_CLUSTER,
  ANNOTATION_FLINK_NAMESPACE,
  ANNOTATION_KUBERNETES_CLUSTER,
  type ClaimStatus,
  type ClusterCondition,
  type ClusterConditionType,
  type EntityFlinkStatusResponse,
  type FlinkClusterStatus,
  type FlinkComponent,
  type PodStatus,
  type WorkloadStatus,
} from '@flink-standalone/plugin-flink-standalone-common';

/**
 * Typed builders of what the backend reports, shaped like the observer's output: a healthy
 * cluster by default, and one function per state the observer can report.
 */

export const NAME = 'orders';
export const NAMESPACE = 'streaming';
export const KUBERNETES_CLUSTER = 'local';
export const JM_REVISION = 'orders-6d9f7c5b8';
export const TM_REVISION = 'orders-taskmanager-7f8d9c6b5';
export const TM_OLD_REVISION = 'orders-taskmanager-5c4b3a291';

/** A fixed clock, so ages read the same in every run. */
export const NOW = new Date('2026-12-02T12:00:00Z');
export const secondsAgo = (seconds: number) =>
  new Date(NOW.getTime() - seconds * 1000).toISOString();

export function flinkEntity(name = 'orders-analytics'): Entity {
  return {
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'Component',
    metadata: {
      name,
      namespace: 'default',
      annotations: {
        [ANNOTATION_FLINK_CLUSTER]: NAME,
        [ANNOTATION_FLINK_NAMESPACE]: NAMESPACE,
        [ANNOTATION_KUBERNETES_CLUSTER]: KUBERNETES_CLUSTER,
      },
    },
    spec: { type: 'service', lifecycle: 'experimental', owner: 'team-streams' },
  };
}

export function entityWithoutAnnotations(): Entity {
  const entity = flinkEntity('plain-service');
  return { ...entity, metadata: { ...entity.metadata, annotations: {} } };
}

export function workload(
  component: FlinkComponent,
  overrides: Partial<WorkloadStatus> = {},
): WorkloadStatus {
  const isJobManager = component === 'jobmanager';
  const desired = overrides.replicas?.desired ?? (isJobManager ? 1 : 2);
  const revision = isJobManager ? JM_REVISION : TM_REVISION;
  return {
    kind: isJobManager ? 'Deployment' : 'StatefulSet',
    name: isJobManager ? NAME : `${NAME}-taskmanager`,
    component,
    replicas: {
      desired,
      current: desired,
      ready: desired,
      updated: desired,
      available: desired,
    },
    generation: 1,
    observedGeneration: 1,
    currentRevision: revision,
    updateRevision: revision,
    rolloutComplete: true,
    ...(isJobManager
      ? {}
      : {
          podManagementPolicy: 'Parallel',
          retention: { whenDeleted: 'Delete', whenScaled: 'Retain' },
        }),
    ...overrides,
  };
}

export function claimName(ordinal: number) {
  return `data-${NAME}-taskmanager-${ordinal}`;
}

export function taskManagerPod(
  ordinal: number,
  overrides: Partial<PodStatus> = {},
): PodStatus {
  const name = `${NAME}-taskmanager-${ordinal}`;
  return {
    name,
    component: 'taskmanager',
    ordinal,
    phase: 'Running',
    ready: true,
    restarts: 0,
    revision: TM_REVISION,
    updated: true,
    node: `worker-${ordinal % 3}`,
    nodeReady: true,
    startTime: secondsAgo(3600),
    stuck: false,
    claims: [claimName(ordinal)],
    ...overrides,
  };
}

export function jobManagerPod(overrides: Partial<PodStatus> = {}): PodStatus {
  return {
    name: `${NAME}-6d9f7c5b8-x2x7q`,
    component: 'jobmanager',
    ordinal: null,
    phase: 'Running',
    ready: true,
    restarts: 0,
    revision: JM_REVISION,
    updated: true,
    node: 'worker-0',
    nodeReady: true,
    startTime: secondsAgo(3700),
    stuck: false,
    claims: [],
    ...overrides,
  };
}

export function taskManagerClaim(
  ordinal: number,
  overrides: Partial<ClaimStatus> = {},
): ClaimStatus {
  return {
    name: claimName(ordinal),
    component: 'taskmanager',
    ordinal,
    template: 'data',
    phase: 'Bound',
    capacity: '10Gi',
    requested: '10Gi',
    storageClass: 'standard',
    volumeName: `pvc-0000-${ordinal}`,
    accessModes: ['ReadWriteOnce'],
    retention: { whenDeleted: 'Delete', whenScaled: 'Retain' },
    pod: `${NAME}-taskmanager-${ordinal}`,
    ...overrides,
  };
}

const ALL_TRUE: Record<ClusterConditionType, [string, string]> = {
  JobManagerReady: ['PodReady', 'JobManager pod is Ready'],
  TaskManagersReady: ['AllReady', 'all TaskManager pods are Ready'],
  TaskManagersRegistered: ['AllRegistered', 'all TaskManagers registered'],
  VolumesBound: ['AllBound', 'all claims are Bound'],
  RolloutComplete: ['UpToDate', 'all pods run the update revision'],
  NoStuckPods: ['NoneStuck', 'no pod is stuck terminating'],
  FlinkRestReachable: ['RestReachable', 'Flink 1.20.1 REST API answers'],
};

/** The conditions of a healthy cluster, with the given ones replaced. */
export function conditions(
  overrides: Partial<
    Record<ClusterConditionType, Omit<ClusterCondition, 'type'>>
  > = {},
): ClusterCondition[] {
  return (Object.keys(ALL_TRUE) as ClusterConditionType[]).map(type => {
    const [reason, message] = ALL_TRUE[type];
    return {
      type,
      status: 'True',
      reason,
      message,
      lastTransitionTime: secondsAgo(3500),
      ...overrides[type],
    };
  });
}

/** A READY cluster with a JobManager Deployment and a TaskManager StatefulSet of `taskManagers` ordinals. */
export function readyStatus(taskManagers = 2): FlinkClusterStatus {
  const ordinals = Array.from({ length: taskManagers }, (_, i) => i);
  return {
    cluster: KUBERNETES_CLUSTER,
    namespace: NAMESPACE,
    name: NAME,
    jobManagerDeploymentStatus: 'READY',
    reason: 'RestReachable',
    message: `Flink 1.20.1 REST API answers; ${taskManagers}/${taskManagers} TaskManagers registered`,
    errors: [],
    conditions: conditions(),
    jobManager: workload('jobmanager'),
    taskManager: workload('taskmanager', {
      replicas: {
        desired: taskManagers,
        current: taskManagers,
        ready: taskManagers,
        updated: taskManagers,
        available: taskManagers,
      },
    }),
    pods: [jobManagerPod(), ...ordinals.map(n => taskManagerPod(n))],
    claims: ordinals.map(n => taskManagerClaim(n)),
    flink: {
      reachable: true,
      fetchedAt: secondsAgo(5),
      version: '1.20.1',
      taskManagersRegistered: taskManagers,
      slotsTotal: taskManagers * 4,
      slotsFree: taskManagers * 4 - 2,
      jobsByState: { RUNNING: 1, FINISHED: 2 },
    },
    events: [
      {
        type: 'Normal',
        reason: 'SuccessfulCreate',
        message: `create Pod ${NAME}-taskmanager-0 in StatefulSet ${NAME}-taskmanager successful`,
        object: `StatefulSet/${NAME}-taskmanager`,
        count: 1,
        lastTimestamp: secondsAgo(3600),
      },
    ],
    savepoints: [
      {
        path: `s3://flink/savepoints/savepoint-${NAME}-1a2b3c`,
        time: secondsAgo(7200),
        trigger: 'upgrade',
        jobId: '8f4b2ad3c1e0f5a6b7c8d9e0f1a2b3c4',
        jobName: 'orders-enrichment',
      },
    ],
    observedAt: secondsAgo(12),
    stale: false,
  };
}

const UNREACHABLE = {
  reachable: false,
  unreachableReason: 'NotRunning',
  jobsByState: {},
} as const;

export function missingStatus(): FlinkClusterStatus {
  return {
    ...readyStatus(0),
    jobManagerDeploymentStatus: 'MISSING',
    reason: 'JobManagerMissing',
    message: `no JobManager workload ${NAME} in namespace ${NAMESPACE} of cluster ${KUBERNETES_CLUSTER}`,
    conditions: conditions({
      JobManagerReady: {
        status: 'False',
        reason: 'Missing',
        message: 'no JobManager workload',
      },
      FlinkRestReachable: {
        status: 'False',
        reason: 'NotRunning',
        message: 'no JobManager pod is Ready',
      },
    }),
    jobManager: undefined,
    taskManager: undefined,
    pods: [],
    claims: [],
    events: [],
    flink: UNREACHABLE,
  };
}

/** The JobManager pod is pulling its image, the TaskManagers wait for their claims. */
export function deployingStatus(): FlinkClusterStatus {
  const status = readyStatus(2);
  return {
    ...status,
    jobManagerDeploymentStatus: 'DEPLOYING',
    reason: 'PodPending',
    message: `JobManager pod ${jobManagerPod().name} is Pending (ContainerCreating)`,
    conditions: conditions({
      JobManagerReady: {
        status: 'False',
        reason: 'PodPending',
        message: 'JobManager pod is Pending',
      },
      TaskManagersReady: {
        status: 'False',
        reason: 'NotReady',
        message: '0/2 TaskManager pods are Ready',
      },
      FlinkRestReachable: {
        status: 'False',
        reason: 'NotRunning',
        message: 'no JobManager pod is Ready',
      },
    }),
    jobManager: workload('jobmanager', {
      replicas: { desired: 1, current: 1, ready: 0, updated: 1, available: 0 },
    }),
    taskManager: workload('taskmanager', {
      replicas: { desired: 2, current: 2, ready: 0, updated: 2, available: 0 },
    }),
    pods: [
      jobManagerPod({
        phase: 'Pending',
        ready: false,
        waitingReason: 'ContainerCreating',
      }),
      taskManagerPod(0, {
        phase: 'Pending',
        ready: false,
        waitingReason: 'ContainerCreating',
      }),
      taskManagerPod(1, {
        phase: 'Pending',
        ready: false,
        waitingReason: 'ContainerCreating',
      }),
    ],
    flink: UNREACHABLE,
  };
}

/** TaskManager 1 crash-loops. */
export function errorStatus(): FlinkClusterStatus {
  const status = readyStatus(2);
  const message = `TaskManager pod ${NAME}-taskmanager-1 container flink-main-container: back-off 5m0s restarting failed container`;
  return {
    ...status,
    jobManagerDeploymentStatus: 'ERROR',
    reason: 'CrashLoopBackOff',
    message,
    error: {
      reason: 'CrashLoopBackOff',
      message,
      component: 'taskmanager',
      object: `Pod/${NAME}-taskmanager-1`,
      pod: `${NAME}-taskmanager-1`,
      container: 'flink-main-container',
    },
    conditions: conditions({
      TaskManagersReady: {
        status: 'False',
        reason: 'NotReady',
        message: '1/2 TaskManager pods are Ready',
      },
    }),
    pods: [
      jobManagerPod(),
      taskManagerPod(0),
      taskManagerPod(1, {
        ready: false,
        restarts: 7,
        waitingReason: 'CrashLoopBackOff',
        terminatedReason: 'Error',
      }),
    ],
  };
}

/** Pods on kwok nodes: the JobManager is Ready, no Flink process answers. */
export function simulatedNodesStatus(): FlinkClusterStatus {
  const message =
    'REST not reachable: pods run on simulated (kwok) nodes, no Flink process runs in them';
  return {
    ...readyStatus(2),
    jobManagerDeploymentStatus: 'DEPLOYED_NOT_READY',
    reason: 'SimulatedNodes',
    message: `${message} (JobManager pod ${jobManagerPod().name} is Ready)`,
    conditions: conditions({
      TaskManagersRegistered: {
        status: 'Unknown',
        reason: 'RestUnreachable',
        message: 'Flink REST does not answer',
      },
      FlinkRestReachable: {
        status: 'False',
        reason: 'SimulatedNodes',
        message,
      },
    }),
    flink: {
      reachable: false,
      unreachableReason: 'SimulatedNodes',
      jobsByState: {},
    },
  };
}

/** The watch was lost a minute ago: the snapshot is as of then. */
export function staleStatus(): FlinkClusterStatus {
  return { ...readyStatus(2), stale: true, lastSyncedAt: secondsAgo(75) };
}

/** TaskManager 1 stays Terminating on a node that went away. */
export function stuckPodStatus(): FlinkClusterStatus {
  const status = readyStatus(2);
  const stuckMessage =
    'terminating for 15m on node worker-1, which is NotReady: the kubelet cannot confirm the deletion; if the node is gone, delete the pod with --force --grace-period=0';
  return {
    ...status,
    conditions: conditions({
      NoStuckPods: {
        status: 'False',
        reason: 'PodsStuck',
        message: `pod ${NAME}-taskmanager-1 is stuck terminating`,
      },
    }),
    pods: [
      jobManagerPod(),
      taskManagerPod(0),
      taskManagerPod(1, {
        node: 'worker-1',
        nodeReady: false,
        deletionTimestamp: secondsAgo(870),
        terminatingSince: secondsAgo(900),
        stuck: true,
        stuckMessage,
      }),
    ],
  };
}

/** A scale-up to 3 whose new claim waits for a volume. */
export function pendingClaimStatus(): FlinkClusterStatus {
  const status = readyStatus(2);
  return {
    ...status,
    conditions: conditions({
      VolumesBound: {
        status: 'False',
        reason: 'ClaimsPending',
        message: '2/3 claims are Bound',
      },
      TaskManagersReady: {
        status: 'False',
        reason: 'NotReady',
        message: '2/3 TaskManager pods are Ready',
      },
    }),
    taskManager: workload('taskmanager', {
      replicas: { desired: 3, current: 3, ready: 2, updated: 3, available: 2 },
    }),
    pods: [
      ...status.pods,
      taskManagerPod(2, {
        phase: 'Pending',
        ready: false,
        node: undefined,
        nodeReady: null,
        startTime: undefined,
        unschedulable: 'pod has unbound immediate PersistentVolumeClaims',
      }),
    ],
    claims: [
      ...status.claims,
      taskManagerClaim(2, {
        phase: 'Pending',
        capacity: undefined,
        volumeName: undefined,
      }),
    ],
  };
}

/** Halfway through a rolling update: ordinal 1 still runs the old revision. */
export function rollingUpdateStatus(): FlinkClusterStatus {
  const status = readyStatus(2);
  return {
    ...status,
    conditions: conditions({
      RolloutComplete: {
        status: 'False',
        reason: 'RollingUpdate',
        message: '1/2 TaskManager pods run the update revision',
      },
    }),
    taskManager: workload('taskmanager', {
      currentRevision: TM_OLD_REVISION,
      updateRevision: TM_REVISION,
      rolloutComplete: false,
      replicas: { desired: 2, current: 2, ready: 2, updated: 1, available: 2 },
    }),
    pods: [
      jobManagerPod(),
      taskManagerPod(0),
      taskManagerPod(1, { revision: TM_OLD_REVISION, updated: false }),
    ],
  };
}

export function statusResponse(
  status: FlinkClusterStatus = readyStatus(),
  flinkUiUrl?: string,
): EntityFlinkStatusResponse {
  return {
    location: {
      kubernetesCluster: status.cluster,
      namespace: status.namespace,
      name: status.name,
    },
    status,
    flinkUiUrl,
  };
}
