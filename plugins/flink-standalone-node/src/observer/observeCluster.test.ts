import {
  ClusterConditionType,
  FlinkClusterStatus,
  findCondition,
  isHealthy,
} from '@flink-standalone/plugin-flink-standalone-common';
import { observeCluster, statusChangesAt } from './observeCluster';
import type { V1Pod, V1StatefulSet } from '@kubernetes/client-node';
import type { ClusterSnapshot, FlinkRestObservation } from './types';
import {
  NOW,
  atRevision,
  both,
  containerCreating,
  crashLoop,
  createContainerConfigError,
  errImagePull,
  event,
  fromReplicaSet,
  imagePullBackOff,
  lostClaim,
  minutesAgo,
  node,
  oomKilled,
  pendingClaim,
  recoveredFromOom,
  restDown,
  restUp,
  runContainerError,
  runningNotReady,
  scenario,
  terminating,
  unschedulable,
  waitingFor,
  withWorkload,
} from './testing/snapshots';

const observe = (
  snapshot: ClusterSnapshot,
  rest?: FlinkRestObservation,
  maxEvents?: number,
) =>
  observeCluster(snapshot, rest, {
    now: NOW,
    stuckTerminatingAfterSeconds: 300,
    maxEvents,
  });

const condition = (status: FlinkClusterStatus, type: ClusterConditionType) => {
  const found = findCondition(status, type);
  if (!found) throw new Error(`no condition ${type}`);
  return found;
};

const pod = (status: FlinkClusterStatus, name: string) => {
  const found = status.pods.find(p => p.name === name);
  if (!found)
    throw new Error(
      `no pod ${name} in ${status.pods.map(p => p.name).join(', ')}`,
    );
  return found;
};

const claim = (status: FlinkClusterStatus, name: string) => {
  const found = status.claims.find(c => c.name === name);
  if (!found) throw new Error(`no claim ${name}`);
  return found;
};

const SIMULATED_MESSAGE =
  'REST not reachable: pods run on simulated (kwok) nodes, no Flink process runs in them';

describe('observeCluster: JobManagerDeploymentStatus', () => {
  it.each<{
    title: string;
    snapshot: ClusterSnapshot;
    rest?: FlinkRestObservation;
    state: FlinkClusterStatus['jobManagerDeploymentStatus'];
    reason: string;
    message: unknown;
  }>([
    {
      title: 'MISSING without a JobManager workload',
      snapshot: scenario({ jobManager: null }),
      rest: restDown(),
      state: 'MISSING',
      reason: 'JobManagerMissing',
      message: 'no JobManager workload streaming/orders in cluster prod-eu',
    },
    {
      title: 'DEPLOYING before the controller created a pod',
      snapshot: scenario({
        jobManager: { kind: 'StatefulSet', replicas: 1, pods: 0 },
      }),
      state: 'DEPLOYING',
      reason: 'NoPods',
      message: 'JobManager StatefulSet orders has no pods yet',
    },
    {
      title: 'DEPLOYING while scaled to zero',
      snapshot: scenario({ jobManager: { kind: 'StatefulSet', replicas: 0 } }),
      state: 'DEPLOYING',
      reason: 'ScaledToZero',
      message: 'JobManager StatefulSet orders is scaled to 0 replicas',
    },
    {
      title: 'DEPLOYING while the scheduler cannot place the JobManager',
      snapshot: scenario({ faults: { 'orders-0': unschedulable() } }),
      state: 'DEPLOYING',
      reason: 'Unschedulable',
      message:
        'JobManager pod orders-0 cannot be scheduled: 0/3 nodes are available: 3 Insufficient memory.',
    },
    {
      title: 'DEPLOYING while the container is being created (not an error)',
      snapshot: scenario({ faults: { 'orders-0': containerCreating } }),
      state: 'DEPLOYING',
      reason: 'PodPending',
      message: 'JobManager pod orders-0 is Pending (ContainerCreating)',
    },
    {
      title:
        'DEPLOYING while the JobManager runs but fails its readiness probe',
      snapshot: scenario({ faults: { 'orders-0': runningNotReady } }),
      rest: restDown(),
      state: 'DEPLOYING',
      reason: 'PodNotReady',
      message: 'JobManager pod orders-0 is Running but not Ready',
    },
    {
      title:
        'DEPLOYING while the only JobManager pod terminates (a ready terminating pod does not count)',
      snapshot: scenario({ faults: { 'orders-0': terminating(1) } }),
      rest: restUp(),
      state: 'DEPLOYING',
      reason: 'PodTerminating',
      message: 'JobManager pod orders-0 is terminating, no replacement yet',
    },
    {
      title: 'DEPLOYED_NOT_READY before REST was queried',
      snapshot: scenario(),
      state: 'DEPLOYED_NOT_READY',
      reason: 'RestNotQueried',
      message: 'REST not queried yet (JobManager pod orders-0 is Ready)',
    },
    {
      title: 'DEPLOYED_NOT_READY while REST refuses connections',
      snapshot: scenario(),
      rest: restDown(),
      state: 'DEPLOYED_NOT_READY',
      reason: 'RestUnreachable',
      message:
        'REST not reachable: connect ECONNREFUSED 10.96.0.12:8081 (JobManager pod orders-0 is Ready)',
    },
    {
      title: 'DEPLOYED_NOT_READY, said plainly, on simulated nodes',
      snapshot: scenario({ simulatedNodes: true }),
      rest: restDown('timeout of 2000ms exceeded'),
      state: 'DEPLOYED_NOT_READY',
      reason: 'SimulatedNodes',
      message: `${SIMULATED_MESSAGE} (JobManager pod orders-0 is Ready)`,
    },
    {
      // A direct REST URL may reach a real Flink: nothing is known before its first answer.
      title: 'DEPLOYED_NOT_READY on simulated nodes before REST was queried',
      snapshot: scenario({ simulatedNodes: true }),
      state: 'DEPLOYED_NOT_READY',
      reason: 'RestNotQueried',
      message: 'REST not queried yet (JobManager pod orders-0 is Ready)',
    },
    {
      title: 'READY when REST answers',
      snapshot: scenario(),
      rest: restUp({ jobs: [{ state: 'RUNNING' }, { state: 'FINISHED' }] }),
      state: 'READY',
      reason: 'RestReachable',
      message:
        'Flink 2.1.0 REST API answers; 2/2 TaskManagers registered; 2/4 slots free; jobs: 1 RUNNING, 1 FINISHED',
    },
    {
      title: 'READY on simulated nodes when a real Flink answers',
      snapshot: scenario({ simulatedNodes: true }),
      rest: restUp({ jobs: [] }),
      state: 'READY',
      reason: 'RestReachable',
      message: expect.stringMatching(/no jobs$/),
    },
  ])('$title', ({ snapshot, rest, state, reason, message }) => {
    const status = observe(snapshot, rest);
    expect(status.jobManagerDeploymentStatus).toBe(state);
    expect(status.reason).toBe(reason);
    expect(status.message).toEqual(message);
    // Only errors are errors.
    expect(status.errors).toEqual([]);
  });

  it('recognises a simulated node by the kwok annotation alone', () => {
    const snapshot = scenario();
    const annotated = node('node-a');
    annotated.metadata!.annotations = { 'kwok.x-k8s.io/node': 'fake' };
    const status = observe({ ...snapshot, nodes: [annotated] }, restDown());
    expect(status.flink.unreachableReason).toBe('SimulatedNodes');
    expect(condition(status, 'FlinkRestReachable')).toMatchObject({
      status: 'False',
      reason: 'SimulatedNodes',
      message: SIMULATED_MESSAGE,
    });
  });

  it('keeps the fetcher’s reason when the JobManager runs on real nodes', () => {
    const rest = {
      ...restDown('HTTP 503'),
      unreachableReason: 'NotRunning' as const,
    };
    expect(observe(scenario(), rest).flink).toEqual({
      reachable: false,
      fetchedAt: NOW.toISOString(),
      unreachableReason: 'NotRunning',
      error: 'HTTP 503',
      jobsByState: {},
    });
  });

  it('says NotRunning when no JobManager pod is Ready, whatever the request said', () => {
    const status = observe(
      scenario({ faults: { 'orders-0': runningNotReady } }),
      restDown(),
    );
    expect(condition(status, 'FlinkRestReachable')).toMatchObject({
      status: 'False',
      reason: 'NotRunning',
      message: 'REST not reachable: no JobManager pod is Ready',
    });
  });
});

