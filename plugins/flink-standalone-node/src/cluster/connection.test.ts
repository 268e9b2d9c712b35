import { ConfigReader } from '@backstage/config';
import { useControlPlane } from '@flink-standalone/testenv';
import { ClusterRegistry } from './ClusterRegistry';
import type { FlinkClusterCredential } from './extensions';

const plane = useControlPlane();

/** A registry with one cluster on the test plane, authenticated by a strategy's credential. */
function clusterWith(credential: () => FlinkClusterCredential) {
  return ClusterRegistry.create({
    config: new ConfigReader({}),
    clusters: [
      {
        name: 'plane',
        url: plane().server,
        authProvider: 'test',
        caData: plane().admin.ca,
      },
    ],
    authStrategies: new Map([
      ['test', { getCredential: async () => credential() }],
    ]),
  }).get('plane');
}

const readNamespace = (cluster: ReturnType<typeof clusterWith>) =>
  cluster.http.json<{ metadata: { name: string } }>({
    path: '/api/v1/namespaces/default',
  });

describe('a cluster authenticated by an auth strategy, against the real API server', () => {
  it('sends a client certificate', async () => {
    const { cert, key } = plane().admin;
    const cluster = clusterWith(() => ({
      type: 'x509 client certificate',
      cert,
      key,
    }));
    expect((await readNamespace(cluster)).metadata.name).toBe('default');
  });

  it('sends a bearer token, asked for on every request', async () => {
    let asked = 0;
    const cluster = clusterWith(() => {
      asked++;
      return { type: 'bearer token', token: plane().admin.token };
    });
    await readNamespace(cluster);
    await readNamespace(cluster);
    expect(asked).toBe(2);
  });

  it('sends nothing for anonymous, which the API server refuses', async () => {
    const cluster = clusterWith(() => ({ type: 'anonymous' }));
    const error = await readNamespace(cluster).catch(e => e);
    expect([401, 403]).toContain(error.statusCode);
  });
});
