import {
  ClusterSpecInput,
  FlinkClusterStatus,
  JobManagerDeploymentStatus,
  parseClusterSpec,
  renderCluster,
} from '@flink-standalone/plugin-flink-standalone-common';
import {
  FlinkSession,
  PodFailure,
  createTestNamespace,
  startFlinkSession,
  useControlPlane,
  waitFor,
} from '@flink-standalone/testenv';
import type { KubernetesObject } from '@kubernetes/client-node';
import { applyCluster } from '../apply/applyCluster';
import { forceDeleteLostPod } from '../apply/forceDeleteLostPod';
import { waitForReady } from '../apply/waitForReady';
import type { ClusterRegistry } from '../cluster/ClusterRegistry';
import { observeCluster } from '../observer';
import { ClusterWatchCache } from '../watch/ClusterWatchCache';
import {
  TEST_CLUSTER,
  backendToken,
  registryFor,
} from '../__testUtils__/backendAccess';
import { FlinkObserver } from './FlinkObserver';
import { jsonBody } from './precompressedJson';

const plane = useControlPlane();
let token: string;
let registry: ClusterRegistry;
let observer: FlinkObserver;
let namespace: string;

beforeAll(async () => {
  token = await backendToken(plane());
  registry = registryFor(plane(), token);
  observer = new FlinkObserver({
    registry,
    stuckTerminatingAfterSeconds: 0,
    restMaxAgeMs: 200,
  });
});

afterAll(() => observer?.close());

beforeEach(async () => {
  namespace = await createTestNamespace(plane().client, 'observe');
});

const ref = () => ({ cluster: TEST_CLUSTER, namespace, name: 'orders' });

function objectsFor(input: Partial<ClusterSpecInput> = {}) {
  return renderCluster(
    parseClusterSpec({
      name: 'orders',
      namespace,
      flinkVersion: '2.2',
      taskManager: {
        replicas: 2,
        volumeClaimTemplates: [{ name: 'flink-data', storage: '1Gi' }],
      },
      ...input,
    }),
  ) as KubernetesObject[];
}

/** Polls the observer until the status satisfies the check. */
/** Waits for a status that passes check; a timeout names what the last status said. */
async function statusWhere(
  check: (s: FlinkClusterStatus) => boolean,
  what: string,
  timeoutMs = 60_000,
) {
  let last: FlinkClusterStatus | undefined;
  try {
    return await waitFor(
      what,
      async () => {
        last = await observer.getStatus(ref());
        return check(last) ? last : undefined;
      },
      { timeoutMs, intervalMs: 100 },
    );
  } catch (error) {
    const said = last && {
      status: last.jobManagerDeploymentStatus,
      reason: last.reason,
      message: last.message,
      pods: last.pods.map(p => ({
        name: p.name,
        phase: p.phase,
        ready: p.ready,
        node: p.node,
        nodeReady: p.nodeReady,
      })),
    };
    throw new Error(
      `${(error as Error).message}; the last status: ${JSON.stringify(said)}`,
    );
  }
}

const condition = (status: FlinkClusterStatus, type: string) =>
  status.conditions.find(c => c.type === type)!;

/** A read's status, and its memo: the last part, the same object while the status is reused. */
async function readWithMemo(from: FlinkObserver) {
  const parts = await from.getStatusJson(ref());
  const status: FlinkClusterStatus = JSON.parse(
    Buffer.concat(jsonBody(parts, 'identity')).toString('utf8'),
  );
  return { memo: parts[parts.length - 1], status };
}

/**
 * `orders` with its TaskManagers ready, and an observer with every option at its default but
 * the clock, which the test moves; the first REST answer is in.
 */
async function readyWithClockedObserver() {
  await applyCluster(registry.get(TEST_CLUSTER), objectsFor());
  await statusWhere(
    s => s.taskManager?.replicas.ready === 2,
    'TaskManagers ready',
  );
  let clock = Date.now();
  const clocked = new FlinkObserver({ registry, now: () => new Date(clock) });
  await clocked.getStatus(ref());
  await clocked.refreshRest(ref()); // joins the first fetch, if still in flight
  return {
    clocked,
    advance: (ms: number) => {
      clock += ms;
    },
  };
}

/** The version of what the status of `orders` is computed from, in an observer's cache. */
function versionOf(from: FlinkObserver) {
  const cache = from.cacheOf(TEST_CLUSTER);
  return cache.version(cache.sourcesOf(cache.snapshot(namespace, 'orders')));
}

