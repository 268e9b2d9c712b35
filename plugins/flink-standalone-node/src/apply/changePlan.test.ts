import {
  ClusterSpec,
  ClusterSpecInput,
  FlinkClusterStatus,
  parseClusterSpec,
  renderCluster,
} from '@flink-standalone/plugin-flink-standalone-common';
import {
  createTestNamespace,
  useControlPlane,
  waitFor,
} from '@flink-standalone/testenv';
import type { KubernetesObject } from '@kubernetes/client-node';
import type { FlinkKubernetesCluster } from '../cluster/ClusterRegistry';
import { FlinkObserver } from '../service/FlinkObserver';
import {
  TEST_CLUSTER,
  backendToken,
  registryFor,
} from '../__testUtils__/backendAccess';
import { applyCluster } from './applyCluster';
import { planChange, planClusterChange } from './changePlan';
import { diffCluster } from './diff';

/**
 * Change plans against the real control plane: the diffs are the API server's dry runs, the
 * pods and workloads the observer's. Flink does not run on the kwok nodes, so the job effects
 * with a number of running jobs are planned from the same live status with Flink's answer set.
 */

const plane = useControlPlane();
let cluster: FlinkKubernetesCluster;
let observer: FlinkObserver;
let namespace: string;

beforeAll(async () => {
  const registry = registryFor(plane(), await backendToken(plane()));
  cluster = registry.get(TEST_CLUSTER);
  observer = new FlinkObserver({ registry });
});

afterAll(() => observer?.close());

beforeEach(async () => {
  namespace = await createTestNamespace(plane().client, 'plan');
});

// The shared plane's simulated nodes serve every test file: give their room back.
afterEach(() => plane().client.delete(`/api/v1/namespaces/${namespace}`));

function specOf(input: Partial<ClusterSpecInput> = {}): ClusterSpec {
  return parseClusterSpec({
    name: 'orders',
    namespace,
    flinkVersion: '2.2',
    ...input,
    taskManager: {
      replicas: 3,
      volumeClaimTemplates: [{ name: 'flink-data', storage: '1Gi' }],
      ...input.taskManager,
    },
  });
}

const objectsOf = (spec: ClusterSpec) =>
  renderCluster(spec) as KubernetesObject[];

/** Applies the spec and waits until the observer sees every pod Running. */
async function running(spec: ClusterSpec): Promise<FlinkClusterStatus> {
  await applyCluster(cluster, objectsOf(spec));
  return waitFor(
    'every pod Ready',
    async () => {
      const status = await observer.getStatus({
        cluster: TEST_CLUSTER,
        namespace,
        name: spec.name,
      });
      return status.taskManager?.replicas.ready === spec.taskManager.replicas &&
        status.jobManager?.replicas.ready === 1
        ? status
        : undefined;
    },
    { timeoutMs: 60_000, intervalMs: 200 },
  );
}

/** The live status as if Flink answered with `runningJobs` RUNNING jobs. */
function withRunningJobs(
  status: FlinkClusterStatus,
  runningJobs: number,
): FlinkClusterStatus {
  return {
    ...status,
    flink: {
      ...status.flink,
      reachable: true,
      jobsByState: { RUNNING: runningJobs },
    },
  };
}

