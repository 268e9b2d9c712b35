import type {
  CoreV1Event,
  V1ContainerStatus,
  V1Deployment,
  V1Node,
  V1PersistentVolumeClaim,
  V1Pod,
  V1PodCondition,
  V1ReplicaSet,
  V1StatefulSet,
} from '@kubernetes/client-node';
import {
  clusterObjectNames,
  FlinkComponent,
  MAIN_CONTAINER,
  TYPE_FLINK_STANDALONE,
} from '@flink-standalone/plugin-flink-standalone-common';
import type { ClusterSnapshot, FlinkRestObservation, Workload } from '../types';

/**
 * Builders of snapshots as the StatefulSet, ReplicaSet and Deployment controllers and the
 * kubelet would leave them: pods first, then the workload status counted from those pods.
 * Faults are pure functions from a pod to the pod a kubelet would report.
 */

export const NOW = new Date('2026-12-02T12:00:00Z');
export const NAME = 'orders';
export const NAMESPACE = 'streaming';
export const NAMES = clusterObjectNames(NAME);

export const minutesAgo = (minutes: number) =>
  new Date(NOW.getTime() - minutes * 60_000);

export type PodFault = (pod: V1Pod) => V1Pod;

export interface ComponentSetup {
  kind: 'StatefulSet' | 'Deployment';
  replicas: number;
  /** Claim templates (StatefulSet) or ephemeral volumes (Deployment). */
  claims?: string[];
  /** Pods actually created; defaults to `replicas`. */
  pods?: number;
  currentRevision?: string;
  updateRevision?: string;
  retention?: { whenDeleted: string; whenScaled: string };
  /** metadata.generation vs status.observedGeneration. */
  generation?: number;
  observedGeneration?: number;
  /** Deployment status conditions beyond Available/Progressing. */
  conditions?: {
    type: string;
    status: string;
    reason: string;
    message: string;
  }[];
}

export interface ScenarioSetup {
  /** null: the workload does not exist. */
  jobManager?: ComponentSetup | null;
  taskManager?: ComponentSetup | null;
  /** Applied to the generated pods by name, before the workload status is counted. */
  faults?: Record<string, PodFault>;
  /** Applied to the generated claims by name. */
  claimFaults?: Record<
    string,
    (claim: V1PersistentVolumeClaim) => V1PersistentVolumeClaim
  >;
  events?: CoreV1Event[];
  /** kwok nodes instead of real ones. */
  simulatedNodes?: boolean;
  notReadyNodes?: string[];
  /** Leave the ReplicaSets out, as a cache without them would. */
  withoutReplicaSets?: boolean;
  stale?: boolean;
  lastSyncedAt?: string;
}

const DEFAULT_JM: ComponentSetup = { kind: 'StatefulSet', replicas: 1 };
const DEFAULT_TM: ComponentSetup = {
  kind: 'StatefulSet',
  replicas: 2,
  claims: ['data'],
};

export const NODE_NAMES = ['node-a', 'node-b', 'node-c'];

export function scenario(setup: ScenarioSetup = {}): ClusterSnapshot {
  const built = (
    [
      [
        'jobmanager',
        setup.jobManager === undefined ? DEFAULT_JM : setup.jobManager,
      ],
      [
        'taskmanager',
        setup.taskManager === undefined ? DEFAULT_TM : setup.taskManager,
      ],
    ] as const
  ).map(([component, own]) =>
    own ? buildComponent(component, own, setup.faults ?? {}) : undefined,
  );
  const [jm, tm] = built;
  const claims = built
    .flatMap(c => c?.claims ?? [])
    .map(claim => setup.claimFaults?.[claim.metadata!.name!]?.(claim) ?? claim);
  return {
    cluster: 'prod-eu',
    namespace: NAMESPACE,
    name: NAME,
    jobManager: jm?.workload,
    taskManager: tm?.workload,
    pods: built.flatMap(c => c?.pods ?? []),
    claims,
    replicaSets: setup.withoutReplicaSets
      ? undefined
      : built.flatMap(c => c?.replicaSets ?? []),
    events: setup.events ?? [],
    nodes: NODE_NAMES.map(name =>
      node(name, {
        ready: !(setup.notReadyNodes ?? []).includes(name),
        simulated: setup.simulatedNodes ?? false,
      }),
    ),
    stale: setup.stale ?? false,
    lastSyncedAt: setup.lastSyncedAt ?? NOW.toISOString(),
  };
}

