import {
  createTestNamespace,
  useControlPlane,
} from '@flink-standalone/testenv';
import type { FlinkKubernetesCluster } from '../cluster/ClusterRegistry';
import {
  TEST_CLUSTER,
  backendToken,
  registryFor,
} from '../__testUtils__/backendAccess';
import { FlinkRestClient } from './FlinkRestClient';

const plane = useControlPlane();
let cluster: FlinkKubernetesCluster;
let namespace: string;

beforeAll(async () => {
  cluster = registryFor(plane(), await backendToken(plane())).get(TEST_CLUSTER);
  namespace = await createTestNamespace(plane().client, 'rest-client');
});
afterAll(() => cluster?.http.close());

/** Requests counted where they leave for the API server (its service proxy). */
async function requestsOf(work: () => Promise<unknown>) {
  const before = cluster.http.requestCount;
  await work();
  return cluster.http.requestCount - before;
}

describe('FlinkRestClient through the service proxy', () => {
  it('fetches once for concurrent readers (single flight), and peek within the max age asks nothing', async () => {
    let clock = Date.now();
    const client = new FlinkRestClient({ now: () => new Date(clock) });
    // No Flink answers here: the proxy's error is an observation like any other, and as costly.
    const one = await requestsOf(() =>
      client.fetch(cluster, namespace, 'orders'),
    );
    expect(one).toBeGreaterThan(0);

    let answers: unknown[] = [];
    const concurrent = await requestsOf(async () => {
      answers = await Promise.all(
        Array.from({ length: 20 }, () =>
          client.fetch(cluster, namespace, 'orders'),
        ),
      );
    });
    expect(concurrent).toBe(one);
    expect(new Set(answers).size).toBe(1);
    expect(answers[0]).toMatchObject({ reachable: false });

    // Another cluster's name is another flight.
    const two = await requestsOf(() =>
      Promise.all([
        client.fetch(cluster, namespace, 'orders'),
        client.fetch(cluster, namespace, 'payments'),
      ]),
    );
    expect(two).toBe(2 * one);

    // Within the default max age (5 s) a peek returns the cached answer and asks nothing.
    const peeks = await requestsOf(async () => {
      for (let i = 0; i < 20; i++) {
        expect(client.peek(cluster, namespace, 'orders')).toMatchObject({
          reachable: false,
        });
      }
    });
    expect(peeks).toBe(0);
    // Older than that: the peeks start one refresh in the background, a fetch joins it.
    clock += 5_001;
    const refresh = await requestsOf(async () => {
      client.peek(cluster, namespace, 'orders');
      client.peek(cluster, namespace, 'orders');
      await client.fetch(cluster, namespace, 'orders');
    });
    expect(refresh).toBe(one);
  });

  it('tells a failing cluster the same way each time: the error of the first endpoint in order, not of the first to fail', async () => {
    const client = new FlinkRestClient();
    const errors = new Set<string | undefined>();
    // Every endpoint fails here, and their answers come back in any order.
    for (let i = 0; i < 10; i++) {
      errors.add((await client.fetch(cluster, namespace, 'failing')).error);
    }
    expect([...errors]).toEqual([
      expect.stringMatching(
        /^HTTP \d+ from \/overview through the service proxy/,
      ),
    ]);
  });
});

describe('FlinkRestClient refresh budget', () => {
  it('starts at most maxRefreshesPerSecond background refreshes a second over all clusters, and serves the older answer meanwhile', async () => {
    let clock = Date.now();
    const client = new FlinkRestClient({
      now: () => new Date(clock),
      maxRefreshesPerSecond: 2,
    });
    const names = ['a', 'b', 'c', 'd', 'e'];
    const one = await requestsOf(() => client.fetch(cluster, namespace, 'a'));
    await Promise.all(names.map(n => client.fetch(cluster, namespace, n)));
    clock += 5_001;

    // Five stale clusters read at once: two refreshes start, three wait for budget.
    const first = await requestsOf(async () => {
      for (const n of names) {
        expect(client.peek(cluster, namespace, n)).toMatchObject({
          reachable: false,
        });
      }
      // A cluster whose refresh is in flight takes no budget and counts as neither.
      client.peek(cluster, namespace, 'a');
      // Joins the two refreshes in flight.
      await Promise.all(
        ['a', 'b'].map(n => client.fetch(cluster, namespace, n)),
      );
    });
    expect(first).toBe(2 * one);
    expect(client.refreshes).toEqual({ started: 2, deferred: 3 });

    // Within the same second no budget is left; a second later two more start.
    const none = await requestsOf(async () => {
      client.peek(cluster, namespace, 'c');
    });
    expect(none).toBe(0);
    clock += 1000;
    const next = await requestsOf(async () => {
      for (const n of ['c', 'd', 'e']) client.peek(cluster, namespace, n);
      await Promise.all(
        ['c', 'd'].map(n => client.fetch(cluster, namespace, n)),
      );
    });
    expect(next).toBe(2 * one);
    expect(client.refreshes).toEqual({ started: 4, deferred: 5 });
  });
});
