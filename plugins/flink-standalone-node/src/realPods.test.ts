import {
  ClusterSpecInput,
  FlinkClusterStatus,
  parseClusterSpec,
  parseSavepointHistory,
  renderCluster,
  SAVEPOINT_HISTORY_ANNOTATION,
} from '@flink-standalone/plugin-flink-standalone-common';
import {
  createRealNodeNamespace,
  KubeObject,
  useControlPlane,
  waitFor,
} from '@flink-standalone/testenv';
import type { KubernetesObject } from '@kubernetes/client-node';
import { applyCluster } from './apply/applyCluster';
import { deleteBlockingPod } from './apply/unblockRollout';
import { upgradeCluster } from './apply/upgradeCluster';
import { waitForReady } from './apply/waitForReady';
import type { ClusterRegistry } from './cluster/ClusterRegistry';
import { FlinkObserver } from './service/FlinkObserver';
import {
  TEST_CLUSTER,
  backendToken,
  registryFor,
} from './__testUtils__/backendAccess';

/**
 * Rendered clusters, unmodified, on the real node: real kubelet, containerd and runc, the locally
 * built Flink images, claims bound to real folders. The observer runs as the backend does (least-
 * privilege token, default configuration: Flink REST through the API server's service proxy).
 * One cluster at a time (2 cores), each deleted when its test ends.
 */

// Each case waits for real pods (READY up to 180 s, then registrations and restores) on a
// loaded 2-core machine: more than the repo's 180 s test timeout.
jest.setTimeout(600_000);

const plane = useControlPlane();
let registry: ClusterRegistry;
let observer: FlinkObserver;
let namespace: string;
const NAME = 'orders';

beforeAll(async () => {
  registry = registryFor(plane(), await backendToken(plane()));
  observer = new FlinkObserver({ registry });
});

afterAll(() => observer?.close());

beforeEach(async () => {
  namespace = await createRealNodeNamespace(plane(), 'real');
});

afterEach(async () => {
  // The next cluster needs the node's CPU: wait until this one's pods are gone.
  await plane().client.delete(`/api/v1/namespaces/${namespace}`);
  await waitFor(
    `pods of ${namespace} gone`,
    async () =>
      (await plane().client.list(`/api/v1/namespaces/${namespace}/pods`)).items
        .length === 0,
    { timeoutMs: 60_000, intervalMs: 500 },
  );
}, 90_000);

const ref = () => ({ cluster: TEST_CLUSTER, namespace, name: NAME });

/** Small enough for a 2-core machine: CPU requests are for scheduling (the node does not throttle). */
const SMALL_JOB_MANAGER = { cpu: '250m', memory: '1Gi' };
const SMALL_TASK_MANAGER = { cpu: '250m', memory: '1Gi' };

/** The test cluster's spec: Flink 2.2, small pods, in this test's namespace. */
function specFor(input: Partial<ClusterSpecInput>) {
  return parseClusterSpec({
    name: NAME,
    namespace,
    flinkVersion: '2.2',
    ...input,
    jobManager: { resources: SMALL_JOB_MANAGER, ...input.jobManager },
    taskManager: { resources: SMALL_TASK_MANAGER, ...input.taskManager },
  });
}

async function deploy(input: Partial<ClusterSpecInput>) {
  const spec = specFor(input);
  await applyCluster(
    registry.get(TEST_CLUSTER),
    renderCluster(spec) as KubernetesObject[],
  );
  return spec;
}

const condition = (status: FlinkClusterStatus, type: string) =>
  status.conditions.find(c => c.type === type);

/**
 * READY in the observer (the JobManager's REST answers), then every TaskManager registered; the
 * cluster's pods and events in the message when it does not get there.
 */
async function ready(timeoutMs = 180_000): Promise<FlinkClusterStatus> {
  try {
    await waitForReady(observer, ref(), { timeoutMs, pollMs: 500 });
  } catch (error) {
    throw new Error(
      `${(error as Error).message}\n${await describeNamespace()}`,
    );
  }
  return statusWhere(
    'every TaskManager registered',
    s => condition(s, 'TaskManagersRegistered')?.status === 'True',
  );
}

