import {
  TestBackend,
  mockCredentials,
  mockServices,
  startTestBackend,
} from '@backstage/backend-test-utils';
import { createBackendModule } from '@backstage/backend-plugin-api';
import type { Entity } from '@backstage/catalog-model';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import scaffolderPlugin from '@backstage/plugin-scaffolder-backend';
// A test of both plugins in one backend, as an app wires them.
// eslint-disable-next-line @backstage/no-mixed-plugin-imports
import flinkStandalonePlugin from '@flink-standalone/plugin-flink-standalone-backend';
import {
  ANNOTATION_FLINK_CLUSTER,
  ANNOTATION_FLINK_NAMESPACE,
  ANNOTATION_KUBERNETES_CLUSTER,
} from '@flink-standalone/plugin-flink-standalone-common';
import {
  FlinkClusterDetails,
  flinkStandaloneAuthStrategyExtensionPoint,
  flinkStandaloneClusterSupplierExtensionPoint,
} from '@flink-standalone/plugin-flink-standalone-node';
import {
  CountingApiProxy,
  createTestNamespace,
  startCountingApiProxy,
  stopTestBackend,
  useControlPlane,
  waitFor,
  testDatabaseServiceFactory,
} from '@flink-standalone/testenv';
import request from 'supertest';
import { backendToken } from './__testUtils__/backendAccess';
import scaffolderModuleFlinkStandalone from '.';

const plane = useControlPlane();
const USER = mockCredentials.user.header('user:default/operator');

let proxy: CountingApiProxy;
let token: string;
let namespace: string;
let backend: TestBackend | undefined;
/** The clusters the adopter module's strategy was asked to authenticate, one per request. */
const credentialRequests: string[] = [];

beforeAll(async () => {
  token = await backendToken(plane());
  proxy = await startCountingApiProxy(plane());
  namespace = await createTestNamespace(plane().client, 'shared');
});

afterAll(() => proxy?.close());

afterEach(async () => {
  if (backend) await stopTestBackend(backend);
  backend = undefined;
});

/**
 * An adopter's module: a cluster of its own discovery (added to the config clusters, through the
 * recording proxy in front of the test plane) with credentials from its own strategy. The app
 * config holds no credential for it.
 */
const adopterClusterAccess = createBackendModule({
  pluginId: 'flink-standalone',
  moduleId: 'adopter-cluster-access',
  register(reg) {
    reg.registerInit({
      deps: {
        authStrategies: flinkStandaloneAuthStrategyExtensionPoint,
        suppliers: flinkStandaloneClusterSupplierExtensionPoint,
      },
      async init({ authStrategies, suppliers }) {
        authStrategies.addAuthStrategy('vault-token', {
          async getCredential(cluster) {
            credentialRequests.push(cluster.name);
            return { type: 'bearer token', token };
          },
        });
        suppliers.addClusterSupplier(({ getDefault }) => ({
          async getClusters(): Promise<FlinkClusterDetails[]> {
            return [
              ...(await getDefault().getClusters()),
              {
                name: 'discovered',
                url: proxy.url,
                authProvider: 'vault-token',
              },
            ];
          },
        }));
      },
    });
  },
});

const spec = () => ({
  name: 'orders',
  namespace,
  flinkVersion: '2.2',
  taskManager: {
    replicas: 2,
    volumeClaimTemplates: [{ name: 'flink-data', storage: '1Gi' }],
  },
});

const entities = (): Entity[] => [
  {
    apiVersion: 'scaffolder.backstage.io/v1beta3',
    kind: 'Template',
    metadata: { name: 'apply-orders', namespace: 'default' },
    spec: {
      type: 'service',
      parameters: [],
      steps: [
        {
          id: 'apply',
          name: 'Apply',
          action: 'flink:standalone:apply',
          input: {
            spec: spec(),
            cluster: 'discovered',
            entityRef: 'component:default/orders',
            timeoutSeconds: 120,
          },
        },
      ],
    },
  },
  {
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'Component',
    metadata: {
      name: 'orders',
      namespace: 'default',
      annotations: {
        [ANNOTATION_FLINK_CLUSTER]: 'orders',
        [ANNOTATION_FLINK_NAMESPACE]: namespace,
        [ANNOTATION_KUBERNETES_CLUSTER]: 'discovered',
      },
    },
    spec: { type: 'service', lifecycle: 'experimental', owner: 'team-a' },
  },
];

/** Requests for the pods of the test namespace, as the API server received them. */
const podRequests = (watch: boolean) =>
  proxy.requests.filter(
    r =>
      r.method === 'GET' &&
      r.url.startsWith(`/api/v1/namespaces/${namespace}/pods?`) &&
      r.url.includes('watch=true') === watch,
  );

describe('one cluster service per backend', () => {
  it('the backend plugin and the scaffolder module use the same clusters and watch cache, from an adopter module', async () => {
    backend = await startTestBackend({
      features: [
        flinkStandalonePlugin,
        adopterClusterAccess,
        scaffolderPlugin,
        scaffolderModuleFlinkStandalone,
        testDatabaseServiceFactory(),
        // Its own scheduler: the default mock is shared by the file's backends (see testenv).
        mockServices.scheduler.factory(),
        catalogServiceMock.factory({ entities: entities() }),
        mockServices.rootConfig.factory({
          data: {
            backend: { baseUrl: 'http://localhost:7007' },
            flinkStandalone: {
              // Options for the discovered cluster; the watch cache watches this namespace only.
              clusters: [
                { name: 'discovered', allowedNamespaces: [namespace] },
              ],
            },
          },
        }),
      ],
    });
    const { server } = backend;

    // The backend plugin lists the supplier's cluster.
    const listed = await request(server)
      .get('/api/flink-standalone/clusters')
      .set('Authorization', USER);
    expect(listed.body).toEqual({ clusters: [{ name: 'discovered' }] });

    // The scaffolder module applies and waits through the shared observer.
    const created = await request(server)
      .post('/api/scaffolder/v2/tasks')
      .set('Authorization', USER)
      .send({ templateRef: 'template:default/apply-orders', values: {} });
    expect(created.status).toBe(201);
    const task = await waitFor(
      'the template task to finish',
      async () => {
        const { body } = await request(server)
          .get(`/api/scaffolder/v2/tasks/${created.body.id}`)
          .set('Authorization', USER);
        return ['completed', 'failed'].includes(body.status) ? body : undefined;
      },
      { timeoutMs: 150_000, intervalMs: 500 },
    );
    expect(task.status).toBe('completed');
    expect(podRequests(false)).toHaveLength(1);
    expect(podRequests(true)).toHaveLength(1);

    // The backend plugin's status comes from the cache the scaffolder's wait started.
    const status = await request(server)
      .get('/api/flink-standalone/entities/default/component/orders/status')
      .set('Authorization', USER);
    expect(status.status).toBe(200);
    expect(status.body.status.taskManager.replicas).toMatchObject({
      desired: 2,
      ready: 2,
    });
    expect(podRequests(false)).toHaveLength(1);
    expect(podRequests(true)).toHaveLength(1);

    // Every request to the discovered cluster carried the strategy's credential.
    expect(credentialRequests.length).toBeGreaterThanOrEqual(
      proxy.requests.length,
    );
    expect(new Set(credentialRequests)).toEqual(new Set(['discovered']));
  });
});