describe('observeCluster: ERROR and its reasons', () => {
  it.each<{
    title: string;
    snapshot: ClusterSnapshot;
    reason: string;
    error: Record<string, unknown>;
  }>([
    {
      title: 'CrashLoopBackOff of a TaskManager',
      snapshot: scenario({ faults: { 'orders-taskmanager-1': crashLoop } }),
      reason: 'CrashLoopBackOff',
      error: {
        component: 'taskmanager',
        object: 'Pod/orders-taskmanager-1',
        pod: 'orders-taskmanager-1',
        container: 'flink-main-container',
        message:
          'TaskManager pod orders-taskmanager-1, container flink-main-container: CrashLoopBackOff: back-off 5m0s restarting failed container=flink-main-container pod=orders-0_streaming; last exit: code 1 (Error), last output:\n' +
          'Loading configuration from /opt/flink/conf.\n' +
          'Shutting down.\n' +
          'Could not start cluster entrypoint StandaloneApplicationClusterEntryPoint.\n' +
          'Caused by: java.io.FileNotFoundException: /opt/flink/usrlib/missing.jar\n' +
          'Terminating.',
      },
    },
    {
      title: 'ImagePullBackOff of the JobManager',
      snapshot: scenario({ faults: { 'orders-0': imagePullBackOff } }),
      reason: 'ImagePullBackOff',
      error: {
        component: 'jobmanager',
        pod: 'orders-0',
        message:
          'JobManager pod orders-0, container flink-main-container: ImagePullBackOff: Back-off pulling image "flink:9.9"',
      },
    },
    {
      title: 'ErrImagePull',
      snapshot: scenario({ faults: { 'orders-0': errImagePull } }),
      reason: 'ErrImagePull',
      error: {
        pod: 'orders-0',
        message: expect.stringContaining('flink:9.9": not found'),
      },
    },
    {
      title: 'RunContainerError',
      snapshot: scenario({
        faults: { 'orders-taskmanager-0': runContainerError },
      }),
      reason: 'RunContainerError',
      error: {
        pod: 'orders-taskmanager-0',
        message: expect.stringContaining('permission denied'),
      },
    },
    {
      title: 'CreateContainerConfigError',
      snapshot: scenario({
        faults: { 'orders-0': createContainerConfigError },
      }),
      reason: 'CreateContainerConfigError',
      error: {
        pod: 'orders-0',
        message: expect.stringContaining('secret "flink-s3" not found'),
      },
    },
    {
      title: 'OOMKilled, which explains the back-off it causes',
      snapshot: scenario({ faults: { 'orders-taskmanager-0': oomKilled } }),
      reason: 'OOMKilled',
      error: {
        pod: 'orders-taskmanager-0',
        container: 'flink-main-container',
        message:
          'TaskManager pod orders-taskmanager-0, container flink-main-container: killed for exceeding its memory limit (OOMKilled, exit code 137), restarted 3 times',
      },
    },
    {
      title: 'OOMKilled as the current state (not restarted yet)',
      snapshot: scenario({
        faults: {
          'orders-0': p => ({
            ...p,
            status: {
              ...p.status,
              containerStatuses: [
                {
                  name: 'flink-main-container',
                  image: 'flink:2.1',
                  imageID: '',
                  ready: false,
                  restartCount: 0,
                  state: { terminated: { exitCode: 137, reason: 'OOMKilled' } },
                },
              ],
            },
          }),
        },
      }),
      reason: 'OOMKilled',
      error: { pod: 'orders-0' },
    },
    {
      title: 'an init container that cannot pull the job jar fetcher',
      snapshot: scenario({
        faults: {
          'orders-0': p => ({
            ...imagePullBackOff(p),
            status: {
              ...imagePullBackOff(p).status,
              initContainerStatuses: [
                {
                  name: 'fetch-job-jar',
                  image: 'curlimages/curl:8.10.1',
                  imageID: '',
                  ready: false,
                  restartCount: 0,
                  state: {
                    waiting: {
                      reason: 'ErrImagePull',
                      message: 'pull access denied',
                    },
                  },
                },
              ],
              containerStatuses: [
                {
                  name: 'flink-main-container',
                  image: 'flink:2.1',
                  imageID: '',
                  ready: false,
                  restartCount: 0,
                  state: { waiting: { reason: 'PodInitializing' } },
                },
              ],
            },
          }),
        },
      }),
      reason: 'ErrImagePull',
      error: { pod: 'orders-0', container: 'fetch-job-jar' },
    },
    {
      title: 'FailedMount, reported again, on a pod that is not Ready',
      snapshot: scenario({
        faults: { 'orders-taskmanager-1': containerCreating },
        events: [
          event({
            kind: 'Pod',
            name: 'orders-taskmanager-1',
            reason: 'FailedMount',
            message:
              'MountVolume.SetUp failed for volume "data" : mount failed: exit status 32',
            count: 3,
          }),
        ],
      }),
      reason: 'FailedMount',
      error: {
        component: 'taskmanager',
        pod: 'orders-taskmanager-1',
        object: 'Pod/orders-taskmanager-1',
        message:
          'TaskManager pod orders-taskmanager-1: MountVolume.SetUp failed for volume "data" : mount failed: exit status 32',
      },
    },
    {
      title: 'FailedAttachVolume on a pod that is not Ready',
      snapshot: scenario({
        faults: { 'orders-taskmanager-0': containerCreating },
        events: [
          event({
            kind: 'Pod',
            name: 'orders-taskmanager-0',
            reason: 'FailedAttachVolume',
            message:
              'AttachVolume.Attach failed for volume "pvc-data-orders-taskmanager-0" : rpc error: code = Internal',
            count: 2,
          }),
        ],
      }),
      reason: 'FailedAttachVolume',
      error: {
        pod: 'orders-taskmanager-0',
        message: expect.stringContaining('AttachVolume.Attach failed'),
      },
    },
    {
      title: 'FailedCreate on a StatefulSet that is missing pods',
      snapshot: scenario({
        taskManager: {
          kind: 'StatefulSet',
          replicas: 3,
          pods: 2,
          claims: ['data'],
        },
        events: [
          event({
            kind: 'StatefulSet',
            name: 'orders-taskmanager',
            reason: 'FailedCreate',
            message:
              'create Pod orders-taskmanager-2 in StatefulSet orders-taskmanager failed error: pods "orders-taskmanager-2" is forbidden: exceeded quota: compute, requested: limits.memory=4Gi',
          }),
        ],
      }),
      reason: 'FailedCreate',
      error: {
        component: 'taskmanager',
        object: 'StatefulSet/orders-taskmanager',
        message: expect.stringMatching(
          /^TaskManager StatefulSet orders-taskmanager: create Pod orders-taskmanager-2 .*exceeded quota/,
        ),
      },
    },
    {
      title: 'FailedCreate on a Deployment’s ReplicaSet',
      snapshot: scenario({
        taskManager: { kind: 'Deployment', replicas: 2, pods: 1 },
        events: [
          event({
            kind: 'ReplicaSet',
            name: 'orders-taskmanager-7c4b9d5f8',
            reason: 'FailedCreate',
            message:
              'Error creating: pods "orders-taskmanager-7c4b9d5f8-" is forbidden: exceeded quota',
          }),
        ],
      }),
      reason: 'FailedCreate',
      error: {
        object: 'Deployment/orders-taskmanager',
        message: expect.stringContaining('exceeded quota'),
      },
    },
    {
      title: 'FailedCreate as a Deployment’s ReplicaFailure condition',
      snapshot: scenario({
        jobManager: {
          kind: 'Deployment',
          replicas: 1,
          pods: 0,
          conditions: [
            {
              type: 'ReplicaFailure',
              status: 'True',
              reason: 'FailedCreate',
              message:
                'pods "orders-7c4b9d5f8-" is forbidden: error looking up service account streaming/orders: serviceaccount "orders" not found',
            },
          ],
        },
      }),
      reason: 'FailedCreate',
      error: {
        component: 'jobmanager',
        object: 'Deployment/orders',
        message: expect.stringMatching(
          /^JobManager Deployment orders: .*serviceaccount "orders" not found/,
        ),
      },
    },
  ])('$title', ({ snapshot, reason, error }) => {
    const status = observe(snapshot, restUp());
    expect(status.jobManagerDeploymentStatus).toBe('ERROR');
    expect(status.reason).toBe(reason);
    expect(status.error).toMatchObject({ reason, ...error });
    expect(status.message).toBe(status.error!.message);
    expect(isHealthy(status)).toBe(false);
  });

  it.each<{ title: string; snapshot: ClusterSnapshot }>([
    {
      title: 'a FailedMount event of a pod that has since become Ready',
      snapshot: scenario({
        events: [
          event({
            kind: 'Pod',
            name: 'orders-taskmanager-1',
            reason: 'FailedMount',
            message: 'timed out',
            count: 3,
          }),
        ],
      }),
    },
    {
      title:
        'a FailedMount event of an earlier pod of the same name (other uid)',
      snapshot: scenario({
        faults: { 'orders-taskmanager-1': containerCreating },
        events: [
          event({
            kind: 'Pod',
            name: 'orders-taskmanager-1',
            uid: 'uid-gone',
            reason: 'FailedMount',
            message: 'timed out',
            count: 3,
          }),
        ],
      }),
    },
    {
      title:
        'a single FailedMount of a pod still starting (the kubelet retries, and the next try mounts)',
      snapshot: scenario({
        faults: { 'orders-taskmanager-1': containerCreating },
        events: [
          event({
            kind: 'Pod',
            name: 'orders-taskmanager-1',
            reason: 'FailedMount',
            message:
              'MountVolume.SetUp failed for volume "flink-config-volume" : failed to sync configmap cache: timed out waiting for the condition',
          }),
        ],
      }),
    },
    {
      title: 'a FailedCreate event once every pod exists',
      snapshot: scenario({
        events: [
          event({
            kind: 'StatefulSet',
            name: 'orders-taskmanager',
            reason: 'FailedCreate',
            message: 'quota',
          }),
        ],
      }),
    },
    {
      title: 'a FailedCreate event of another Deployment’s ReplicaSet',
      snapshot: scenario({
        jobManager: { kind: 'Deployment', replicas: 1 },
        taskManager: { kind: 'Deployment', replicas: 2, pods: 1 },
        events: [
          event({
            kind: 'ReplicaSet',
            name: 'orders-5d8f9c7b4',
            reason: 'FailedCreate',
            message: 'quota',
          }),
        ],
      }),
    },
    {
      title: 'a container that was OOM-killed once and runs again',
      snapshot: scenario({
        faults: { 'orders-taskmanager-0': recoveredFromOom },
      }),
    },
    {
      title: 'a crash-looping pod that is already terminating',
      snapshot: scenario({
        faults: { 'orders-taskmanager-1': both(crashLoop, terminating(1)) },
      }),
    },
    {
      title: 'a Normal event that happens to say FailedMount',
      snapshot: scenario({
        faults: { 'orders-taskmanager-1': containerCreating },
        events: [
          event({
            kind: 'Pod',
            name: 'orders-taskmanager-1',
            reason: 'FailedMount',
            message: 'x',
            type: 'Normal',
          }),
        ],
      }),
    },
  ])('is not an error: $title', ({ snapshot }) => {
    const status = observe(snapshot, restUp());
    expect(status.errors).toEqual([]);
    expect(status.jobManagerDeploymentStatus).toBe('READY');
  });

  it('lists every error, JobManager first, and counts the others in the message', () => {
    const status = observe(
      scenario({
        faults: {
          'orders-taskmanager-0': crashLoop,
          'orders-taskmanager-1': imagePullBackOff,
          'orders-0': oomKilled,
        },
      }),
      restDown(),
    );
    expect(status.errors.map(e => [e.reason, e.pod])).toEqual([
      ['OOMKilled', 'orders-0'],
      ['CrashLoopBackOff', 'orders-taskmanager-0'],
      ['ImagePullBackOff', 'orders-taskmanager-1'],
    ]);
    expect(status.error).toBe(status.errors[0]);
    expect(status.message).toMatch(
      /^JobManager pod orders-0, .*OOMKilled.* \(and 2 more errors\)$/,
    );
  });

  it('reports a workload error before its pods’ errors', () => {
    const status = observe(
      scenario({
        taskManager: { kind: 'StatefulSet', replicas: 3, pods: 2 },
        faults: { 'orders-taskmanager-0': crashLoop },
        events: [
          event({
            kind: 'StatefulSet',
            name: 'orders-taskmanager',
            reason: 'FailedCreate',
            message: 'quota',
          }),
        ],
      }),
    );
    expect(status.errors.map(e => e.reason)).toEqual([
      'FailedCreate',
      'CrashLoopBackOff',
    ]);
  });

  it('takes the newest of repeated events', () => {
    const status = observe(
      scenario({
        faults: { 'orders-taskmanager-1': containerCreating },
        events: [
          event({
            kind: 'Pod',
            name: 'orders-taskmanager-1',
            reason: 'FailedMount',
            message: 'old',
            minutesAgo: 9,
          }),
          event({
            kind: 'Pod',
            name: 'orders-taskmanager-1',
            reason: 'FailedMount',
            message: 'new',
            minutesAgo: 1,
          }),
          event({
            kind: 'Pod',
            name: 'orders-taskmanager-1',
            reason: 'FailedMount',
            message: 'older',
            minutesAgo: 20,
          }),
        ],
      }),
    );
    expect(status.errors).toHaveLength(1);
    expect(status.error?.message).toBe(
      'TaskManager pod orders-taskmanager-1: new',
    );
  });

  it('still reports errors of the TaskManagers while the JobManager is MISSING', () => {
    const status = observe(
      scenario({
        jobManager: null,
        faults: { 'orders-taskmanager-0': crashLoop },
      }),
    );
    expect(status.jobManagerDeploymentStatus).toBe('MISSING');
    expect(status.errors.map(e => e.pod)).toEqual(['orders-taskmanager-0']);
  });
});

