import {
  parseClusterSpec,
  renderCluster,
} from '@flink-standalone/plugin-flink-standalone-common';
import {
  ControlPlane,
  createTestNamespace,
  startControlPlane,
  waitFor,
} from '@flink-standalone/testenv';
import type { KubernetesObject } from '@kubernetes/client-node';
import { applyCluster } from '../apply/applyCluster';
import { isPodReady } from '../observer/kube';
import {
  TEST_CLUSTER,
  backendToken,
  registryFor,
} from '../__testUtils__/backendAccess';
import { ClusterWatchCache } from './ClusterWatchCache';

// Restarting the API server would disturb other test files: this file gets a plane of its own.
let plane: ControlPlane;

beforeAll(async () => {
  plane = await startControlPlane();
}, 180_000);

afterAll(async () => {
  await plane?.stop();
}, 60_000);

/** A synced cache of a new namespace holding one applied cluster, `orders`; stop it after. */
async function cacheWithCluster(
  label: string,
  onChange?: (clusters?: string[]) => void,
) {
  const namespace = await createTestNamespace(plane.client, label);
  const registry = registryFor(plane, await backendToken(plane));
  const cluster = registry.get(TEST_CLUSTER);
  const cache = new ClusterWatchCache(cluster, {
    namespaces: [namespace],
    onChange,
  });
  cache.start();
  try {
    await cache.synced();
    await applyCluster(
      cluster,
      renderCluster(
        parseClusterSpec({ name: 'orders', namespace, flinkVersion: '2.1' }),
      ) as KubernetesObject[],
    );
  } catch (error) {
    cache.stop();
    throw error;
  }
  return { namespace, cache };
}