/** A Warning event about a pod, as a controller would record it. */
function podEvent(pod: string, reason: string) {
  return plane().client.create(`/api/v1/namespaces/${namespace}/events`, {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${pod}.${reason.toLowerCase()}`, namespace },
    involvedObject: { apiVersion: 'v1', kind: 'Pod', name: pod, namespace },
    reason,
    message: `${reason} for the test`,
    type: 'Warning',
    source: { component: 'test' },
    firstTimestamp: new Date().toISOString(),
    lastTimestamp: new Date().toISOString(),
    count: 1,
  });
}

/** Until an observer has recomputed every status it had gathered or due (ahead of reads). */
function recomputed(from: FlinkObserver) {
  return waitFor(
    'no status left to recompute',
    () => from.recomputesPending === 0,
    { intervalMs: 20 },
  );
}

/** The reasons of the events an observer's cache holds for a Flink cluster. */
function eventReasons(from: FlinkObserver, name = 'orders') {
  return from
    .cacheOf(TEST_CLUSTER)
    .snapshot(namespace, name)
    .events.map(e => e.reason);
}

describe('FlinkObserver against the real control plane', () => {
  it('goes MISSING → DEPLOYING → DEPLOYED_NOT_READY, saying plainly that pods are simulated', async () => {
    expect((await observer.getStatus(ref())).jobManagerDeploymentStatus).toBe(
      'MISSING',
    );
    // Every state the cache passes through, evaluated on each change it sees.
    const seen: JobManagerDeploymentStatus[] = [];
    const cache = new ClusterWatchCache(registry.get(TEST_CLUSTER), {
      namespaces: [namespace],
      onChange: () => {
        const state = observeCluster(
          cache.snapshot(namespace, 'orders'),
          undefined,
          {
            now: new Date(),
            stuckTerminatingAfterSeconds: 300,
          },
        ).jobManagerDeploymentStatus;
        if (seen[seen.length - 1] !== state) seen.push(state);
      },
    });
    cache.start();
    try {
      await cache.synced();
      await applyCluster(registry.get(TEST_CLUSTER), objectsFor());
      const status = await statusWhere(
        s =>
          s.jobManagerDeploymentStatus === 'DEPLOYED_NOT_READY' &&
          s.flink.fetchedAt !== undefined,
        'DEPLOYED_NOT_READY with a REST answer',
      );
      await waitFor('cache saw DEPLOYED_NOT_READY', () =>
        seen.includes('DEPLOYED_NOT_READY'),
      );
      expect(seen.slice(0, 3)).toEqual([
        'MISSING',
        'DEPLOYING',
        'DEPLOYED_NOT_READY',
      ]);
      expect(status.flink.reachable).toBe(false);
      expect(status.flink.unreachableReason).toBe('SimulatedNodes');
      expect(status.message).toMatch(/simulated/i);
      expect(condition(status, 'FlinkRestReachable').status).toBe('False');
    } finally {
      cache.stop();
    }
  });

  it('shows each ordinal with its Bound claim, and a deleted TaskManager coming back on the same claim', async () => {
    await applyCluster(
      registry.get(TEST_CLUSTER),
      objectsFor({
        taskManager: {
          replicas: 3,
          volumeClaimTemplates: [{ name: 'flink-data', storage: '1Gi' }],
        },
      }),
    );
    const ready = await statusWhere(
      s =>
        s.taskManager?.replicas.ready === 3 &&
        s.claims.filter(c => c.phase === 'Bound').length === 3,
      '3 ready TaskManagers with bound claims',
    );
    const tmPods = ready.pods.filter(p => p.component === 'taskmanager');
    expect(tmPods.map(p => [p.name, p.ordinal, p.claims])).toEqual([
      ['orders-taskmanager-0', 0, ['flink-data-orders-taskmanager-0']],
      ['orders-taskmanager-1', 1, ['flink-data-orders-taskmanager-1']],
      ['orders-taskmanager-2', 2, ['flink-data-orders-taskmanager-2']],
    ]);
    const claims = await plane().client.list(
      `/api/v1/namespaces/${namespace}/persistentvolumeclaims`,
    );
    const volumeOf = (name: string) =>
      claims.items.find(c => c.metadata.name === name)!.spec.volumeName;
    for (const claim of ready.claims) {
      expect(claim).toMatchObject({
        phase: 'Bound',
        template: 'flink-data',
        component: 'taskmanager',
        volumeName: volumeOf(claim.name),
      });
      expect(claim.retention).toEqual({
        whenDeleted: 'Delete',
        whenScaled: 'Delete',
      });
    }
    expect(condition(ready, 'VolumesBound')).toMatchObject({ status: 'True' });

    const podPath = `/api/v1/namespaces/${namespace}/pods/orders-taskmanager-1`;
    const podBefore = await plane().client.get(podPath);
    // Start times have a resolution of one second: make the new pod's differ.
    await waitFor(
      'a second later than the old pod started',
      () => Date.now() >= Date.parse(podBefore.status.startTime) + 1000,
    );
    await plane().client.delete(podPath);
    const podAfter = await waitFor('a new pod for ordinal 1', async () => {
      const pod = await plane().client.find(podPath);
      return pod &&
        pod.metadata.uid !== podBefore.metadata.uid &&
        pod.status?.startTime
        ? pod
        : undefined;
    });
    const back = await statusWhere(s => {
      const pod = s.pods.find(p => p.name === 'orders-taskmanager-1');
      return (
        !!pod &&
        pod.ready &&
        Date.parse(pod.startTime ?? '') ===
          Date.parse(podAfter.status.startTime) &&
        s.taskManager?.replicas.ready === 3
      );
    }, 'ordinal 1 back');
    expect(podAfter.status.startTime).not.toBe(podBefore.status.startTime);
    const claim1 = back.claims.find(c => c.ordinal === 1)!;
    expect(claim1).toMatchObject({
      name: 'flink-data-orders-taskmanager-1',
      phase: 'Bound',
      volumeName: volumeOf('flink-data-orders-taskmanager-1'),
    });
  });

  it.each([
    'CrashLoopBackOff',
    'ImagePullBackOff',
    'ErrImagePull',
    'OOMKilled',
  ] as PodFailure[])(
    'a TaskManager failing with %s turns the cluster to ERROR with that reason',
    async failure => {
      await applyCluster(registry.get(TEST_CLUSTER), objectsFor());
      await statusWhere(
        s => s.taskManager?.replicas.ready === 2,
        'TaskManagers ready',
      );
      await plane().faults.failPod(namespace, 'orders-taskmanager-1', failure);
      const status = await statusWhere(
        s => s.jobManagerDeploymentStatus === 'ERROR',
        'ERROR',
      );
      expect(status.reason).toBe(failure);
      expect(status.error).toMatchObject({
        reason: failure,
        pod: 'orders-taskmanager-1',
        component: 'taskmanager',
      });
    },
  );

  it('a StatefulSet that cannot create its pods is ERROR FailedCreate', async () => {
    await applyCluster(
      registry.get(TEST_CLUSTER),
      objectsFor({ podTemplate: { serviceAccountName: 'does-not-exist' } }),
    );
    const status = await statusWhere(
      s => s.jobManagerDeploymentStatus === 'ERROR',
      'ERROR',
    );
    expect(status.reason).toBe('FailedCreate');
    expect(status.error!.message).toMatch(/does-not-exist/);
  });

  it('a pod stuck Terminating on a NotReady node shows in NoStuckPods with the node and what to do', async () => {
    await applyCluster(registry.get(TEST_CLUSTER), objectsFor());
    const ready = await statusWhere(
      s => s.taskManager?.replicas.ready === 2,
      'TaskManagers ready',
    );
    const node = ready.pods.find(p => p.name === 'orders-taskmanager-0')!.node!;
    await plane().faults.stickTerminating(namespace, 'orders-taskmanager-0');
    await plane().faults.nodeNotReady(node);
    try {
      const status = await statusWhere(
        s =>
          s.pods.some(
            p =>
              p.name === 'orders-taskmanager-0' &&
              p.stuck &&
              p.nodeReady === false,
          ),
        'stuck pod on a NotReady node',
      );
      const pod = status.pods.find(p => p.name === 'orders-taskmanager-0')!;
      expect(pod.terminatingSince).toBeDefined();
      expect(pod.stuckMessage).toContain(node);
      expect(condition(status, 'NoStuckPods')).toMatchObject({
        status: 'False',
      });
      expect(condition(status, 'NoStuckPods').message).toContain(
        'orders-taskmanager-0',
      );
    } finally {
      await plane().faults.nodeReady(node);
      await plane().faults.releaseTerminating(
        namespace,
        'orders-taskmanager-0',
      );
    }
  });

  it('force-deletes a pod stuck Terminating on a NotReady node, and no other pod: the StatefulSet creates the ordinal again on its claim', async () => {
    await applyCluster(registry.get(TEST_CLUSTER), objectsFor());
    const ready = await statusWhere(
      s => s.taskManager?.replicas.ready === 2,
      'TaskManagers ready',
    );
    const before = await plane().client.get(
      `/api/v1/namespaces/${namespace}/pods/orders-taskmanager-0`,
    );
    const node = ready.pods.find(p => p.name === 'orders-taskmanager-0')!.node!;
    // Only the lost node holds it (no finalizer): the kubelet never confirms the end.
    await plane().faults.stickTerminating(namespace, 'orders-taskmanager-0', {
      finalizer: false,
    });
    await plane().faults.nodeNotReady(node);
    try {
      const stuck = await statusWhere(
        s =>
          s.pods.some(
            p =>
              p.name === 'orders-taskmanager-0' &&
              p.stuck &&
              p.nodeReady === false,
          ),
        'stuck pod on a NotReady node',
      );
      // Any other pod is refused, whatever its state: nothing is deleted.
      const other = stuck.pods.find(p => p.name !== 'orders-taskmanager-0')!;
      await expect(
        forceDeleteLostPod(registry.get(TEST_CLUSTER), stuck, other.name),
      ).rejects.toThrow(
        `Pod ${other.name} of ${namespace}/orders is not stuck Terminating on a NotReady node (pods stuck on a NotReady node: orders-taskmanager-0): nothing was deleted`,
      );

      const result = await forceDeleteLostPod(
        registry.get(TEST_CLUSTER),
        stuck,
        'orders-taskmanager-0',
      );
      expect(result).toEqual({
        pod: 'orders-taskmanager-0',
        node,
        terminatingSince: stuck.pods.find(
          p => p.name === 'orders-taskmanager-0',
        )!.terminatingSince,
      });
      // The old pod object is gone at once; the controller makes the ordinal again, same claim.
      const again = await waitFor('ordinal 0 created again', async () => {
        const pod = await plane().client.find(
          `/api/v1/namespaces/${namespace}/pods/orders-taskmanager-0`,
        );
        return pod && pod.metadata.uid !== before.metadata.uid
          ? pod
          : undefined;
      });
      expect(again.metadata.deletionTimestamp).toBeUndefined();
      expect(
        again.spec.volumes.find((v: any) => v.name === 'flink-data')
          .persistentVolumeClaim.claimName,
      ).toBe('flink-data-orders-taskmanager-0');
      // Scheduled away from the lost node (tainted unreachable), with its claim.
      const placed = await waitFor('ordinal 0 scheduled', async () => {
        const pod = await plane().client.get(
          `/api/v1/namespaces/${namespace}/pods/orders-taskmanager-0`,
        );
        return pod.spec.nodeName ? pod : undefined;
      });
      expect(placed.metadata.uid).toBe(again.metadata.uid);
      expect(placed.spec.nodeName).not.toBe(node);
      expect(
        (
          await plane().client.get(
            `/api/v1/namespaces/${namespace}/pods/${other.name}`,
          )
        ).metadata.deletionTimestamp,
      ).toBeUndefined();
    } finally {
      await plane().faults.nodeReady(node);
    }
  });

  it('claims that cannot bind show Pending in VolumesBound', async () => {
    await applyCluster(
      registry.get(TEST_CLUSTER),
      objectsFor({
        taskManager: {
          replicas: 2,
          volumeClaimTemplates: [
            {
              name: 'flink-data',
              storage: '1Gi',
              storageClassName: 'no-such-class',
            },
          ],
        },
      }),
    );
    const status = await statusWhere(s => s.claims.length === 2, 'two claims');
    expect(status.claims.map(c => c.phase)).toEqual(['Pending', 'Pending']);
    expect(condition(status, 'VolumesBound')).toMatchObject({
      status: 'False',
    });
    expect(condition(status, 'VolumesBound').message).toMatch(/0\/2/);
  });

  it('with the default configuration answers status requests from the cache: Kubernetes requests only for the background REST refresh, one per Flink cluster per restMaxAgeMs (5 s) however many requests come', async () => {
    const { clocked: defaults, advance } = await readyWithClockedObserver();
    const http = registry.get(TEST_CLUSTER).http;
    try {
      const start = http.requestCount;
      await defaults.refreshRest(ref());
      const perRefresh = http.requestCount - start;
      expect(perRefresh).toBeGreaterThan(0);

      const fresh = http.requestCount;
      for (let i = 0; i < 50; i++) await defaults.getStatus(ref());
      expect(http.requestCount - fresh).toBe(0);

      advance(5_001); // the REST answer is now older than the default 5 s
      const stale = http.requestCount;
      for (let i = 0; i < 50; i++) await defaults.getStatus(ref());
      await waitFor(
        'the background refresh',
        () => http.requestCount - stale >= perRefresh,
      );
      for (let i = 0; i < 50; i++) await defaults.getStatus(ref());
      expect(http.requestCount - stale).toBe(perRefresh);
    } finally {
      defaults.close();
    }
  });

  it("reuses a computed status while only other clusters change, and recomputes on its own pod's event", async () => {
    await applyCluster(registry.get(TEST_CLUSTER), objectsFor());
    await applyCluster(
      registry.get(TEST_CLUSTER),
      objectsFor({ name: 'other' }),
    );
    const quiet = new FlinkObserver({ registry, restMaxAgeMs: 60_000 });
    const read = () => readWithMemo(quiet);
    const eventsOf = (name: string) => eventReasons(quiet, name);
    try {
      await waitFor('both clusters ready', async () => {
        const [orders, other] = await Promise.all([
          quiet.getStatus(ref()),
          quiet.getStatus({ ...ref(), name: 'other' }),
        ]);
        return (
          orders.taskManager?.replicas.ready === 2 &&
          other.taskManager?.replicas.ready === 2
        );
      });
      await quiet.refreshRest(ref());
      const ownVersion = () => versionOf(quiet);
      // Another cluster's event comes in: the same status serves. Controllers may still be
      // writing this cluster's own status after its pods turned ready, and such a write rightly
      // means a new status: look for a window in which only the other cluster changed.
      let attempt = 0;
      const { first, second } = await waitFor(
        'a window in which only the other cluster changed',
        async () => {
          const reason = `OtherClusterEvent${++attempt}`;
          const before = ownVersion();
          const firstRead = await read();
          await podEvent('other-taskmanager-0', reason);
          await waitFor('the other event cached', () =>
            eventsOf('other').includes(reason),
          );
          const secondRead = await read();
          return (
            ownVersion() === before && {
              first: firstRead,
              second: secondRead,
            }
          );
        },
      );
      expect(second.memo).toBe(first.memo);
      // Only this read's times may differ: when it was observed, and when the cache last heard
      // from its quietest watch (an event or bookmark on that watch, of any object, moves it).
      expect(second.status).toEqual({
        ...first.status,
        observedAt: second.status.observedAt,
        lastSyncedAt: second.status.lastSyncedAt,
      });
      expect(Date.parse(second.status.observedAt)).toBeGreaterThanOrEqual(
        Date.parse(first.status.observedAt),
      );
      expect(Date.parse(second.status.lastSyncedAt!)).toBeGreaterThanOrEqual(
        Date.parse(first.status.lastSyncedAt!),
      );

      await podEvent('orders-taskmanager-1', 'OwnEvent');
      const third = await waitFor('its own event in the status', async () => {
        const answer = await read();
        return (
          answer.status.events.some(e => e.reason === 'OwnEvent') && answer
        );
      });
      expect(third.memo).not.toBe(first.memo);
      expect(
        third.status.events.filter(e =>
          e.reason.startsWith('OtherClusterEvent'),
        ),
      ).toEqual([]);
      // getStatus is the same answer, parsed (compared while the memo stays the same).
      const same = await waitFor(
        'getStatus between two reads of one memo',
        async () => {
          const before = await read();
          const parsed = await quiet.getStatus(ref());
          const after = await read();
          return after.memo === before.memo && { parsed, before };
        },
      );
      expect(same.parsed).toEqual({
        ...same.before.status,
        observedAt: same.parsed.observedAt,
      });
    } finally {
      quiet.close();
    }
  });

  it("keeps a computed status over REST refetches that answer the same, serving each answer's fetchedAt", async () => {
    const { clocked: refetching, advance } = await readyWithClockedObserver();
    try {
      // Kubernetes may still be writing this cluster's objects, which rightly means a new
      // status: look for a refetch during which nothing of the cluster changed.
      const { first, second } = await waitFor(
        'a REST refetch while the cluster stays the same',
        async () => {
          const before = versionOf(refetching);
          const firstRead = await readWithMemo(refetching);
          advance(5_001); // older than the default REST max age (5 s)
          await refetching.getStatus(ref()); // starts the background refetch
          await refetching.refreshRest(ref()); // and waits for it
          const secondRead = await readWithMemo(refetching);
          return (
            versionOf(refetching) === before && {
              first: firstRead,
              second: secondRead,
            }
          );
        },
      );
      // Pods on kwok nodes: the answer is the same (unreachable, simulated nodes) each time.
      expect(second.status.flink.reachable).toBe(false);
      expect(Date.parse(second.status.flink.fetchedAt!)).toBeGreaterThan(
        Date.parse(first.status.flink.fetchedAt!),
      );
      expect(second.memo).toBe(first.memo);
      expect(second.status).toEqual({
        ...first.status,
        observedAt: second.status.observedAt,
        lastSyncedAt: second.status.lastSyncedAt,
        flink: {
          ...first.status.flink,
          fetchedAt: second.status.flink.fetchedAt,
        },
      });
    } finally {
      refetching.close();
    }
  });

  it('recomputes a status pages still read once its cluster changed, so the next read finds it ready; one unread for a minute waits for its next read', async () => {
    const { clocked: ahead, advance } = await readyWithClockedObserver();
    const computed = () => ({ ...ahead.statusesComputed });
    /** The cache has taken in the event, and what it made due is recomputed. */
    const settled = async (reason: string) => {
      await waitFor(`${reason} cached`, () =>
        eventReasons(ahead).includes(reason),
      );
      await recomputed(ahead);
    };
    try {
      // Controllers may still be writing this cluster's objects, and the read after such a write
      // rightly computes: look for a window in which only the test's event came.
      let attempt = 0;
      const { before, status, after, aheadCauses } = await waitFor(
        'a read served what was computed ahead of it',
        async () => {
          await ahead.getStatus(ref());
          const reason = `Ahead${++attempt}`;
          const start = computed();
          const causesAtStart = { ...ahead.recomputeCauses };
          await podEvent('orders-taskmanager-1', reason);
          await settled(reason);
          const mid = computed();
          const causes = { ...ahead.recomputeCauses };
          const read = await ahead.getStatus(ref());
          const done = computed();
          return (
            mid.ahead > start.ahead &&
            done.onRead === mid.onRead && {
              before: mid,
              status: read,
              after: done,
              // No read and a stopped clock in between: the computations ahead are the only ones.
              aheadCauses: {
                computed: mid.ahead - start.ahead,
                first: causes.first - causesAtStart.first,
                cluster: causes.cluster - causesAtStart.cluster,
                flink: causes.flink - causesAtStart.flink,
                clock: causes.clock - causesAtStart.clock,
              },
            }
          );
        },
      );
      expect(status.events.map(e => e.reason)).toContain(`Ahead${attempt}`);
      expect(after.onRead).toBe(before.onRead);
      // Each was computed for a change in the watch cache.
      expect(aheadCauses).toEqual({
        computed: aheadCauses.computed,
        first: 0,
        cluster: aheadCauses.computed,
        flink: 0,
        clock: 0,
      });

      // No page has read it for over a minute: the next event waits for a read (marking
      // happens as the cache takes a change in, so nothing is pending once it is cached).
      advance(60_001);
      const idle = computed();
      await podEvent('orders-taskmanager-1', 'Unread');
      await settled('Unread');
      expect(computed().ahead).toBe(idle.ahead);
      const late = await ahead.getStatus(ref());
      expect(late.events.map(e => e.reason)).toContain('Unread');
      expect(computed().onRead).toBe(idle.onRead + 1);
    } finally {
      ahead.close();
    }
  });

  it('gathers a burst of changes to a cluster into one computation ahead of reads, and a read meanwhile computes what it finds out of date', async () => {
    const { clocked: gathering } = await readyWithClockedObserver();
    const computed = () => ({ ...gathering.statusesComputed });
    const cached = (reason: string) =>
      waitFor(
        `${reason} cached`,
        () => eventReasons(gathering).includes(reason),
        { intervalMs: 10 },
      );
    try {
      // Three changes, each taken in by the cache before the next is written (a change of its
      // own each, not one watch message), within the second they gather for. The controllers
      // may still write this cluster's objects, or a second may end between two changes: look
      // for a burst that made exactly one computation.
      let attempt = 0;
      const burst = await waitFor('a burst recomputed once', async () => {
        attempt++;
        await gathering.getStatus(ref());
        await recomputed(gathering);
        const start = computed();
        const reasons = [1, 2, 3].map(i => `Burst${attempt}x${i}`);
        for (const reason of reasons) {
          await podEvent('orders-taskmanager-0', reason);
          await cached(reason);
        }
        await recomputed(gathering);
        const end = computed();
        return end.ahead - start.ahead === 1 && { reasons, end };
      });
      const ready = await gathering.getStatus(ref());
      expect(ready.events.map(e => e.reason)).toEqual(
        expect.arrayContaining(burst.reasons),
      );
      expect(computed().onRead).toBe(burst.end.onRead);

      // A read while a change gathers computes the status itself: never an older status.
      const meanwhile = await waitFor(
        'a read while a change gathers',
        async () => {
          const reason = `Meanwhile${++attempt}`;
          await recomputed(gathering);
          const start = computed();
          await podEvent('orders-taskmanager-0', reason);
          await cached(reason);
          const read = await gathering.getStatus(ref());
          const end = computed();
          return (
            end.ahead === start.ahead && {
              reason,
              read,
              computedByTheRead: end.onRead - start.onRead,
            }
          );
        },
      );
      expect(meanwhile.read.events.map(e => e.reason)).toContain(
        meanwhile.reason,
      );
      expect(meanwhile.computedByTheRead).toBe(1);
    } finally {
      gathering.close();
    }
  });

  it('refuses a namespace outside the allowed list before any Kubernetes call', async () => {
    const limited = new FlinkObserver({
      registry: registryFor(plane(), token, {
        allowedNamespaces: ['streaming'],
      }),
    });
    try {
      await expect(limited.getStatus(ref())).rejects.toMatchObject({
        name: 'NotAllowedError',
      });
    } finally {
      limited.close();
    }
  });
});

describe('with the REST API pointed at a real Flink', () => {
  let flink: FlinkSession;
  let direct: FlinkObserver;

  beforeAll(async () => {
    flink = await startFlinkSession({ version: '2.2', taskManagers: 2 });
    direct = new FlinkObserver({
      registry: registryFor(plane(), token, {
        flinkRest: { mode: 'direct', baseUrl: flink.restUrl },
      }),
      restMaxAgeMs: 200,
    });
  }, 180_000);

  afterAll(async () => {
    direct?.close();
    await flink?.stop();
  });

  it('reaches READY, and TaskManagersRegistered follows the real TaskManager count, computed as each answer comes, ahead of reads', async () => {
    await applyCluster(registry.get(TEST_CLUSTER), objectsFor());
    const progress: string[] = [];
    const ready = await waitForReady(direct, ref(), {
      timeoutMs: 60_000,
      onProgress: p => progress.push(p.summary),
    });
    expect(ready.jobManagerDeploymentStatus).toBe('READY');
    expect(progress[progress.length - 1]).toMatch(/^READY/);
    expect(ready.flink).toMatchObject({
      reachable: true,
      taskManagersRegistered: 2,
      version: expect.stringMatching(/^2\.2/),
    });
    expect(condition(ready, 'TaskManagersRegistered')).toMatchObject({
      status: 'True',
    });

    const flinkCausesBefore = direct.recomputeCauses.flink;
    await flink.killTaskManager(1);
    // Answers fetched with no read in between: the first read to show the drop finds its
    // status computed when the answer came.
    const { status: dropped, computedByTheRead } = await waitFor(
      'TaskManager count drops',
      async () => {
        await direct.refreshRest(ref());
        await recomputed(direct);
        const before = direct.statusesComputed.onRead;
        const status = await direct.getStatus(ref());
        return status.flink.taskManagersRegistered === 1
          ? {
              status,
              computedByTheRead: direct.statusesComputed.onRead - before,
            }
          : undefined;
      },
      { timeoutMs: 90_000, intervalMs: 250 },
    );
    expect(computedByTheRead).toBe(0);
    // Computed because Flink's answer said something new (the pods did not change).
    expect(direct.recomputeCauses.flink).toBeGreaterThan(flinkCausesBefore);
    expect(condition(dropped, 'TaskManagersRegistered')).toMatchObject({
      status: 'False',
    });
    expect(condition(dropped, 'TaskManagersRegistered').message).toMatch(
      /1.*2/,
    );
  });
});