function labels(component: FlinkComponent) {
  return { app: NAME, component, type: TYPE_FLINK_STANDALONE };
}

function buildComponent(
  component: FlinkComponent,
  own: ComponentSetup,
  faults: Record<string, PodFault>,
) {
  const name =
    component === 'jobmanager' ? NAMES.jobManager : NAMES.taskManager;
  const count = own.pods ?? own.replicas;
  if (own.kind === 'StatefulSet') {
    const revision = own.currentRevision ?? `${name}-6f7d8c9b5`;
    const pods = Array.from({ length: count }, (_, ordinal) =>
      statefulSetPod(component, name, ordinal, revision, own.claims ?? []),
    ).map(pod => faults[pod.metadata!.name!]?.(pod) ?? pod);
    const claims = pods.flatMap(pod =>
      (own.claims ?? []).map(template =>
        boundClaim(`${template}-${pod.metadata!.name}`, component),
      ),
    );
    return {
      workload: statefulSet(component, name, own, revision, pods),
      pods,
      claims,
      replicaSets: [] as V1ReplicaSet[],
    };
  }
  const hash = own.updateRevision ?? '7c4b9d5f8';
  const pods = Array.from({ length: count }, (_, i) =>
    deploymentPod(component, name, hash, i, own.claims ?? []),
  ).map(pod => faults[pod.metadata!.name!]?.(pod) ?? pod);
  const claims = pods.flatMap(pod =>
    (own.claims ?? []).map(volume => ephemeralClaim(pod, volume, component)),
  );
  return {
    workload: deployment(component, name, own, hash, pods),
    pods,
    claims,
    replicaSets: replicaSets(name, component, pods, hash, own.currentRevision),
  };
}

function readyConditions(ready: boolean, at: Date): V1PodCondition[] {
  const status = ready ? 'True' : 'False';
  return [
    { type: 'PodScheduled', status: 'True', lastTransitionTime: at },
    { type: 'Initialized', status: 'True', lastTransitionTime: at },
    { type: 'ContainersReady', status, lastTransitionTime: at },
    { type: 'Ready', status, lastTransitionTime: at },
  ];
}

function runningContainer(): V1ContainerStatus {
  return {
    name: MAIN_CONTAINER,
    image: 'flink:2.1',
    imageID: 'docker.io/library/flink@sha256:0b1c',
    ready: true,
    started: true,
    restartCount: 0,
    state: { running: { startedAt: minutesAgo(59) } },
  };
}

function runningPodStatus(ordinal: number) {
  return {
    phase: 'Running',
    startTime: minutesAgo(60),
    podIP: `10.244.${ordinal % 3}.${10 + ordinal}`,
    conditions: readyConditions(true, minutesAgo(59)),
    containerStatuses: [runningContainer()],
  };
}

function statefulSetPod(
  component: FlinkComponent,
  sts: string,
  ordinal: number,
  revision: string,
  templates: string[],
): V1Pod {
  const name = `${sts}-${ordinal}`;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: NAMESPACE,
      uid: `uid-${name}`,
      creationTimestamp: minutesAgo(60),
      labels: {
        ...labels(component),
        'controller-revision-hash': revision,
        'statefulset.kubernetes.io/pod-name': name,
        'apps.kubernetes.io/pod-index': String(ordinal),
      },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'StatefulSet',
          name: sts,
          uid: `uid-${sts}`,
          controller: true,
        },
      ],
    },
    spec: {
      nodeName: NODE_NAMES[ordinal % NODE_NAMES.length],
      containers: [{ name: MAIN_CONTAINER, image: 'flink:2.1' }],
      terminationGracePeriodSeconds: 30,
      // The StatefulSet controller adds one claim volume per template.
      volumes: [
        ...templates.map(t => ({
          name: t,
          persistentVolumeClaim: { claimName: `${t}-${name}` },
        })),
        { name: 'flink-config-volume', configMap: { name: NAMES.configMap } },
      ],
    },
    status: runningPodStatus(ordinal),
  };
}

/** The pod-name suffix the ReplicaSet controller would pick. */
const podSuffix = (i: number) => `x${(i + 10).toString(36)}k2p`.slice(0, 5);