async function statusWhere(
  what: string,
  check: (s: FlinkClusterStatus) => boolean,
  timeoutMs = 120_000,
) {
  try {
    return await waitFor(
      what,
      async () => {
        const status = await observer.getStatus(ref());
        return check(status) ? status : undefined;
      },
      { timeoutMs, intervalMs: 500 },
    );
  } catch (error) {
    throw new Error(
      `${(error as Error).message}\n${await describeNamespace()}`,
    );
  }
}

/** What a human would look at when a test fails: pods, their containers, the last events. */
async function describeNamespace(): Promise<string> {
  const client = plane().client;
  const [pods, events] = await Promise.all([
    client.list(`/api/v1/namespaces/${namespace}/pods`),
    client.list(`/api/v1/namespaces/${namespace}/events`),
  ]);
  const podLines = pods.items.map(
    p =>
      `${p.metadata.name} ${p.status?.phase} node=${p.spec.nodeName} ${JSON.stringify(p.status?.containerStatuses?.map((c: any) => c.state))}`,
  );
  const eventLines = events.items
    .slice(-15)
    .map(e => `${(e as any).reason}: ${(e as any).message}`);
  return [
    '--- pods ---',
    ...podLines,
    '--- events ---',
    ...eventLines,
    ...(await restartedContainerLogs(pods.items)),
  ].join('\n');
}

/** The end of the previous run's log of every container that restarted: why it exited. */
async function restartedContainerLogs(pods: KubeObject[]): Promise<string[]> {
  const logs = pods.flatMap(p =>
    (p.status?.containerStatuses ?? [])
      .filter((c: any) => c.restartCount > 0)
      .map(async (c: any) => {
        const path = `/api/v1/namespaces/${namespace}/pods/${p.metadata.name}/log?container=${c.name}&previous=true&tailLines=40`;
        const { text } = await plane().client.raw('GET', path);
        return `--- previous log of ${p.metadata.name}/${c.name} ---\n${text}`;
      }),
  );
  return Promise.all(logs);
}

async function pod(name: string): Promise<KubeObject> {
  return plane().client.get(`/api/v1/namespaces/${namespace}/pods/${name}`);
}

/** Flink's REST API through the API server's service proxy (as the admin: test-side checks). */
async function flinkRest<T = any>(endpoint: string): Promise<T> {
  return plane().client.get<T>(
    `/api/v1/namespaces/${namespace}/services/${NAME}-rest:8081/proxy${endpoint}`,
  );
}