describe('ClusterWatchCache', () => {
  it('goes stale while the API server restarts, recovers without a restart of its own, and loses no change', async () => {
    const namespace = await createTestNamespace(plane.client, 'watch');
    const registry = registryFor(plane, await backendToken(plane));
    const cluster = registry.get(TEST_CLUSTER);
    const cache = new ClusterWatchCache(cluster, {
      minBackoffMs: 100,
      maxBackoffMs: 500,
    });
    cache.start();
    try {
      await cache.synced();
      const objects = renderCluster(
        parseClusterSpec({
          name: 'orders',
          namespace,
          flinkVersion: '2.1',
          taskManager: { replicas: 2 },
        }),
      ) as KubernetesObject[];
      await applyCluster(cluster, objects);
      await waitFor('two TaskManager pods cached', () => {
        const pods = cache
          .snapshot(namespace, 'orders')
          .pods.filter(p => p.metadata?.labels?.component === 'taskmanager');
        return pods.length === 2 || undefined;
      });
      expect(cache.stale).toBe(false);
      const syncedBefore = cache.lastSyncedAt!;

      let sawStale = false;
      const watcher = setInterval(() => {
        if (cache.stale) sawStale = true;
      }, 20);
      await plane.restartApiServer();
      // A change made right after the restart must reach the cache.
      await plane.client.patch(
        `/apis/apps/v1/namespaces/${namespace}/statefulsets/orders-taskmanager/scale`,
        {
          spec: { replicas: 3 },
        },
      );
      await waitFor(
        'the cache recovered and saw the scale-up',
        () => {
          const snapshot = cache.snapshot(namespace, 'orders');
          const pods = snapshot.pods.filter(
            p => p.metadata?.labels?.component === 'taskmanager',
          );
          return (
            (!cache.stale &&
              pods.length === 3 &&
              (snapshot.taskManager?.spec?.replicas ?? 0) === 3) ||
            undefined
          );
        },
        { timeoutMs: 60_000 },
      );
      clearInterval(watcher);
      expect(sawStale).toBe(true);
      const snapshot = cache.snapshot(namespace, 'orders');
      expect(snapshot.stale).toBe(false);
      expect(Date.parse(snapshot.lastSyncedAt!)).toBeGreaterThan(
        syncedBefore.getTime(),
      );
    } finally {
      cache.stop();
    }
  }, 180_000);

  it('after a relist counts only what changed while its watch was lost: a status computed before it stays current', async () => {
    const { namespace, cache } = await cacheWithCluster('relist');
    try {
      const settled = await waitFor(
        'both pods Ready, their workloads counting them, any claim bound',
        () => {
          const found = cache.snapshot(namespace, 'orders');
          const ready = (w?: { status?: { readyReplicas?: number } }) =>
            w?.status?.readyReplicas === 1;
          return found.pods.length === 2 &&
            found.pods.every(isPodReady) &&
            ready(found.jobManager) &&
            ready(found.taskManager) &&
            found.claims.every(c => c.status?.phase === 'Bound')
            ? found
            : undefined;
        },
        { timeoutMs: 60_000 },
      );
      const sources = cache.sourcesOf(settled);
      const before = { version: cache.version(sources), lists: cache.lists() };

      // A restarted API server's watch cache starts at etcd's latest revision: a watch resumed
      // from an older one is answered 410 Gone, and its informer lists again.
      await plane.restartApiServer();
      const relisted = ['StatefulSet', 'Deployment', 'ReplicaSet', 'Pod'];
      await waitFor(
        'the workloads and pods listed again, the cache connected',
        () =>
          !cache.stale &&
          relisted.every(kind => cache.lists()[kind] > before.lists[kind]),
        { timeoutMs: 60_000 },
      );
      expect(cache.version(sources)).toBe(before.version);
    } finally {
      cache.stop();
    }
  }, 180_000);

  it('holds only slim objects (no managedFields, no container specs)', async () => {
    const { namespace, cache } = await cacheWithCluster('slim');
    try {
      const snapshot = await waitFor(
        'both workloads and their pods cached',
        () => {
          const found = cache.snapshot(namespace, 'orders');
          return found.pods.length === 2 &&
            found.taskManager &&
            found.jobManager
            ? found
            : undefined;
        },
      );
      const pod = snapshot.pods[0];
      expect(pod.metadata).not.toHaveProperty('managedFields');
      expect(pod.spec!.containers[0]).not.toHaveProperty('env');
      expect(snapshot.taskManager!.spec!.template).toEqual({
        metadata: {
          labels: expect.objectContaining({ component: 'taskmanager' }),
        },
      });
      expect(cache.sizes()).toMatchObject({
        Pod: 2,
        StatefulSet: 1,
        Deployment: 1,
      });
    } finally {
      cache.stop();
    }
  });

  it("names the Flink clusters each change concerns: a pod's by its label, an event's by the object it involves, none for a node", async () => {
    const calls: (string[] | undefined)[] = [];
    /** What the change that brought the event `about-a-pod` named. */
    let eventCall: { clusters?: string[] } | undefined;
    const held: { cache?: ClusterWatchCache } = {};
    const { namespace, cache } = await cacheWithCluster('changes', clusters => {
      calls.push(clusters);
      const reasons = held.cache?.snapshot(namespace, 'orders').events ?? [];
      if (!eventCall && reasons.some(e => e.reason === 'about-a-pod'))
        eventCall = { clusters };
    });
    held.cache = cache;
    const since = (start: number) => calls.slice(start);
    const event = (name: string, pod: string) =>
      plane.client.create(`/api/v1/namespaces/${namespace}/events`, {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name, namespace },
        involvedObject: { apiVersion: 'v1', kind: 'Pod', name: pod, namespace },
        reason: name,
        message: 'for the test',
        type: 'Normal',
        source: { component: 'test' },
      });
    try {
      const snapshot = await waitFor('both pods cached, on a node', () => {
        const found = cache.snapshot(namespace, 'orders');
        return found.pods.length === 2 && found.nodes.length > 0
          ? found
          : undefined;
      });
      expect(calls).toContainEqual([`${namespace}/orders`]);

      await event('about-a-pod', snapshot.pods[0].metadata!.name!);
      await waitFor('the event cached', () => eventCall);
      expect(eventCall).toEqual({ clusters: [`${namespace}/orders`] });

      // An event of an object the cache does not hold belongs to no snapshot.
      const events = () => cache.sizes().Event;
      const beforeGhost = { calls: calls.length, events: events() };
      await event('about-a-ghost', 'ghost-0');
      await waitFor('the ghost event cached', () =>
        events() > beforeGhost.events ? true : undefined,
      );
      expect(since(beforeGhost.calls)).toContainEqual([]);

      // A node may carry anyone's pods.
      const node = snapshot.nodes[0].metadata!.name!;
      const beforeNode = calls.length;
      await plane.client.patch(`/api/v1/nodes/${node}`, {
        metadata: { labels: { 'flink-standalone.test/changes': namespace } },
      });
      await waitFor('the node change told', () =>
        since(beforeNode).includes(undefined) ? true : undefined,
      );
    } finally {
      cache.stop();
    }
  });

  it("counts and tells a node's update only when what the observer reads changed: a heartbeat is not a change", async () => {
    const told: (string[] | undefined)[] = [];
    const { namespace, cache } = await cacheWithCluster('heartbeat', clusters =>
      told.push(clusters),
    );
    try {
      const snapshot = await waitFor('a pod on a cached node', () => {
        const found = cache.snapshot(namespace, 'orders');
        return found.nodes.length > 0 ? found : undefined;
      });
      const node = snapshot.nodes[0].metadata!.name!;
      const sources = cache.sourcesOf(snapshot);
      const nodeChanges = () => Number(cache.version(sources).split(':')[6]);
      const label = async (value: string) => {
        const before = nodeChanges();
        await plane.client.patch(`/api/v1/nodes/${node}`, {
          metadata: { labels: { 'flink-standalone.test/marker': value } },
        });
        await waitFor(`label ${value} cached`, () => nodeChanges() > before);
        return nodeChanges() - before;
      };
      // What one counted update adds.
      const perUpdate = await label(`${namespace}-1`);
      const before = nodeChanges();
      const toldBefore = told.length;
      const nodeChangesTakenIn = cache.changes().Node;

      // A kubelet's heartbeat, then a label: the same node's watch delivers them in this order.
      await plane.client.patch(
        `/api/v1/nodes/${node}/status`,
        {
          status: {
            conditions: [
              { type: 'Ready', lastHeartbeatTime: new Date().toISOString() },
            ],
          },
        },
        'strategic',
      );
      await label(`${namespace}-2`);
      expect(nodeChanges()).toBe(before + perUpdate);
      expect(cache.changes().Node).toBe(nodeChangesTakenIn + 1);
      // Told once, for the label: a node change concerns any cluster, named none.
      expect(told.slice(toldBefore).filter(c => c === undefined)).toHaveLength(
        1,
      );
    } finally {
      cache.stop();
    }
  });
});