function deploymentPod(
  component: FlinkComponent,
  deploymentName: string,
  hash: string,
  i: number,
  volumes: string[],
): V1Pod {
  const replicaSet = `${deploymentName}-${hash}`;
  const name = `${replicaSet}-${podSuffix(i)}`;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: NAMESPACE,
      uid: `uid-${name}`,
      creationTimestamp: minutesAgo(60),
      labels: { ...labels(component), 'pod-template-hash': hash },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: replicaSet,
          uid: `uid-${replicaSet}`,
          controller: true,
        },
      ],
    },
    spec: {
      nodeName: NODE_NAMES[i % NODE_NAMES.length],
      containers: [{ name: MAIN_CONTAINER, image: 'flink:2.1' }],
      terminationGracePeriodSeconds: 30,
      volumes: volumes.map(v => ({
        name: v,
        ephemeral: {
          volumeClaimTemplate: {
            spec: {
              accessModes: ['ReadWriteOnce'],
              resources: { requests: { storage: '20Gi' } },
            },
          },
        },
      })),
    },
    status: runningPodStatus(i),
  };
}

const isReady = (pod: V1Pod) =>
  (pod.status?.conditions ?? []).some(
    c => c.type === 'Ready' && c.status === 'True',
  );
const isTerminating = (pod: V1Pod) =>
  pod.metadata?.deletionTimestamp !== undefined;

function statefulSet(
  component: FlinkComponent,
  name: string,
  own: ComponentSetup,
  currentRevision: string,
  pods: V1Pod[],
): V1StatefulSet {
  const updateRevision = own.updateRevision ?? currentRevision;
  const revision = (pod: V1Pod) =>
    pod.metadata?.labels?.['controller-revision-hash'];
  const live = pods.filter(p => !isTerminating(p));
  const updated = live.filter(p => revision(p) === updateRevision).length;
  const ready = pods.filter(isReady).length;
  const generation = own.generation ?? 1;
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: {
      name,
      namespace: NAMESPACE,
      uid: `uid-${name}`,
      generation,
      labels: labels(component),
    },
    spec: {
      replicas: own.replicas,
      serviceName: name,
      podManagementPolicy:
        component === 'jobmanager' ? 'Parallel' : 'OrderedReady',
      selector: { matchLabels: labels(component) },
      updateStrategy: {
        type: 'RollingUpdate',
        rollingUpdate: { partition: 0 },
      },
      persistentVolumeClaimRetentionPolicy: own.retention ?? {
        whenDeleted: 'Delete',
        whenScaled: 'Retain',
      },
      template: { metadata: { labels: labels(component) } },
      volumeClaimTemplates: (own.claims ?? []).map(t => ({
        metadata: { name: t },
        spec: {
          accessModes: ['ReadWriteOnce'],
          resources: { requests: { storage: '20Gi' } },
        },
      })),
    },
    status: {
      observedGeneration: own.observedGeneration ?? generation,
      replicas: pods.length,
      readyReplicas: ready,
      availableReplicas: ready,
      currentReplicas: live.filter(p => revision(p) === currentRevision).length,
      updatedReplicas: updated,
      // The controller moves currentRevision forward once every replica is updated and ready.
      currentRevision:
        updated === pods.length && ready === pods.length
          ? updateRevision
          : currentRevision,
      updateRevision,
      collisionCount: 0,
    },
  };
}

function deployment(
  component: FlinkComponent,
  name: string,
  own: ComponentSetup,
  hash: string,
  pods: V1Pod[],
): V1Deployment {
  // ReplicaSets count active pods only: a terminating pod is already replaced.
  const live = pods.filter(p => !isTerminating(p));
  const ready = live.filter(isReady).length;
  const generation = own.generation ?? 1;
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name,
      namespace: NAMESPACE,
      uid: `uid-${name}`,
      generation,
      labels: labels(component),
      annotations: { 'deployment.kubernetes.io/revision': '2' },
    },
    spec: {
      replicas: own.replicas,
      selector: { matchLabels: labels(component) },
      strategy: {
        type: 'RollingUpdate',
        rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' },
      },
      template: { metadata: { labels: labels(component) } },
    },
    status: {
      observedGeneration: own.observedGeneration ?? generation,
      replicas: live.length,
      readyReplicas: ready,
      availableReplicas: ready,
      unavailableReplicas: Math.max(own.replicas - ready, 0),
      updatedReplicas: live.filter(
        p => p.metadata?.labels?.['pod-template-hash'] === hash,
      ).length,
      // A stated condition replaces the default of its type.
      conditions: [
        ...defaultDeploymentConditions(
          name,
          hash,
          ready >= own.replicas,
        ).filter(c => !own.conditions?.some(o => o.type === c.type)),
        ...(own.conditions ?? []),
      ],
    },
  };
}