describe('observeCluster: conditions', () => {
  it('are all True for a healthy cluster, in a fixed order', () => {
    const status = observe(scenario(), restUp());
    expect(status.conditions).toEqual([
      {
        type: 'JobManagerReady',
        status: 'True',
        reason: 'PodReady',
        message: '1/1 JobManager pods ready',
      },
      {
        type: 'TaskManagersReady',
        status: 'True',
        reason: 'AllReady',
        message: '2/2 TaskManagers ready',
      },
      {
        type: 'TaskManagersRegistered',
        status: 'True',
        reason: 'AllRegistered',
        message: '2/2 TaskManagers registered with the JobManager',
      },
      {
        type: 'VolumesBound',
        status: 'True',
        reason: 'AllBound',
        message: '2/2 claims bound',
      },
      {
        type: 'RolloutComplete',
        status: 'True',
        reason: 'Complete',
        message: 'every pod runs the latest revision',
      },
      {
        type: 'NoStuckPods',
        status: 'True',
        reason: 'NoneStuck',
        message: 'no pod is terminating',
      },
      {
        type: 'FlinkRestReachable',
        status: 'True',
        reason: 'Reachable',
        message: 'Flink 2.1.0 REST API answers',
      },
    ]);
    expect(isHealthy(status)).toBe(true);
  });

  it('TaskManagersRegistered: False when Flink knows fewer TaskManagers than desired', () => {
    const status = observe(scenario(), restUp({ taskManagers: 1 }));
    expect(status.jobManagerDeploymentStatus).toBe('READY');
    expect(condition(status, 'TaskManagersRegistered')).toMatchObject({
      status: 'False',
      reason: 'MissingRegistrations',
      message: '1/2 TaskManagers registered with the JobManager',
    });
    expect(condition(status, 'TaskManagersReady').status).toBe('True');
    expect(isHealthy(status)).toBe(false);
  });

  it('TaskManagersRegistered: True with more registered than desired (old ones not yet timed out)', () => {
    expect(
      condition(
        observe(scenario(), restUp({ taskManagers: 3 })),
        'TaskManagersRegistered',
      ),
    ).toMatchObject({
      status: 'True',
      message: '3/2 TaskManagers registered with the JobManager',
    });
  });

  it('TaskManagersRegistered: Unknown without REST', () => {
    expect(
      condition(observe(scenario(), restDown()), 'TaskManagersRegistered'),
    ).toMatchObject({
      status: 'Unknown',
      reason: 'RestUnavailable',
      message: 'REST not reachable: connect ECONNREFUSED 10.96.0.12:8081',
    });
  });

  it('TaskManagersReady: names the pods that are not ready', () => {
    const status = observe(
      scenario({ faults: { 'orders-taskmanager-1': crashLoop } }),
      restUp(),
    );
    expect(condition(status, 'TaskManagersReady')).toMatchObject({
      status: 'False',
      reason: 'NotAllReady',
      message: '1/2 TaskManagers ready; not ready: orders-taskmanager-1',
    });
  });

  it('TaskManagersReady and RolloutComplete: False without a TaskManager workload', () => {
    const status = observe(scenario({ taskManager: null }), restUp());
    expect(condition(status, 'TaskManagersReady')).toMatchObject({
      status: 'False',
      reason: 'WorkloadMissing',
    });
    expect(condition(status, 'RolloutComplete')).toMatchObject({
      status: 'False',
      reason: 'WorkloadMissing',
    });
    expect(status.taskManager).toBeUndefined();
  });

  it('JobManagerReady: one Ready JobManager of two (HA standby starting) is enough', () => {
    const status = observe(
      scenario({
        jobManager: { kind: 'StatefulSet', replicas: 2 },
        faults: { 'orders-1': runningNotReady },
      }),
      restUp(),
    );
    expect(condition(status, 'JobManagerReady')).toMatchObject({
      status: 'True',
      message: '1/2 JobManager pods ready',
    });
    expect(status.jobManagerDeploymentStatus).toBe('READY');
  });

  it('JobManagerReady: False with no Ready JobManager', () => {
    expect(
      condition(
        observe(scenario({ faults: { 'orders-0': containerCreating } })),
        'JobManagerReady',
      ),
    ).toMatchObject({
      status: 'False',
      reason: 'NoPodReady',
      message: '0/1 JobManager pods ready',
    });
  });

  it('FlinkRestReachable: Unknown before REST was queried', () => {
    expect(condition(observe(scenario()), 'FlinkRestReachable')).toMatchObject({
      status: 'Unknown',
      reason: 'NotQueried',
      message: 'REST not queried yet',
    });
  });
});