describe('rendered clusters on the real node', () => {
  it('session mode, TaskManagers as a StatefulSet with claims (Flink 2.2): READY through the service proxy', async () => {
    await deploy({
      taskManager: {
        replicas: 2,
        slots: 2,
        volumeClaimTemplates: [{ name: 'flink-data', storage: '1Gi' }],
      },
    });
    const status = await ready();

    expect(status.flink).toMatchObject({
      reachable: true,
      taskManagersRegistered: 2,
      slotsTotal: 4,
    });
    expect(status.flink.version).toMatch(/^2\.2\./);
    expect(condition(status, 'TaskManagersRegistered')).toMatchObject({
      status: 'True',
    });
    expect(condition(status, 'VolumesBound')).toMatchObject({ status: 'True' });
    expect(status.claims.map(c => [c.name, c.phase])).toEqual([
      [`flink-data-${NAME}-taskmanager-0`, 'Bound'],
      [`flink-data-${NAME}-taskmanager-1`, 'Bound'],
    ]);
    // Real containers on the real node, and the resource id each TaskManager registered with is its pod name.
    for (const name of [`${NAME}-taskmanager-0`, `${NAME}-taskmanager-1`]) {
      expect((await pod(name)).spec.nodeName).toBe(plane().realNode!.name);
    }
    const taskManagers = await flinkRest<{ taskmanagers: { id: string }[] }>(
      '/taskmanagers',
    );
    expect(taskManagers.taskmanagers.map(tm => tm.id).sort()).toEqual([
      `${NAME}-taskmanager-0`,
      `${NAME}-taskmanager-1`,
    ]);
  });

  it('session mode with HA and two JobManagers (Flink 1.20): the leader answers, the TaskManager registers', async () => {
    const spec = await deploy({
      flinkVersion: '1.20',
      jobManager: { replicas: 2 },
      highAvailability: { storageDir: 'file:///tmp/flink-ha' },
      taskManager: {
        replicas: 1,
        slots: 2,
        volumeClaimTemplates: [{ name: 'flink-data', storage: '1Gi' }],
      },
    });
    const status = await ready();

    expect(status.flink).toMatchObject({
      reachable: true,
      taskManagersRegistered: 1,
      slotsTotal: 2,
    });
    expect(status.flink.version).toMatch(/^1\.20\./);
    // The standby is Ready too (its REST endpoint answers and redirects to the leader).
    await statusWhere(
      'both JobManagers Ready',
      s =>
        s.jobManager?.replicas.ready === 2 &&
        s.jobManager.replicas.desired === 2,
    );
    // Kubernetes HA elected a leader through its ConfigMap, under the cluster's own id.
    const leader = await waitFor<KubeObject>(
      'the HA leader ConfigMap',
      async () =>
        plane().client.find(
          `/api/v1/namespaces/${namespace}/configmaps/${spec.name}-cluster-config-map`,
        ),
    );
    expect(leader.metadata.labels).toMatchObject({
      'configmap-type': 'high-availability',
      app: spec.name,
    });
  });

  it('TaskManagers as a Deployment with generic ephemeral volumes: READY, one ephemeral claim per pod', async () => {
    await deploy({
      taskManager: {
        workload: 'Deployment',
        replicas: 2,
        volumeClaimTemplates: [{ name: 'scratch', storage: '1Gi' }],
      },
    });
    const status = await ready();

    expect(status.flink).toMatchObject({
      reachable: true,
      taskManagersRegistered: 2,
      slotsTotal: 2,
    });
    const taskManagerClaims = status.claims.filter(
      c => c.component === 'taskmanager',
    );
    expect(taskManagerClaims).toHaveLength(2);
    expect(
      taskManagerClaims.every(
        c => c.phase === 'Bound' && c.retention === 'Ephemeral',
      ),
    ).toBe(true);
  });
});

/** The example job of the `-examples` images: keyed counts with padding state, checkpointed. */
const KEYED_COUNTER_JOB = {
  jarURI: 'local:///opt/flink/usrlib/keyed-counter-job.jar',
  entryClass: 'flinkstandalone.examples.KeyedCounterJob',
  args: [
    '--keys',
    '64',
    '--rate',
    '200',
    '--state-bytes',
    '1024',
    '--checkpoint-interval',
    '2000',
  ],
  parallelism: 2,
};

interface JobVertex {
  id: string;
  parallelism: number;
  /** Subtasks per state: a vertex reads RUNNING as soon as one of them runs. */
  tasks: Record<string, number>;
}

/** The one job of an application cluster, once every task of it runs. */
async function runningJob(
  what: string,
): Promise<{ jid: string; vertices: JobVertex[] }> {
  return waitFor(
    what,
    async () => {
      const { jobs } = await flinkRest<{
        jobs: { id: string; status: string }[];
      }>('/jobs');
      const job = jobs.find(j => j.status === 'RUNNING');
      if (!job) return undefined;
      const detail = await flinkRest<{ jid: string; vertices: JobVertex[] }>(
        `/jobs/${job.id}`,
      );
      return detail.vertices.every(v => v.tasks.RUNNING === v.parallelism)
        ? detail
        : undefined;
    },
    { timeoutMs: 180_000, intervalMs: 1000 },
  ).catch(async error => {
    throw new Error(
      `${(error as Error).message}\n${await describeNamespace()}`,
    );
  });
}