function defaultDeploymentConditions(
  name: string,
  hash: string,
  available: boolean,
) {
  return [
    {
      type: 'Available',
      status: available ? 'True' : 'False',
      reason: available
        ? 'MinimumReplicasAvailable'
        : 'MinimumReplicasUnavailable',
      message: available
        ? 'Deployment has minimum availability.'
        : 'Deployment does not have minimum availability.',
    },
    {
      type: 'Progressing',
      status: 'True',
      reason: 'NewReplicaSetAvailable',
      message: `ReplicaSet "${name}-${hash}" has successfully progressed.`,
    },
  ];
}

/** The new ReplicaSet at revision 2 with the pods of `hash`, an old one with the rest. */
function replicaSets(
  deploymentName: string,
  component: FlinkComponent,
  pods: V1Pod[],
  hash: string,
  oldHash: string | undefined,
): V1ReplicaSet[] {
  const count = (h: string) =>
    pods.filter(
      p => !isTerminating(p) && p.metadata?.labels?.['pod-template-hash'] === h,
    ).length;
  const replicaSet = (h: string, revision: string): V1ReplicaSet => ({
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: `${deploymentName}-${h}`,
      namespace: NAMESPACE,
      uid: `uid-${deploymentName}-${h}`,
      labels: { ...labels(component), 'pod-template-hash': h },
      annotations: { 'deployment.kubernetes.io/revision': revision },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          name: deploymentName,
          uid: `uid-${deploymentName}`,
          controller: true,
        },
      ],
    },
    spec: {
      replicas: count(h),
      selector: {
        matchLabels: { ...labels(component), 'pod-template-hash': h },
      },
    },
    status: { replicas: count(h), readyReplicas: count(h) },
  });
  return [
    replicaSet(hash, '2'),
    ...(oldHash && oldHash !== hash ? [replicaSet(oldHash, '1')] : []),
  ];
}

function boundClaim(
  name: string,
  component: FlinkComponent,
): V1PersistentVolumeClaim {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: {
      name,
      namespace: NAMESPACE,
      uid: `uid-${name}`,
      labels: labels(component),
    },
    spec: {
      accessModes: ['ReadWriteOnce'],
      storageClassName: 'fast-ssd',
      volumeName: `pvc-${name}`,
      resources: { requests: { storage: '20Gi' } },
    },
    status: {
      phase: 'Bound',
      accessModes: ['ReadWriteOnce'],
      capacity: { storage: '20Gi' },
    },
  };
}

/** Kubernetes creates an ephemeral volume's claim as <pod>-<volume>, owned by the pod. */
function ephemeralClaim(
  pod: V1Pod,
  volume: string,
  component: FlinkComponent,
): V1PersistentVolumeClaim {
  const claim = boundClaim(`${pod.metadata!.name}-${volume}`, component);
  return {
    ...claim,
    metadata: {
      ...claim.metadata,
      ownerReferences: [
        {
          apiVersion: 'v1',
          kind: 'Pod',
          name: pod.metadata!.name!,
          uid: pod.metadata!.uid!,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
  };
}

export function node(
  name: string,
  {
    ready = true,
    simulated = false,
  }: { ready?: boolean; simulated?: boolean } = {},
): V1Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: {
        'kubernetes.io/hostname': name,
        ...(simulated && { type: 'kwok' }),
      },
      annotations: simulated ? { 'kwok.x-k8s.io/node': 'fake' } : {},
    },
    status: {
      conditions: [
        ready
          ? {
              type: 'Ready',
              status: 'True',
              reason: 'KubeletReady',
              message: 'kubelet is posting ready status',
            }
          : {
              type: 'Ready',
              status: 'Unknown',
              reason: 'NodeStatusUnknown',
              message: 'Kubelet stopped posting node status.',
            },
      ],
    },
  };
}

// ---- Pod faults, as the kubelet reports them ----

function notReady(
  pod: V1Pod,
  container: V1ContainerStatus,
  phase = 'Running',
): V1Pod {
  return {
    ...pod,
    status: {
      ...pod.status,
      phase,
      conditions: readyConditions(false, minutesAgo(5)).map(c =>
        c.status === 'False' ? { ...c, reason: 'ContainersNotReady' } : c,
      ),
      containerStatuses: [container],
    },
  };
}