describe('observeCluster: claims and VolumesBound', () => {
  it('shows a Pending claim in VolumesBound and in its claim status', () => {
    const status = observe(
      scenario({
        faults: {
          'orders-taskmanager-1': unschedulable(
            '0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims.',
          ),
        },
        claimFaults: { 'data-orders-taskmanager-1': pendingClaim },
      }),
      restUp({ taskManagers: 1 }),
    );
    expect(condition(status, 'VolumesBound')).toEqual({
      type: 'VolumesBound',
      status: 'False',
      reason: 'ClaimPending',
      message: '1/2 claims bound; Pending: data-orders-taskmanager-1',
    });
    expect(claim(status, 'data-orders-taskmanager-1')).toEqual({
      name: 'data-orders-taskmanager-1',
      component: 'taskmanager',
      ordinal: 1,
      template: 'data',
      phase: 'Pending',
      capacity: undefined,
      requested: '20Gi',
      storageClass: 'fast-ssd',
      volumeName: undefined,
      accessModes: ['ReadWriteOnce'],
      retention: { whenDeleted: 'Delete', whenScaled: 'Retain' },
      pod: 'orders-taskmanager-1',
    });
    expect(pod(status, 'orders-taskmanager-1')).toMatchObject({
      phase: 'Pending',
      node: undefined,
      nodeReady: null,
      unschedulable:
        '0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims.',
      claims: ['data-orders-taskmanager-1'],
    });
  });

  it('a Lost claim outweighs a Pending one', () => {
    const status = observe(
      scenario({
        claimFaults: {
          'data-orders-taskmanager-0': lostClaim,
          'data-orders-taskmanager-1': pendingClaim,
        },
      }),
    );
    expect(condition(status, 'VolumesBound')).toMatchObject({
      status: 'False',
      reason: 'ClaimLost',
      message: '0/2 claims bound; Lost: data-orders-taskmanager-0',
    });
  });

  it('VolumesBound is True for a cluster without claims', () => {
    expect(
      condition(
        observe(
          scenario({ taskManager: { kind: 'StatefulSet', replicas: 2 } }),
        ),
        'VolumesBound',
      ),
    ).toMatchObject({ status: 'True', reason: 'NoClaims' });
  });

  it('keeps the claim of a scaled-away ordinal (retained) with no pod', () => {
    const snapshot = scenario({
      taskManager: {
        kind: 'StatefulSet',
        replicas: 1,
        pods: 1,
        claims: ['data'],
      },
    });
    const retained = {
      ...snapshot.claims[0],
      metadata: {
        ...snapshot.claims[0].metadata,
        name: 'data-orders-taskmanager-1',
      },
    };
    const status = observe({
      ...snapshot,
      claims: [...snapshot.claims, retained],
    });
    expect(claim(status, 'data-orders-taskmanager-1')).toMatchObject({
      ordinal: 1,
      template: 'data',
      pod: undefined,
      phase: 'Bound',
    });
  });

  it('tells JobManager and TaskManager claims apart by name when the labels are missing', () => {
    const snapshot = scenario({
      jobManager: { kind: 'StatefulSet', replicas: 1, claims: ['data'] },
      taskManager: { kind: 'StatefulSet', replicas: 1, claims: ['data'] },
    });
    const unlabelled = {
      ...snapshot,
      claims: snapshot.claims.map(c => ({
        ...c,
        metadata: { ...c.metadata, labels: {} },
      })),
    };
    expect(
      observe(unlabelled).claims.map(c => [c.name, c.component, c.ordinal]),
    ).toEqual([
      ['data-orders-0', 'jobmanager', 0],
      ['data-orders-taskmanager-0', 'taskmanager', 0],
    ]);
  });

  it('reads a claim template with dashes in it from the claim name, and no ordinal from a name that has none or no dash before the workload’s name', () => {
    const snapshot = scenario({
      taskManager: {
        kind: 'StatefulSet',
        replicas: 2,
        claims: ['local-state'],
      },
    });
    const stray = {
      ...snapshot.claims[0],
      metadata: { ...snapshot.claims[0].metadata, name: 'orders-taskmanager' },
    };
    // Ends in the workload's name and an ordinal, with no dash before the workload's name.
    const glued = {
      ...stray,
      metadata: { ...stray.metadata, name: 'stateorders-taskmanager-0' },
    };
    const status = observe({
      ...snapshot,
      claims: [...snapshot.claims, stray, glued],
    });
    expect(
      status.claims.map(c => [c.name, c.template, c.ordinal, c.pod]),
    ).toEqual([
      [
        'local-state-orders-taskmanager-0',
        'local-state',
        0,
        'orders-taskmanager-0',
      ],
      [
        'local-state-orders-taskmanager-1',
        'local-state',
        1,
        'orders-taskmanager-1',
      ],
      ['orders-taskmanager', undefined, null, undefined],
      ['stateorders-taskmanager-0', undefined, null, undefined],
    ]);
  });

  it('defaults the retention to Kubernetes’ Retain/Retain when the StatefulSet sets none', () => {
    const snapshot = withWorkload(scenario(), 'taskmanager', w => ({
      ...w,
      spec: { ...w.spec!, persistentVolumeClaimRetentionPolicy: undefined },
    }));
    const status = observe(snapshot);
    expect(status.taskManager?.retention).toEqual({
      whenDeleted: 'Retain',
      whenScaled: 'Retain',
    });
    expect(claim(status, 'data-orders-taskmanager-0').retention).toEqual({
      whenDeleted: 'Retain',
      whenScaled: 'Retain',
    });
  });
});

