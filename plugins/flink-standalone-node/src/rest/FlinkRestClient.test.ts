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
import type { SharedRestAnswers } from './sharedRestAnswers';

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

/**
 * A store standing in for a cache shared by backend replicas (Redis in production). It keeps
 * values past their TTL, as a store with a coarser clock may (memcached counts whole seconds):
 * the client must judge an answer's age itself. The TTLs asked for are kept to be checked.
 */
function sharedStore() {
  const values = new Map<string, unknown>();
  const ttls: unknown[] = [];
  const store: SharedRestAnswers = {
    get: async <T>(key: string) => values.get(key) as T | undefined,
    set: async (key, value, options) => {
      values.set(key, JSON.parse(JSON.stringify(value)));
      ttls.push(options?.ttl);
    },
  };
  return { store, ttls };
}

/** A read that finds its answer old: the background refresh it starts, waited for (a fetch joins it). */
function refreshed(client: FlinkRestClient, name: string) {
  client.peek(cluster, namespace, name);
  return client.fetch(cluster, namespace, name);
}

describe('FlinkRestClient answers shared between backend replicas', () => {
  it("takes another replica's answer within the max age instead of asking Flink, asks once it is older, and a fetch always asks", async () => {
    let clock = Date.now();
    const { store, ttls } = sharedStore();
    const replica = () =>
      new FlinkRestClient({ now: () => new Date(clock), shared: store });
    const [first, second] = [replica(), replica()];
    const one = await requestsOf(() =>
      first.fetch(cluster, namespace, 'shared'),
    );
    expect(one).toBeGreaterThan(0);
    const fetched = first.latest(cluster, namespace, 'shared')!;

    // The second replica has no answer of its own: its peek starts a refresh, which finds the
    // first one's (a fetch joins the refresh in flight).
    clock += 2_000;
    const taken = await requestsOf(async () => {
      expect(second.peek(cluster, namespace, 'shared')).toBeUndefined();
      expect(await second.fetch(cluster, namespace, 'shared')).toEqual(fetched);
    });
    expect(taken).toBe(0);

    // Past the max age (5 s since the first fetched) the shared answer is too old: the refresh asks.
    clock += 3_001;
    const asked = await requestsOf(() => refreshed(second, 'shared'));
    expect(asked).toBe(one);
    const newer = second.latest(cluster, namespace, 'shared')!;
    expect(Date.parse(newer.fetchedAt)).toBe(clock);

    // ... and shares its answer: the first replica's refresh takes it.
    const back = await requestsOf(() => refreshed(first, 'shared'));
    expect(back).toBe(0);
    expect(first.latest(cluster, namespace, 'shared')).toEqual(newer);

    // An explicit fetch (e.g. while waiting for READY) asks Flink whatever is shared.
    expect(
      await requestsOf(() => first.fetch(cluster, namespace, 'shared')),
    ).toBe(one);
    // Every answer asked of Flink was shared for the max age, no longer.
    expect(ttls).toEqual([5_000, 5_000, 5_000]);
  });

  it('passes over a store that fails: the refresh asks Flink and the answer is served', async () => {
    let clock = Date.now();
    const down = () => Promise.reject(new Error('cache unreachable'));
    const client = new FlinkRestClient({
      now: () => new Date(clock),
      shared: { get: down, set: down },
    });
    const one = await requestsOf(() =>
      client.fetch(cluster, namespace, 'unshared'),
    );
    expect(one).toBeGreaterThan(0);
    clock += 5_001;
    expect(await requestsOf(() => refreshed(client, 'unshared'))).toBe(one);
    expect(
      Date.parse(client.latest(cluster, namespace, 'unshared')!.fetchedAt),
    ).toBe(clock);
  });
});