export const waitingFor =
  (reason: string, message: string, phase = 'Running'): PodFault =>
  pod =>
    notReady(
      pod,
      {
        ...runningContainer(),
        ready: false,
        started: false,
        restartCount: reason === 'CrashLoopBackOff' ? 5 : 0,
        state: { waiting: { reason, message } },
        lastState:
          reason === 'CrashLoopBackOff'
            ? {
                terminated: {
                  exitCode: 1,
                  reason: 'Error',
                  // What the kubelet keeps with FallbackToLogsOnError: the end of the log.
                  message: [
                    'Starting StandaloneApplicationClusterEntryPoint.',
                    'Loading configuration from /opt/flink/conf.',
                    'Shutting down.',
                    'Could not start cluster entrypoint StandaloneApplicationClusterEntryPoint.',
                    'Caused by: java.io.FileNotFoundException: /opt/flink/usrlib/missing.jar',
                    '\tat org.apache.flink.client.program.PackagedProgram.loadMainClass(PackagedProgram.java:467)',
                    '\t... 4 more',
                    'Terminating.',
                    '',
                  ].join('\n'),
                  startedAt: minutesAgo(3),
                  finishedAt: minutesAgo(2),
                },
              }
            : {},
      },
      phase,
    );

export const crashLoop = waitingFor(
  'CrashLoopBackOff',
  `back-off 5m0s restarting failed container=${MAIN_CONTAINER} pod=orders-0_streaming`,
);
export const imagePullBackOff = waitingFor(
  'ImagePullBackOff',
  'Back-off pulling image "flink:9.9"',
  'Pending',
);
export const errImagePull = waitingFor(
  'ErrImagePull',
  'rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/flink:9.9": not found',
  'Pending',
);
export const runContainerError = waitingFor(
  'RunContainerError',
  'failed to start container: exec: "/docker-entrypoint.sh": permission denied',
);
export const createContainerConfigError = waitingFor(
  'CreateContainerConfigError',
  'secret "flink-s3" not found',
  'Pending',
);

/** The kubelet restarts an OOM-killed container and backs off: waiting, last state OOMKilled. */
export const oomKilled: PodFault = pod =>
  notReady(pod, {
    ...runningContainer(),
    ready: false,
    started: false,
    restartCount: 3,
    state: {
      waiting: {
        reason: 'CrashLoopBackOff',
        message: 'back-off 40s restarting failed container',
      },
    },
    lastState: {
      terminated: {
        exitCode: 137,
        reason: 'OOMKilled',
        startedAt: minutesAgo(4),
        finishedAt: minutesAgo(3),
      },
    },
  });

/** Killed once, running and ready again since. */
export const recoveredFromOom: PodFault = pod => ({
  ...pod,
  status: {
    ...pod.status,
    containerStatuses: [
      {
        ...runningContainer(),
        restartCount: 1,
        lastState: {
          terminated: {
            exitCode: 137,
            reason: 'OOMKilled',
            startedAt: minutesAgo(30),
            finishedAt: minutesAgo(20),
          },
        },
      },
    ],
  },
});

export const containerCreating: PodFault = pod =>
  notReady(
    pod,
    {
      ...runningContainer(),
      ready: false,
      started: false,
      state: { waiting: { reason: 'ContainerCreating' } },
    },
    'Pending',
  );

export const runningNotReady: PodFault = pod =>
  notReady(pod, { ...runningContainer(), ready: false });

/** What the scheduler leaves on a pod it cannot place. */
export const unschedulable =
  (message = '0/3 nodes are available: 3 Insufficient memory.'): PodFault =>
  pod => ({
    ...pod,
    spec: { ...pod.spec!, nodeName: undefined },
    status: {
      phase: 'Pending',
      conditions: [
        {
          type: 'PodScheduled',
          status: 'False',
          reason: 'Unschedulable',
          message,
          lastTransitionTime: minutesAgo(5),
        },
      ],
    },
  });

/** Deleted `minutes` ago with the given grace period; finalizers (if any) hold it. */
export const terminating =
  (
    minutes: number,
    { grace = 30, finalizers }: { grace?: number; finalizers?: string[] } = {},
  ): PodFault =>
  pod => ({
    ...pod,
    metadata: {
      ...pod.metadata,
      deletionTimestamp: new Date(minutesAgo(minutes).getTime() + grace * 1000),
      deletionGracePeriodSeconds: grace,
      ...(finalizers && { finalizers }),
    },
  });

export const atRevision =
  (revision: string): PodFault =>
  pod => ({
    ...pod,
    metadata: {
      ...pod.metadata,
      labels: { ...pod.metadata!.labels, 'controller-revision-hash': revision },
    },
  });