describe('observeCluster: Deployments', () => {
  it('Deployment TaskManagers: ephemeral claims per pod, no ordinals', () => {
    const status = observe(
      scenario({
        taskManager: { kind: 'Deployment', replicas: 2, claims: ['data'] },
      }),
      restUp(),
    );
    expect(status.jobManagerDeploymentStatus).toBe('READY');
    const tms = status.pods.filter(p => p.component === 'taskmanager');
    expect(tms.map(p => [p.name, p.ordinal, p.revision, p.updated])).toEqual([
      ['orders-taskmanager-7c4b9d5f8-xak2p', null, '7c4b9d5f8', true],
      ['orders-taskmanager-7c4b9d5f8-xbk2p', null, '7c4b9d5f8', true],
    ]);
    expect(tms[0].claims).toEqual(['orders-taskmanager-7c4b9d5f8-xak2p-data']);
    expect(
      claim(status, 'orders-taskmanager-7c4b9d5f8-xak2p-data'),
    ).toMatchObject({
      component: 'taskmanager',
      ordinal: null,
      template: 'data',
      retention: 'Ephemeral',
      pod: 'orders-taskmanager-7c4b9d5f8-xak2p',
      phase: 'Bound',
      capacity: '20Gi',
    });
    expect(status.taskManager).toMatchObject({
      kind: 'Deployment',
      name: 'orders-taskmanager',
      replicas: { desired: 2, current: 2, ready: 2, updated: 2, available: 2 },
      updateRevision: '7c4b9d5f8',
      currentRevision: '7c4b9d5f8',
      rolloutComplete: true,
    });
    expect(status.taskManager?.retention).toBeUndefined();
    expect(condition(status, 'VolumesBound').message).toBe('2/2 claims bound');
  });

  it('a JobManager Deployment works like a StatefulSet one', () => {
    const status = observe(
      scenario({ jobManager: { kind: 'Deployment', replicas: 1 } }),
      restUp(),
    );
    expect(status.jobManagerDeploymentStatus).toBe('READY');
    expect(status.jobManager).toMatchObject({
      kind: 'Deployment',
      name: 'orders',
    });
    expect(status.pods[0]).toMatchObject({
      name: 'orders-7c4b9d5f8-xak2p',
      component: 'jobmanager',
      ordinal: null,
    });
  });

  it('reads the update revision from the new ReplicaSet during a rollout', () => {
    const status = observe(
      scenario({
        taskManager: {
          kind: 'Deployment',
          replicas: 2,
          pods: 3,
          currentRevision: '5d8f9c7b4',
          updateRevision: '7c4b9d5f8',
        },
        faults: {
          'orders-taskmanager-7c4b9d5f8-xak2p': fromReplicaSet('5d8f9c7b4'),
          'orders-taskmanager-7c4b9d5f8-xbk2p': fromReplicaSet('5d8f9c7b4'),
        },
      }),
      restUp(),
    );
    expect(status.taskManager).toMatchObject({
      currentRevision: '5d8f9c7b4',
      updateRevision: '7c4b9d5f8',
      replicas: { desired: 2, current: 3, updated: 1 },
      rolloutComplete: false,
    });
    expect(
      status.pods
        .filter(p => p.component === 'taskmanager')
        .map(p => [p.revision, p.updated]),
    ).toEqual([
      ['5d8f9c7b4', false],
      ['5d8f9c7b4', false],
      ['7c4b9d5f8', true],
    ]);
    expect(condition(status, 'RolloutComplete')).toMatchObject({
      status: 'False',
      reason: 'RolloutInProgress',
      message:
        'TaskManager Deployment orders-taskmanager: 1/2 pods updated, 3/2 ready (from 5d8f9c7b4 to 7c4b9d5f8)',
    });
  });

  it('a rollout is not complete while an old pod remains, even with all new pods ready', () => {
    const status = observe(
      scenario({
        taskManager: {
          kind: 'Deployment',
          replicas: 2,
          pods: 3,
          currentRevision: '5d8f9c7b4',
        },
        faults: {
          'orders-taskmanager-7c4b9d5f8-xck2p': fromReplicaSet('5d8f9c7b4'),
        },
      }),
    );
    expect(status.taskManager?.replicas).toMatchObject({
      desired: 2,
      current: 3,
      updated: 2,
    });
    expect(status.taskManager?.rolloutComplete).toBe(false);
    expect(condition(status, 'RolloutComplete').status).toBe('False');
  });

  it('places claims a StatefulSet left behind when a Deployment replaced it', () => {
    const leftover = scenario().claims[1];
    const snapshot = scenario({
      taskManager: { kind: 'Deployment', replicas: 1 },
    });
    expect(
      claim(
        observe({ ...snapshot, claims: [leftover] }),
        'data-orders-taskmanager-1',
      ),
    ).toMatchObject({
      ordinal: 1,
      template: 'data',
      component: 'taskmanager',
      retention: undefined,
      pod: undefined,
    });
  });

  it('without ReplicaSets, knows the revision once the rollout is complete, not before', () => {
    const complete = observe(
      scenario({
        taskManager: { kind: 'Deployment', replicas: 2 },
        withoutReplicaSets: true,
      }),
    );
    expect(complete.taskManager?.updateRevision).toBe('7c4b9d5f8');
    expect(
      complete.pods
        .filter(p => p.component === 'taskmanager')
        .every(p => p.updated === true),
    ).toBe(true);
    const rolling = observe(
      scenario({
        taskManager: { kind: 'Deployment', replicas: 2, pods: 3 },
        faults: {
          'orders-taskmanager-7c4b9d5f8-xak2p': fromReplicaSet('5d8f9c7b4'),
        },
        withoutReplicaSets: true,
      }),
    );
    expect(rolling.taskManager?.updateRevision).toBeUndefined();
    expect(
      rolling.pods
        .filter(p => p.component === 'taskmanager')
        .map(p => p.updated),
    ).toEqual([null, null, null]);
  });

  it('reports a rollout past its progress deadline', () => {
    const status = observe(
      scenario({
        taskManager: {
          kind: 'Deployment',
          replicas: 2,
          conditions: [
            {
              type: 'Progressing',
              status: 'False',
              reason: 'ProgressDeadlineExceeded',
              message:
                'ReplicaSet "orders-taskmanager-7c4b9d5f8" has timed out progressing.',
            },
          ],
        },
      }),
    );
    expect(condition(status, 'RolloutComplete')).toMatchObject({
      status: 'False',
      reason: 'ProgressDeadlineExceeded',
      message:
        'TaskManager Deployment orders-taskmanager: ReplicaSet "orders-taskmanager-7c4b9d5f8" has timed out progressing.',
    });
  });

  it('pods of a Deployment stuck terminating: the advice fits a Deployment', () => {
    const status = observe(
      scenario({
        taskManager: { kind: 'Deployment', replicas: 1 },
        faults: { 'orders-taskmanager-7c4b9d5f8-xak2p': terminating(30) },
        notReadyNodes: ['node-a'],
      }),
    );
    expect(
      pod(status, 'orders-taskmanager-7c4b9d5f8-xak2p').stuckMessage,
    ).toMatch(/^node node-a is NotReady: .*its claims stay in use until then$/);
  });
});