async function checkpoints(jid: string) {
  return flinkRest<{
    counts: { completed: number; restored: number };
    latest: { restored?: { id: number } | null };
  }>(`/jobs/${jid}/checkpoints`);
}

async function logOf(podName: string): Promise<string> {
  const { status, text } = await plane().client.raw(
    'GET',
    `/api/v1/namespaces/${namespace}/pods/${podName}/log`,
  );
  if (status !== 200) throw new Error(`logs of ${podName}: ${status} ${text}`);
  return text;
}

/**
 * What a restarted TaskManager logs when a subtask restores its keyed state: the HashMap backend
 * names the state handle it reads; a local copy lives under the working dir's `localState/`.
 */
const restoreLines = (log: string) =>
  log
    .split('\n')
    .filter(line => line.includes('Starting to restore from state handle'));
const LOCAL_STATE_HANDLE = /\/localState\/aid_/;

/** A cluster running the keyed-counter job, with at least two completed checkpoints. */
async function checkpointedJob(input: Partial<ClusterSpecInput>) {
  await deploy({
    image: 'flink:2.2-examples',
    mode: 'application',
    job: KEYED_COUNTER_JOB,
    ...input,
  });
  await ready();
  const { jid } = await runningJob('the job running');
  await waitFor(
    'two completed checkpoints',
    async () => (await checkpoints(jid)).counts.completed >= 2,
    { timeoutMs: 60_000, intervalMs: 1000 },
  );
  return { jid, restoredBefore: (await checkpoints(jid)).counts.restored };
}

/** After a failure: the job restored from a checkpoint once more, and runs again. */
async function restoredAgain(jid: string, restoredBefore: number) {
  await waitFor(
    'the job restored from a checkpoint again',
    async () => (await checkpoints(jid)).counts.restored > restoredBefore,
    { timeoutMs: 120_000, intervalMs: 1000 },
  );
  await runningJob('the job running again after the TaskManager restart');
}

/** The restore lines a TaskManager logged, once it logged any (its subtask restored). */
function restoreLinesOf(podName: string): Promise<string[]> {
  return waitFor(
    `restore lines in the log of ${podName}`,
    async () => {
      const lines = restoreLines(await logOf(podName));
      return lines.length > 0 && lines;
    },
    { timeoutMs: 60_000, intervalMs: 1000 },
  );
}

const claimOf = (p: KubeObject): string | undefined =>
  p.spec.volumes.find((v: any) => v.persistentVolumeClaim)
    ?.persistentVolumeClaim.claimName;

/** A job, two checkpoints, a pod replaced and a restore: minutes on a busy 2-core machine. */
const RESTART_AND_RESTORE_TIMEOUT_MS = 300_000;