describe('change plans', () => {
  it('plans a new cluster: every object created, no restart', async () => {
    const plan = await planClusterChange(cluster, observer, specOf());

    expect(plan.changes.every(c => c.action === 'create')).toBe(true);
    expect(plan.changes.map(c => `${c.kind}/${c.name}`)).toEqual(
      expect.arrayContaining([
        'ConfigMap/flink-config-orders',
        'Deployment/orders',
        'StatefulSet/orders-taskmanager',
      ]),
    );
    expect(plan.restarts).toEqual([]);
    expect(plan.jobs.effect).toBe('new-cluster');
    // Planning changed nothing.
    await expect(
      plane().client.find(
        `/apis/apps/v1/namespaces/${namespace}/deployments/orders`,
      ),
    ).resolves.toBeUndefined();
  });

  it('plans nothing for the spec as applied', async () => {
    const spec = specOf();
    await running(spec);
    const plan = await planClusterChange(cluster, observer, spec);

    expect(plan).toMatchObject({
      changes: [],
      restarts: [],
      jobs: { effect: 'none' },
    });
    expect(plan.lines[0]).toBe(
      'Nothing changes: every object is as the spec renders it.',
    );
  });

  it('plans a TaskManager config change as a rolling restart from the highest ordinal, one failover per pod', async () => {
    const spec = specOf();
    await running(spec);
    const changed = specOf({
      flinkConfiguration: { 'execution.checkpointing.interval': '30 s' },
    });
    const plan = await planClusterChange(cluster, observer, changed);

    // The config is one ConfigMap for both; its hash in each pod template restarts both.
    expect(plan.changes.map(c => `${c.kind}/${c.name}`)).toEqual(
      expect.arrayContaining([
        'ConfigMap/flink-config-orders',
        'StatefulSet/orders-taskmanager',
      ]),
    );
    const taskManagers = plan.restarts.find(r => r.component === 'taskmanager');
    expect(taskManagers).toMatchObject({
      kind: 'StatefulSet',
      workload: 'orders-taskmanager',
      pods: [
        'orders-taskmanager-2',
        'orders-taskmanager-1',
        'orders-taskmanager-0',
      ],
    });
    expect(taskManagers!.because.join(' ')).toContain(
      'spec.template.metadata.annotations',
    );
    // Without HA, the JobManager's restart decides: session jobs are lost (Flink does not run
    // on kwok nodes, so how many is not known).
    expect(plan.jobs).toMatchObject({ effect: 'lost', runningJobs: undefined });
    expect(plan.jobs.message).toContain('must be submitted again');
  });

  it('plans what running jobs go through: failover, HA restore, savepoint restart, loss', async () => {
    const spec = specOf();
    const live = withRunningJobs(await running(spec), 2);
    const plan = async (changed: ClusterSpec, status = live) =>
      planChange({
        diffs: await diffCluster(cluster, objectsOf(changed)),
        objects: objectsOf(changed),
        spec: changed,
        status,
      });

    // TaskManager CPU only (memory would change the shared Flink config, and so restart the
    // JobManager too): 3 failovers, local state kept on the claims.
    const taskManagerOnly = await plan(
      specOf({
        taskManager: {
          resources: { ...spec.taskManager.resources, cpu: '2' },
        },
      }),
    );
    expect(taskManagerOnly.restarts.map(r => r.component)).toEqual([
      'taskmanager',
    ]);
    expect(taskManagerOnly.jobs).toEqual({
      effect: 'failover',
      runningJobs: 2,
      message:
        '2 running jobs fail over 3 times (once per TaskManager replaced), each time from the latest checkpoint, with local state where the TaskManager kept its claim.',
    });

    // The JobManager's CPU, without HA: both session jobs are lost; Recreate order.
    const jobManager = await plan(
      specOf({
        jobManager: { resources: { ...spec.jobManager.resources, cpu: '2' } },
      }),
    );
    expect(jobManager.restarts).toEqual([
      expect.objectContaining({
        component: 'jobmanager',
        kind: 'Deployment',
        order: 'all stopped first, then the new ones started (Recreate)',
      }),
    ]);
    expect(jobManager.jobs).toMatchObject({
      effect: 'lost',
      message:
        'The JobManager restarts without HA: 2 running jobs are gone and must be submitted again (from a savepoint to keep their state).',
    });

    // With Kubernetes HA, the same kind of change resumes jobs from their checkpoints.
    const highAvailability = await plan(
      specOf({
        highAvailability: { storageDir: 's3://bucket/flink-ha' },
        jobManager: { resources: { ...spec.jobManager.resources, cpu: '2' } },
      }),
    );
    expect(highAvailability.jobs.effect).toBe('restore-from-checkpoint');

    // A session cluster that runs nothing loses nothing.
    expect(
      (
        await plan(
          specOf({
            jobManager: {
              resources: { ...spec.jobManager.resources, cpu: '2' },
            },
          }),
          withRunningJobs(live, 0),
        )
      ).jobs.effect,
    ).toBe('none');
  });

  it('plans an application cluster: its job restarts from the initial savepoint, or from empty state', async () => {
    const application = (extra: object = {}) =>
      specOf({
        mode: 'application',
        job: {
          jarURI: 'local:///opt/flink/usrlib/orders.jar',
          entryClass: 'com.example.Orders',
          ...extra,
        },
      } as Partial<ClusterSpecInput>);
    const live = withRunningJobs(await running(application()), 1);
    const plan = async (changed: ClusterSpec) =>
      planChange({
        diffs: await diffCluster(cluster, objectsOf(changed)),
        objects: objectsOf(changed),
        spec: changed,
        status: live,
      });

    const fromSavepoint = await plan(
      application({
        initialSavepointPath: 's3://bucket/savepoints/savepoint-1',
        parallelism: 2,
      }),
    );
    expect(fromSavepoint.jobs.effect).toBe('restart-from-savepoint');
    expect(fromSavepoint.jobs.message).toContain(
      's3://bucket/savepoints/savepoint-1',
    );
    const fromNothing = await plan(application({ parallelism: 2 }));
    expect(fromNothing.jobs.effect).toBe('lost');
    expect(fromNothing.jobs.message).toContain('from empty state');
  });
});