describe('observeCluster: rollout of StatefulSets', () => {
  it('marks pods not at the update revision, highest ordinal updated first', () => {
    const status = observe(
      scenario({
        taskManager: {
          kind: 'StatefulSet',
          replicas: 3,
          claims: ['data'],
          currentRevision: 'orders-taskmanager-6f7d8c9b5',
          updateRevision: 'orders-taskmanager-84c5d7f9b',
          generation: 2,
        },
        faults: {
          'orders-taskmanager-2': atRevision('orders-taskmanager-84c5d7f9b'),
        },
      }),
      restUp({ taskManagers: 3 }),
    );
    expect(status.taskManager).toMatchObject({
      kind: 'StatefulSet',
      currentRevision: 'orders-taskmanager-6f7d8c9b5',
      updateRevision: 'orders-taskmanager-84c5d7f9b',
      replicas: { desired: 3, current: 3, ready: 3, updated: 1, available: 3 },
      podManagementPolicy: 'OrderedReady',
      rolloutComplete: false,
    });
    expect(
      status.pods
        .filter(p => p.component === 'taskmanager')
        .map(p => [p.ordinal, p.updated]),
    ).toEqual([
      [0, false],
      [1, false],
      [2, true],
    ]);
    expect(condition(status, 'RolloutComplete')).toMatchObject({
      status: 'False',
      reason: 'RolloutInProgress',
      message:
        'TaskManager StatefulSet orders-taskmanager: 1/3 pods updated, 3/3 ready (from orders-taskmanager-6f7d8c9b5 to orders-taskmanager-84c5d7f9b)',
    });
    expect(status.jobManagerDeploymentStatus).toBe('READY');
    expect(isHealthy(status)).toBe(false);
  });

  const GOOD = 'orders-taskmanager-6f7d8c9b5';
  const BROKEN = 'orders-taskmanager-84c5d7f9b';
  /** Three TaskManagers; ordinal 2 was replaced at `podRevision` and has not been Ready for 5 min. */
  const rollout = (
    updateRevision: string,
    podRevision: string,
    policy?: 'Parallel',
  ) => {
    const snapshot = scenario({
      taskManager: {
        kind: 'StatefulSet',
        replicas: 3,
        claims: ['data'],
        currentRevision: GOOD,
        updateRevision,
        generation: 3,
      },
      faults: {
        'orders-taskmanager-2': both(atRevision(podRevision), runningNotReady),
      },
    });
    if (policy)
      (snapshot.taskManager as V1StatefulSet).spec!.podManagementPolicy =
        policy;
    return snapshot;
  };

  it('names the forced-rollback trap: the template reverted, a broken pod left behind, only a delete helps', () => {
    const status = observe(rollout(GOOD, BROKEN), restUp({ taskManagers: 2 }));
    expect(status.taskManager?.rolloutBlocked).toEqual({
      pod: 'orders-taskmanager-2',
      revision: BROKEN,
      updateRevision: GOOD,
      notReadySince: minutesAgo(5).toISOString(),
      deleteRequired: true,
      message: expect.stringContaining(
        'the rollout stays blocked until pod orders-taskmanager-2 is deleted',
      ),
    });
    expect(condition(status, 'RolloutComplete')).toMatchObject({
      status: 'False',
      reason: 'RolloutBlocked',
      message: expect.stringMatching(
        /^TaskManager StatefulSet orders-taskmanager: pod orders-taskmanager-2 \(revision orders-taskmanager-84c5d7f9b\) has not been Ready for 5 min/,
      ),
    });
  });

  it('a pod of the new revision that never becomes Ready blocks the rollout: fix and apply again', () => {
    const status = observe(
      rollout(BROKEN, BROKEN),
      restUp({ taskManagers: 2 }),
    );
    expect(status.taskManager?.rolloutBlocked).toMatchObject({
      pod: 'orders-taskmanager-2',
      deleteRequired: false,
    });
    expect(status.taskManager?.rolloutBlocked?.message).toMatch(
      /^the rollout waits for pod orders-taskmanager-2 .* apply again$/,
    );
  });

  it('under Parallel the controller replaces a stale pod itself: no delete needed', () => {
    const status = observe(
      rollout(GOOD, BROKEN, 'Parallel'),
      restUp({ taskManagers: 2 }),
    );
    expect(status.taskManager?.rolloutBlocked?.deleteRequired).toBe(false);
  });

  it('is not blocked before the threshold: still in progress', () => {
    const status = observeCluster(rollout(GOOD, BROKEN), undefined, {
      now: NOW,
      stuckTerminatingAfterSeconds: 300,
      stuckRolloutAfterSeconds: 600,
    });
    expect(status.taskManager?.rolloutBlocked).toBeUndefined();
    expect(condition(status, 'RolloutComplete').reason).toBe(
      'RolloutInProgress',
    );
  });

  it('says so when the controller has not yet seen the new generation', () => {
    const status = observe(
      scenario({
        jobManager: {
          kind: 'StatefulSet',
          replicas: 1,
          generation: 3,
          observedGeneration: 2,
        },
      }),
    );
    expect(condition(status, 'RolloutComplete').message).toBe(
      'JobManager StatefulSet orders: the controller has not yet seen generation 3',
    );
  });

  it('recognises a StatefulSet listed without `kind`', () => {
    const snapshot = withWorkload(
      scenario(),
      'taskmanager',
      ({ kind, ...w }) => w,
    );
    expect(observe(snapshot).taskManager?.kind).toBe('StatefulSet');
  });

  it('takes the ordinal from the name when the pod-index label is absent', () => {
    const snapshot = scenario();
    const pods = snapshot.pods.map(p => {
      const { ['apps.kubernetes.io/pod-index']: _index, ...labels } =
        p.metadata!.labels!;
      return { ...p, metadata: { ...p.metadata, labels } };
    });
    expect(
      observe({ ...snapshot, pods }).pods.map(p => [p.name, p.ordinal]),
    ).toEqual([
      ['orders-0', 0],
      ['orders-taskmanager-0', 0],
      ['orders-taskmanager-1', 1],
    ]);
  });
});