describe('local recovery on the real node', () => {
  it(
    'a deleted TaskManager comes back on its claim, as the same resource id, and restores from local state',
    async () => {
      // One slot per TaskManager: each subtask's local state is its slot's (see the README).
      const { jid, restoredBefore } = await checkpointedJob({
        taskManager: {
          replicas: 2,
          slots: 1,
          volumeClaimTemplates: [{ name: 'flink-data', storage: '1Gi' }],
        },
      });
      const victim = `${NAME}-taskmanager-1`;
      const before = await pod(victim);
      expect(claimOf(before)).toBe(`flink-data-${victim}`);

      await plane().client.delete(
        `/api/v1/namespaces/${namespace}/pods/${victim}`,
      );
      const after = await waitFor<KubeObject>(
        'a new pod for ordinal 1',
        async () => {
          const p = await plane().client.find(
            `/api/v1/namespaces/${namespace}/pods/${victim}`,
          );
          return p && p.metadata.uid !== before.metadata.uid ? p : undefined;
        },
        { timeoutMs: 60_000 },
      );
      expect(claimOf(after)).toBe(claimOf(before));
      await restoredAgain(jid, restoredBefore);
      const registered = async () =>
        (
          await flinkRest<{ taskmanagers: { id: string }[] }>('/taskmanagers')
        ).taskmanagers.map(tm => tm.id);
      try {
        await waitFor(
          `${victim} registered again`,
          async () => (await registered()).includes(victim),
          { timeoutMs: 90_000, intervalMs: 1000 },
        );
      } catch (error) {
        throw new Error(
          `${(error as Error).message}: registered ${JSON.stringify(await registered())}\n${await describeNamespace()}\n--- log of ${victim} ---\n${(await logOf(victim)).split('\n').slice(-40).join('\n')}`,
        );
      }

      // Flink's own account: the restarted TaskManager read its subtask's state from the claim.
      const restored = await restoreLinesOf(victim);
      expect(restored.every(line => LOCAL_STATE_HANDLE.test(line))).toBe(true);

      // The observer tells the same per TaskManager, as the tab shows it.
      const status = await statusWhere(
        'the observer naming where each TaskManager restored from',
        s => s.pods.find(p => p.name === victim)?.restoredFrom !== undefined,
      );
      expect(status.pods.find(p => p.name === victim)?.restoredFrom).toBe(
        'local',
      );
      expect(status.flink.lastRestore).toMatchObject({
        jobId: jid,
        savepoint: false,
      });
    },
    RESTART_AND_RESTORE_TIMEOUT_MS,
  );

  it(
    'the same failure with Deployment TaskManagers (ephemeral volumes) restores from the checkpoint, not locally',
    async () => {
      const { jid, restoredBefore } = await checkpointedJob({
        taskManager: {
          workload: 'Deployment',
          replicas: 2,
          slots: 1,
          volumeClaimTemplates: [{ name: 'flink-data', storage: '1Gi' }],
        },
      });
      const taskManagerPods = () =>
        plane().client.list(
          `/api/v1/namespaces/${namespace}/pods?labelSelector=${encodeURIComponent('component=taskmanager')}`,
        );
      const pods = await taskManagerPods();
      await plane().client.delete(
        `/api/v1/namespaces/${namespace}/pods/${pods.items[0].metadata.name}`,
      );
      await restoredAgain(jid, restoredBefore);
      // The replacement is a new pod (new name, new resource id, a new empty volume).
      const replacement = (await taskManagerPods()).items.find(
        p => !pods.items.some(old => old.metadata.name === p.metadata.name),
      );
      expect(replacement).toBeDefined();
      const restored = await restoreLinesOf(replacement!.metadata.name!);
      expect(restored.some(line => LOCAL_STATE_HANDLE.test(line))).toBe(false);
      // Not checked through the observer: a Deployment pod's resource id is random, so the
      // observer cannot tell which pod a TaskManager of `flink.lastRestore` is (see the README).
    },
    RESTART_AND_RESTORE_TIMEOUT_MS,
  );
});

