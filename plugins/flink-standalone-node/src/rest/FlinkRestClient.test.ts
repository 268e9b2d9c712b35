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
});