export const both =
  (...faults: PodFault[]): PodFault =>
  pod =>
    faults.reduce((p, f) => f(p), pod);

// ---- Claims ----

export const pendingClaim = (
  claim: V1PersistentVolumeClaim,
): V1PersistentVolumeClaim => ({
  ...claim,
  spec: { ...claim.spec, volumeName: undefined },
  status: { phase: 'Pending' },
});

export const lostClaim = (
  claim: V1PersistentVolumeClaim,
): V1PersistentVolumeClaim => ({
  ...claim,
  status: { phase: 'Lost' },
});

// ---- Events ----

export interface EventSetup {
  kind: string;
  name: string;
  reason: string;
  message: string;
  type?: 'Normal' | 'Warning';
  minutesAgo?: number;
  count?: number;
  /** The involved object's uid; defaults to the builders' uid for that name. */
  uid?: string;
}

let eventCounter = 0;

export function event(setup: EventSetup): CoreV1Event {
  const at = minutesAgo(setup.minutesAgo ?? 1);
  eventCounter += 1;
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: {
      name: `${setup.name}.${eventCounter.toString(16)}`,
      namespace: NAMESPACE,
    },
    involvedObject: {
      kind: setup.kind,
      name: setup.name,
      namespace: NAMESPACE,
      uid: setup.uid ?? `uid-${setup.name}`,
    },
    reason: setup.reason,
    message: setup.message,
    type: setup.type ?? 'Warning',
    count: setup.count ?? 1,
    firstTimestamp: at,
    lastTimestamp: at,
    source: {
      component: setup.kind === 'Pod' ? 'kubelet' : 'statefulset-controller',
    },
  };
}

// ---- Flink REST ----

export function restUp({
  taskManagers = 2,
  slotsPerTaskManager = 2,
  freeSlots = 2,
  jobs = [{ state: 'RUNNING' }],
}: {
  taskManagers?: number;
  slotsPerTaskManager?: number;
  freeSlots?: number;
  jobs?: { state: string }[];
} = {}): FlinkRestObservation {
  const count = (state: string) => jobs.filter(j => j.state === state).length;
  return {
    reachable: true,
    fetchedAt: NOW.toISOString(),
    overview: {
      flinkVersion: '2.1.0',
      taskmanagers: taskManagers,
      slotsTotal: taskManagers * slotsPerTaskManager,
      slotsAvailable: freeSlots,
      jobsRunning: count('RUNNING'),
      jobsFinished: count('FINISHED'),
      jobsCancelled: count('CANCELED'),
      jobsFailed: count('FAILED'),
    },
    jobs: jobs.map((j, i) => ({
      jid: `jid-${i}`,
      name: `job-${i}`,
      state: j.state,
    })),
  };
}

export function restDown(
  error = 'connect ECONNREFUSED 10.96.0.12:8081',
): FlinkRestObservation {
  return {
    reachable: false,
    fetchedAt: NOW.toISOString(),
    error,
    unreachableReason: 'Error',
  };
}

/** Replaces a snapshot's workload (for tweaks the scenario does not cover). */
export function withWorkload(
  snapshot: ClusterSnapshot,
  component: FlinkComponent,
  update: (w: Workload) => Workload,
): ClusterSnapshot {
  return component === 'jobmanager'
    ? {
        ...snapshot,
        jobManager: snapshot.jobManager && update(snapshot.jobManager),
      }
    : {
        ...snapshot,
        taskManager: snapshot.taskManager && update(snapshot.taskManager),
      };
}

/** A Deployment pod of an older ReplicaSet (template hash `hash`), mid-rollout. */
export const fromReplicaSet =
  (hash: string): PodFault =>
  pod => {
    const deploymentName = pod.metadata!.ownerReferences![0].name.replace(
      /-[a-z0-9]+$/,
      '',
    );
    const replicaSet = `${deploymentName}-${hash}`;
    const name = `${replicaSet}-${pod.metadata!.name!.split('-').pop()}`;
    return {
      ...pod,
      metadata: {
        ...pod.metadata,
        name,
        uid: `uid-${name}`,
        labels: { ...pod.metadata!.labels, 'pod-template-hash': hash },
        ownerReferences: [
          {
            ...pod.metadata!.ownerReferences![0],
            name: replicaSet,
            uid: `uid-${replicaSet}`,
          },
        ],
      },
    };
  };