describe('a StatefulSet rollout on real pods', () => {
  const revisionOf = (p: KubeObject) =>
    p.metadata.labels?.['controller-revision-hash'];

  it(
    'the forced-rollback trap: a broken revision reverted leaves its pod; the observer names it, and deleting it completes the rollout',
    async () => {
      const taskManager = {
        replicas: 2,
        podManagementPolicy: 'OrderedReady' as const,
        volumeClaimTemplates: [{ name: 'flink-data', storage: '1Gi' }],
      };
      const victim = `${NAME}-taskmanager-1`;
      await deploy({ taskManager });
      await ready();
      const goodRevision = revisionOf(await pod(victim));

      // A revision whose pod can never become Ready (its image does not exist).
      await deploy({ image: 'flink:0.0-does-not-exist', taskManager });
      await waitFor(
        'ordinal 1 replaced by a pod of the broken revision',
        async () => {
          const p = await plane().client.find(
            `/api/v1/namespaces/${namespace}/pods/${victim}`,
          );
          return p && revisionOf(p) !== goodRevision;
        },
        { timeoutMs: 60_000 },
      );

      // The template reverted: the StatefulSet wants the good revision again.
      await deploy({ taskManager });
      const sts = `/apis/apps/v1/namespaces/${namespace}/statefulsets/${NAME}-taskmanager`;
      await waitFor(
        'the controller seeing the revert',
        async () => {
          const s = await plane().client.get(sts);
          return (
            s.status.observedGeneration >= Number(s.metadata.generation) &&
            s.status.updateRevision === goodRevision
          );
        },
        { timeoutMs: 60_000 },
      );
      const impatient = new FlinkObserver({
        registry,
        stuckRolloutAfterSeconds: 5,
      });
      try {
        const status = await waitFor(
          'the observer naming the pod that blocks the rollout',
          async () => {
            const s = await impatient.getStatus(ref());
            return s.taskManager?.rolloutBlocked?.deleteRequired
              ? s
              : undefined;
          },
          { timeoutMs: 60_000, intervalMs: 1000 },
        );
        expect(status.taskManager?.rolloutBlocked).toMatchObject({
          pod: victim,
          updateRevision: goodRevision,
        });
        // The controller has seen the revert and still leaves the broken pod in place.
        expect(revisionOf(await pod(victim))).not.toBe(goodRevision);

        // The remedy, as the backend's route runs it: only the named pod, then it comes back
        // at the good revision.
        const cluster = registry.get(TEST_CLUSTER);
        await expect(
          deleteBlockingPod(cluster, status, `${NAME}-taskmanager-0`),
        ).rejects.toThrow(
          `Pod ${NAME}-taskmanager-0 does not block a rollout of ${namespace}/${NAME} (the blocking pod is ${victim}): nothing was deleted`,
        );
        expect(await deleteBlockingPod(cluster, status, victim)).toEqual({
          pod: victim,
          workload: `${NAME}-taskmanager`,
          revision: expect.any(String),
          updateRevision: goodRevision,
        });
        const done = await waitFor(
          'the rollout complete',
          async () => {
            const s = await impatient.getStatus(ref());
            return condition(s, 'RolloutComplete')?.status === 'True' && s;
          },
          { timeoutMs: 180_000, intervalMs: 1000 },
        );
        expect(done.taskManager?.rolloutBlocked).toBeUndefined();
        expect(revisionOf(await pod(victim))).toBe(goodRevision);
      } finally {
        impatient.close();
      }
    },
    RESTART_AND_RESTORE_TIMEOUT_MS,
  );
});