describe('observeCluster: pods stuck Terminating', () => {
  it('a pod on a NotReady node, terminating for 10 minutes, is stuck', () => {
    const status = observe(
      scenario({
        faults: { 'orders-taskmanager-1': terminating(10) },
        notReadyNodes: ['node-b'],
      }),
      restUp(),
    );
    const stuck = pod(status, 'orders-taskmanager-1');
    expect(stuck).toMatchObject({
      node: 'node-b',
      nodeReady: false,
      stuck: true,
      terminatingSince: minutesAgo(10).toISOString(),
      deletionTimestamp: new Date(
        minutesAgo(10).getTime() + 30_000,
      ).toISOString(),
      stuckMessage:
        'node node-b is NotReady: the pod cannot finish terminating; if the node is gone, delete the Node object or force-delete the pod (kubectl delete pod --grace-period=0 --force orders-taskmanager-1) — the StatefulSet will not recreate ordinal 1 until then',
    });
    expect(condition(status, 'NoStuckPods')).toEqual({
      type: 'NoStuckPods',
      status: 'False',
      reason: 'PodStuckTerminating',
      message: `pod orders-taskmanager-1: ${stuck.stuckMessage}`,
    });
  });

  it('a finalizer holding a pod on a Ready node is named', () => {
    const status = observe(
      scenario({
        faults: {
          'orders-taskmanager-0': terminating(6, {
            finalizers: ['testenv.flink-standalone.io/stuck'],
          }),
        },
      }),
    );
    expect(pod(status, 'orders-taskmanager-0')).toMatchObject({
      nodeReady: true,
      stuck: true,
    });
    expect(pod(status, 'orders-taskmanager-0').stuckMessage).toMatch(
      /^finalizers testenv.flink-standalone.io\/stuck hold the pod: .*kubectl patch pod orders-taskmanager-0 .* — the StatefulSet will not recreate ordinal 0 until then$/,
    );
  });

  it.each([
    { title: 'within the threshold', fault: terminating(4) },
    {
      title: 'past the threshold but within its own grace period',
      fault: terminating(6, { grace: 600 }),
    },
  ])('is not stuck $title', ({ fault }) => {
    const status = observe(
      scenario({
        faults: { 'orders-taskmanager-1': fault },
        notReadyNodes: ['node-b'],
      }),
    );
    expect(pod(status, 'orders-taskmanager-1').stuck).toBe(false);
    expect(pod(status, 'orders-taskmanager-1').stuckMessage).toBeUndefined();
    expect(condition(status, 'NoStuckPods')).toMatchObject({
      status: 'True',
      message: '1 pods terminating, within the threshold',
    });
  });

  it('honours the configured threshold', () => {
    const snapshot = scenario({
      faults: { 'orders-taskmanager-1': terminating(4) },
    });
    const status = observeCluster(snapshot, undefined, {
      now: NOW,
      stuckTerminatingAfterSeconds: 60,
    });
    expect(pod(status, 'orders-taskmanager-1').stuck).toBe(true);
  });

  it('a node missing from the snapshot: readiness unknown, generic advice', () => {
    const snapshot = scenario({
      faults: { 'orders-taskmanager-1': terminating(10) },
    });
    const status = observe({
      ...snapshot,
      nodes: snapshot.nodes.filter(n => n.metadata?.name !== 'node-b'),
    });
    expect(pod(status, 'orders-taskmanager-1')).toMatchObject({
      nodeReady: null,
      stuck: true,
    });
    expect(pod(status, 'orders-taskmanager-1').stuckMessage).toMatch(
      /^node node-b is unknown to the cluster; /,
    );
  });
});

describe('observeCluster: pods', () => {
  it('summarizes a running StatefulSet pod as the kubelet reports it', () => {
    expect(pod(observe(scenario()), 'orders-taskmanager-1')).toEqual({
      name: 'orders-taskmanager-1',
      component: 'taskmanager',
      ordinal: 1,
      phase: 'Running',
      ready: true,
      restarts: 0,
      revision: 'orders-taskmanager-6f7d8c9b5',
      updated: true,
      unschedulable: undefined,
      node: 'node-b',
      nodeReady: true,
      startTime: minutesAgo(60).toISOString(),
      waitingReason: undefined,
      terminatedReason: undefined,
      deletionTimestamp: undefined,
      terminatingSince: undefined,
      stuck: false,
      claims: ['data-orders-taskmanager-1'],
    });
  });

  it('shows restarts, waiting and last termination reasons', () => {
    const status = observe(
      scenario({ faults: { 'orders-taskmanager-0': oomKilled } }),
    );
    expect(pod(status, 'orders-taskmanager-0')).toMatchObject({
      ready: false,
      restarts: 3,
      waitingReason: 'CrashLoopBackOff',
      terminatedReason: 'OOMKilled',
    });
  });

  it('a finished init container (the job jar fetcher) is no termination reason', () => {
    const withFetcher = (p: V1Pod): V1Pod => ({
      ...p,
      status: {
        ...p.status,
        initContainerStatuses: [
          {
            name: 'fetch-job-jar',
            image: 'curlimages/curl:8.10.1',
            imageID: '',
            ready: true,
            restartCount: 0,
            state: { terminated: { exitCode: 0, reason: 'Completed' } },
          },
        ],
      },
    });
    const status = observe(scenario({ faults: { 'orders-0': withFetcher } }));
    expect(pod(status, 'orders-0').terminatedReason).toBeUndefined();
    const crashed = observe(
      scenario({ faults: { 'orders-0': both(withFetcher, crashLoop) } }),
    );
    expect(pod(crashed, 'orders-0').terminatedReason).toBe('Error');
  });

  it('accepts RFC 3339 strings where the typed client has Dates (raw watch objects)', () => {
    const snapshot = scenario({
      faults: { 'orders-taskmanager-1': terminating(10) },
      notReadyNodes: ['node-b'],
    });
    const raw = JSON.parse(JSON.stringify(snapshot)) as ClusterSnapshot;
    expect(observe(raw)).toEqual(observe(snapshot));
    expect(pod(observe(raw), 'orders-taskmanager-1').stuck).toBe(true);
  });

  it('a custom waiting reason that is not an error does not make an ERROR', () => {
    const status = observe(
      scenario({
        faults: { 'orders-0': waitingFor('PodInitializing', '', 'Pending') },
      }),
    );
    expect(status.jobManagerDeploymentStatus).toBe('DEPLOYING');
    expect(status.pods[0].waitingReason).toBe('PodInitializing');
  });
});

describe('observeCluster: a 50-TaskManager cluster', () => {
  const big = scenario({
    taskManager: { kind: 'StatefulSet', replicas: 50, claims: ['data'] },
  });

  it('is READY with every TaskManager ready, registered and bound, sorted by ordinal', () => {
    const status = observe(big, restUp({ taskManagers: 50, freeSlots: 30 }));
    expect(status.jobManagerDeploymentStatus).toBe('READY');
    const tms = status.pods.filter(p => p.component === 'taskmanager');
    expect(tms.map(p => p.ordinal)).toEqual(
      Array.from({ length: 50 }, (_, i) => i),
    );
    expect(status.claims).toHaveLength(50);
    expect(claim(status, 'data-orders-taskmanager-42')).toMatchObject({
      ordinal: 42,
      pod: 'orders-taskmanager-42',
    });
    expect(condition(status, 'TaskManagersReady').message).toBe(
      '50/50 TaskManagers ready',
    );
    expect(condition(status, 'VolumesBound').message).toBe(
      '50/50 claims bound',
    );
    expect(status.flink).toMatchObject({
      taskManagersRegistered: 50,
      slotsTotal: 100,
      slotsFree: 30,
    });
    expect(isHealthy(status)).toBe(true);
  });

  it('keeps messages short when many TaskManagers are not ready', () => {
    const faults = Object.fromEntries(
      [3, 10, 11, 20, 21, 30, 49].map(i => [
        `orders-taskmanager-${i}`,
        runningNotReady,
      ]),
    );
    const status = observe(
      scenario({
        taskManager: { kind: 'StatefulSet', replicas: 50, claims: ['data'] },
        faults,
      }),
      restUp({ taskManagers: 43 }),
    );
    expect(condition(status, 'TaskManagersReady').message).toBe(
      '43/50 TaskManagers ready; not ready: orders-taskmanager-3, orders-taskmanager-10, orders-taskmanager-11, orders-taskmanager-20, orders-taskmanager-21 and 2 more',
    );
  });
});