/** Flink's checkpoint statistics: the job's latest restore was this savepoint. */
async function expectRestoredFromSavepoint(jid: string, path: string) {
  const { latest } = await flinkRest<{
    latest: { restored: { is_savepoint: boolean; external_path: string } };
  }>(`/jobs/${jid}/checkpoints`);
  // Flink writes file:/x in one place and file:///x in another.
  const local = (uri: string) => uri.replace(/^file:\/*/, '/');
  expect(latest.restored.is_savepoint).toBe(true);
  expect(local(latest.restored.external_path)).toBe(local(path));
}

describe('a savepoint upgrade on real pods', () => {
  it(
    'a config change to a running application cluster stops the job with a savepoint and restarts it from there; suspend and resume go through savepoints too; the history keeps them',
    async () => {
      // No shared file system on one node: the state stays under Flink's memory threshold, so
      // a savepoint is one metadata file, written by the JobManager onto its own claim, which its
      // restarted pod mounts again. Production points the directory at S3, GCS, HDFS or NFS.
      const input: Partial<ClusterSpecInput> = {
        image: 'flink:2.2-examples',
        mode: 'application',
        job: {
          ...KEYED_COUNTER_JOB,
          args: [
            '--keys',
            '32',
            '--rate',
            '200',
            '--state-bytes',
            '16',
            '--checkpoint-interval',
            '2000',
          ],
        },
        jobManager: {
          workload: 'StatefulSet',
          volumeClaimTemplates: [{ name: 'savepoints', storage: '1Gi' }],
        },
        taskManager: { replicas: 1, slots: 2 },
        flinkConfiguration: {
          'execution.checkpointing.savepoint-dir':
            'file:///opt/flink/volumes/savepoints',
        },
      };
      const { jid } = await checkpointedJob(input);

      const changed = specFor({
        ...input,
        flinkConfiguration: {
          ...input.flinkConfiguration,
          'rest.flamegraph.enabled': true,
        },
      });
      const log: string[] = [];
      const upgrade = await upgradeCluster(
        registry.get(TEST_CLUSTER),
        observer,
        changed,
        { mode: 'savepoint', log: line => log.push(line) },
      );

      // The plan named the pods the change restarts; applied blindly, the JobManager's restart
      // would lose the job's state.
      expect(
        upgrade.plan.restarts
          .map(r => ({ component: r.component, pods: r.pods }))
          .sort((a, b) => a.component.localeCompare(b.component)),
      ).toEqual([
        { component: 'jobmanager', pods: [`${NAME}-0`] },
        { component: 'taskmanager', pods: [`${NAME}-taskmanager-0`] },
      ]);
      expect(upgrade.plan.jobs.effect).toBe('lost');
      expect(upgrade.savepoints).toHaveLength(1);
      const [savepoint] = upgrade.savepoints;
      expect(savepoint).toMatchObject({ jobId: jid, trigger: 'upgrade' });
      expect(savepoint.path).toMatch(
        /^file:.*\/opt\/flink\/volumes\/savepoints\/savepoint-/,
      );
      expect(upgrade.applied.job?.initialSavepointPath).toBe(savepoint.path);
      expect(log.filter(line => !line.startsWith('Plan: '))).toEqual([
        expect.stringMatching(/^Stopping job .* with a savepoint into file:/),
        `Job ${savepoint.jobName} stopped; savepoint at ${savepoint.path}.`,
        expect.stringMatching(/^Applied with job.initialSavepointPath/),
        `Job ${upgrade.resumedJobId} runs, restored from ${savepoint.path}.`,
      ]);

      // Flink's own account: the job running now restored from that savepoint, no other state.
      const { jid: resumed } = await runningJob('the job running again');
      expect(resumed).toBe(upgrade.resumedJobId);
      await expectRestoredFromSavepoint(resumed, savepoint.path);
      // The new configuration is the one running.
      const config =
        await flinkRest<{ key: string; value: string }[]>('/jobmanager/config');
      expect(config).toContainEqual({
        key: 'rest.flamegraph.enabled',
        value: 'true',
      });

      // The history lives on the JobManager workload, and applying the spec again keeps it.
      const cluster = registry.get(TEST_CLUSTER);
      await applyCluster(
        cluster,
        renderCluster(upgrade.applied) as KubernetesObject[],
      );
      const history = async () =>
        parseSavepointHistory(
          (
            await plane().client.get(
              `/apis/apps/v1/namespaces/${namespace}/statefulsets/${NAME}`,
            )
          ).metadata.annotations?.[SAVEPOINT_HISTORY_ANNOTATION],
        );
      expect(await history()).toEqual([savepoint]);

      // Suspend: the job stops with a savepoint, then no pod runs; the claims stay.
      const suspend = await upgradeCluster(
        cluster,
        observer,
        { ...upgrade.applied, state: 'suspended' },
        { mode: 'savepoint' },
      );
      expect(suspend.savepoints).toEqual([
        expect.objectContaining({ jobId: resumed, trigger: 'suspend' }),
      ]);
      await waitFor(
        'no pod left',
        async () =>
          (await plane().client.list(`/api/v1/namespaces/${namespace}/pods`))
            .items.length === 0,
        { timeoutMs: 120_000, intervalMs: 1000 },
      );
      // A pause, not a scale-down: the claims stay (this one holds the savepoints here).
      const claims = await plane().client.list(
        `/api/v1/namespaces/${namespace}/persistentvolumeclaims`,
      );
      expect(
        claims.items.map(c => [c.metadata.name, c.status?.phase]).sort(),
      ).toEqual([[`savepoints-${NAME}-0`, 'Bound']]);
      expect(await history()).toEqual([suspend.savepoints[0], savepoint]);

      // Resume: the spec as it was (state running); the job starts from the suspend savepoint.
      const resume = await upgradeCluster(cluster, observer, changed, {
        mode: 'savepoint',
      });
      expect(resume.applied.job?.initialSavepointPath).toBe(
        suspend.savepoints[0].path,
      );
      const { jid: afterResume } = await runningJob(
        'the job running after resume',
      );
      expect(afterResume).toBe(resume.resumedJobId);
      await expectRestoredFromSavepoint(
        afterResume,
        suspend.savepoints[0].path,
      );
    },
    // Three restarts of the cluster with a job each time.
    600_000,
  );
});

describe('failures as the real kubelet reports them', () => {
  it('a bad image tag: ERROR with ErrImagePull or ImagePullBackOff', async () => {
    await deploy({
      image: 'flink:0.0-does-not-exist',
      taskManager: { replicas: 1 },
    });
    const status = await statusWhere(
      'ERROR for the image',
      s => s.jobManagerDeploymentStatus === 'ERROR',
    );

    expect(['ErrImagePull', 'ImagePullBackOff']).toContain(
      status.errors[0]?.reason,
    );
    expect(status.errors[0]?.message).toMatch(/flink:0\.0-does-not-exist/);
  });

  it('a JobManager that exits: CrashLoopBackOff, with what the container said last', async () => {
    // Application mode with a jar that is not in the image: the job's class cannot be loaded.
    await deploy({
      mode: 'application',
      job: {
        jarURI: 'local:///opt/flink/usrlib/missing.jar',
        entryClass: 'com.example.Missing',
        parallelism: 1,
      },
      taskManager: { replicas: 1 },
    });
    const status = await statusWhere(
      'CrashLoopBackOff',
      s => s.errors.some(e => e.reason === 'CrashLoopBackOff'),
      240_000,
    );
    const jobManager = status.pods.find(p => p.component === 'jobmanager');
    expect(jobManager?.restarts).toBeGreaterThanOrEqual(1);
    // The container's last words (its log's end, kept by FallbackToLogsOnError) say why.
    const message = status.errors.find(
      e => e.reason === 'CrashLoopBackOff',
    )?.message;
    expect(message).toMatch(/last exit: code [1-9]/);
    expect(message).toMatch(/ClassNotFoundException: com\.example\.Missing/);
  });

  it('a TaskManager over its memory limit: OOMKilled', async () => {
    // The JVM is told to commit a 2 GiB heap up front in a 1 GiB container.
    await deploy({
      taskManager: { replicas: 1 },
      flinkConfiguration: {
        'env.java.opts.taskmanager': '-Xms2g -Xmx2g -XX:+AlwaysPreTouch',
      },
    });
    const status = await statusWhere(
      'OOMKilled',
      s => s.errors.some(e => e.reason === 'OOMKilled'),
      180_000,
    );
    expect(status.errors.find(e => e.reason === 'OOMKilled')).toMatchObject({
      component: 'taskmanager',
    });
  });

  it('a claim that cannot bind: Pending, with the event that says why', async () => {
    await deploy({
      taskManager: {
        replicas: 1,
        volumeClaimTemplates: [
          {
            name: 'flink-data',
            storage: '1Gi',
            storageClassName: 'no-such-class',
          },
        ],
      },
    });
    const status = await statusWhere(
      'a Pending claim with its event',
      s =>
        condition(s, 'VolumesBound')?.status === 'False' &&
        s.events.some(e =>
          e.object.includes(`flink-data-${NAME}-taskmanager-0`),
        ),
    );
    expect(status.claims).toEqual([
      expect.objectContaining({
        phase: 'Pending',
        storageClass: 'no-such-class',
      }),
    ]);
    expect(
      status.events.find(e =>
        e.object.includes(`flink-data-${NAME}-taskmanager-0`),
      )?.message,
    ).toMatch(/no-such-class/);
  });
});