describe('observeCluster: stale cache, events, REST summary', () => {
  it('flags a stale cache and says since when', () => {
    const status = observe(
      scenario({ stale: true, lastSyncedAt: '2026-12-02T11:55:00.000Z' }),
      restUp(),
    );
    expect(status).toMatchObject({
      jobManagerDeploymentStatus: 'READY',
      stale: true,
      lastSyncedAt: '2026-12-02T11:55:00.000Z',
      observedAt: NOW.toISOString(),
    });
    expect(status.message).toMatch(
      /; jobs: 1 RUNNING \(stale: the watch is disconnected; state as of 2026-12-02T11:55:00.000Z\)$/,
    );
    expect(isHealthy(status)).toBe(false);
  });

  it('a fresh cache adds no stale note', () => {
    const status = observe(scenario(), restUp());
    expect(status.stale).toBe(false);
    expect(status.message).not.toContain('stale');
  });

  it('lists recent events newest first, limited', () => {
    const events = [
      event({
        kind: 'Pod',
        name: 'orders-0',
        reason: 'Started',
        message: 'Started container',
        type: 'Normal',
        minutesAgo: 50,
      }),
      event({
        kind: 'StatefulSet',
        name: 'orders-taskmanager',
        reason: 'SuccessfulCreate',
        message: 'create Pod orders-taskmanager-1',
        type: 'Normal',
        minutesAgo: 55,
      }),
      event({
        kind: 'Pod',
        name: 'orders-taskmanager-1',
        reason: 'BackOff',
        message: 'Back-off restarting failed container',
        minutesAgo: 2,
        count: 7,
      }),
    ];
    const status = observe(scenario({ events }), undefined, 2);
    expect(status.events).toEqual([
      {
        type: 'Warning',
        reason: 'BackOff',
        message: 'Back-off restarting failed container',
        object: 'Pod/orders-taskmanager-1',
        count: 7,
        lastTimestamp: minutesAgo(2).toISOString(),
      },
      {
        type: 'Normal',
        reason: 'Started',
        message: 'Started container',
        object: 'Pod/orders-0',
        count: 1,
        lastTimestamp: minutesAgo(50).toISOString(),
      },
    ]);
  });

  it('keeps 20 events by default, dated by eventTime when lastTimestamp is absent', () => {
    const events = Array.from({ length: 25 }, (_, i) => {
      const {
        lastTimestamp: _last,
        firstTimestamp: _first,
        ...rest
      } = event({
        kind: 'Pod',
        name: 'orders-0',
        reason: `R${i}`,
        message: '',
        minutesAgo: i,
      });
      return { ...rest, eventTime: minutesAgo(i) };
    });
    const status = observe(scenario({ events }));
    expect(status.events).toHaveLength(20);
    expect(status.events[0]).toMatchObject({
      reason: 'R0',
      lastTimestamp: NOW.toISOString(),
    });
  });

  it('sums /taskmanagers and counts /overview jobs when the other answers are missing', () => {
    const status = observe(scenario(), {
      reachable: true,
      fetchedAt: NOW.toISOString(),
      taskManagers: [
        { id: 'tm-0', slotsNumber: 4, freeSlots: 1 },
        { id: 'tm-1', slotsNumber: 4, freeSlots: 4 },
      ],
    });
    expect(status.flink).toMatchObject({
      taskManagersRegistered: 2,
      slotsTotal: 8,
      slotsFree: 5,
      jobsByState: {},
    });
    const fromOverview = observe(scenario(), {
      ...restUp({
        jobs: [{ state: 'RUNNING' }, { state: 'FAILED' }, { state: 'FAILED' }],
      }),
      jobs: undefined,
    });
    expect(fromOverview.flink.jobsByState).toEqual({ RUNNING: 1, FAILED: 2 });
  });

  it('is pure: the same inputs give the same status, and the inputs are not changed', () => {
    const snapshot = scenario({
      faults: { 'orders-taskmanager-1': crashLoop },
      notReadyNodes: ['node-b'],
    });
    const copy = JSON.parse(JSON.stringify(snapshot));
    const first = observe(snapshot, restUp());
    expect(observe(snapshot, restUp())).toEqual(first);
    expect(JSON.parse(JSON.stringify(snapshot))).toEqual(copy);
  });
});

describe('statusChangesAt: when the clock alone changes a status', () => {
  const options = (now: number, stuckRolloutAfterSeconds?: number) => ({
    now: new Date(now),
    stuckTerminatingAfterSeconds: 300,
    stuckRolloutAfterSeconds,
  });
  const at = (snapshot: ClusterSnapshot, now: number, rollout?: number) => ({
    ...observeCluster(snapshot, restUp(), options(now, rollout)),
    observedAt: undefined,
  });
  /** A StatefulSet rollout to a new revision; ordinal 1 of it has not been Ready for 5 min. */
  const waitingRollout = () =>
    scenario({
      taskManager: {
        kind: 'StatefulSet',
        replicas: 2,
        claims: ['data'],
        currentRevision: 'orders-taskmanager-6f7d8c9b5',
        updateRevision: 'orders-taskmanager-84c5d7f9b',
        generation: 3,
      },
      faults: {
        'orders-taskmanager-1': both(
          atRevision('orders-taskmanager-84c5d7f9b'),
          runningNotReady,
        ),
      },
    });

  it.each([
    {
      title: 'a terminating pod turns stuck past the threshold',
      snapshot: () =>
        scenario({ faults: { 'orders-taskmanager-1': terminating(4) } }),
      first: NOW.getTime() + 60_000,
    },
    {
      title: 'a terminating pod turns stuck once its grace period is over',
      snapshot: () =>
        scenario({
          faults: { 'orders-taskmanager-1': terminating(6, { grace: 600 }) },
        }),
      first: NOW.getTime() + 4 * 60_000,
    },
    {
      title: 'a rollout turns blocked past the threshold',
      snapshot: waitingRollout,
      rollout: 600,
      first: NOW.getTime() + 5 * 60_000,
    },
    {
      title: "a blocked rollout's message counts another minute",
      snapshot: waitingRollout,
      first: NOW.getTime() + 60_000,
    },
  ])('$title: the same status until then, another from then on', c => {
    const snapshot = c.snapshot();
    // Each instant it names: the status just before is the one at the start, and it changes.
    let now = NOW.getTime();
    const changes: number[] = [];
    for (let step = 0; step < 3; step++) {
      const changesAt = statusChangesAt(snapshot, options(now, c.rollout));
      if (changesAt === undefined) break;
      expect(changesAt).toBeGreaterThan(now);
      expect(at(snapshot, changesAt - 1, c.rollout)).toEqual(
        at(snapshot, now, c.rollout),
      );
      expect(at(snapshot, changesAt, c.rollout)).not.toEqual(
        at(snapshot, changesAt - 1, c.rollout),
      );
      changes.push(changesAt);
      now = changesAt;
    }
    expect(changes[0]).toBe(c.first);
  });

  it('nothing that waits on the clock: undefined, and the status stays the same an hour on', () => {
    // A pod that is not Ready blocks no rollout of a Deployment; a NotReady node is no clock.
    const snapshot = scenario({
      taskManager: { kind: 'Deployment', replicas: 2 },
      notReadyNodes: ['node-b'],
    });
    snapshot.pods = snapshot.pods.map(p =>
      p.metadata?.labels?.component === 'taskmanager' ? crashLoop(p) : p,
    );
    expect(statusChangesAt(snapshot, options(NOW.getTime()))).toBeUndefined();
    expect(at(snapshot, NOW.getTime() + 3_600_000)).toEqual(
      at(snapshot, NOW.getTime()),
    );
  });

  it('a crash-looping StatefulSet pod holds its rollout: the clock counts', () => {
    const snapshot = scenario({
      faults: { 'orders-taskmanager-1': crashLoop },
    });
    // Not Ready for 5 min, past the 300 s threshold: blocked, and the next minute is news.
    expect(statusChangesAt(snapshot, options(NOW.getTime()))).toBe(
      NOW.getTime() + 60_000,
    );
  });

  it('a pod already stuck changes nothing more with time', () => {
    const snapshot = scenario({
      faults: { 'orders-taskmanager-1': terminating(10) },
    });
    expect(statusChangesAt(snapshot, options(NOW.getTime()))).toBeUndefined();
  });
});
