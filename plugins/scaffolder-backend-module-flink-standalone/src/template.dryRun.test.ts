import {
  TestBackend,
  mockServices,
  startTestBackend,
} from '@backstage/backend-test-utils';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import { fromYaml } from '@flink-standalone/plugin-flink-standalone-common';
import {
  createTestNamespace,
  stopTestBackend,
  useControlPlane,
  testDatabaseServiceFactory,
} from '@flink-standalone/testenv';
import scaffolderPlugin from '@backstage/plugin-scaffolder-backend';
import scaffolderModuleGithub from '@backstage/plugin-scaffolder-backend-module-github';
import request from 'supertest';
import { backendToken, clusterConfig } from './__testUtils__/backendAccess';
import {
  dryRunFiles,
  dryRunLog,
  sampleValues,
  templateDryRunBody,
} from './__testUtils__/templateDryRun';
import scaffolderModuleFlinkStandalone from '.';

const plane = useControlPlane();

/** The backends the current test started. */
const started: TestBackend[] = [];
afterEach(() => Promise.all(started.splice(0).map(stopTestBackend)));

const CLAIM_TEMPLATES = [
  {
    name: 'standard-10g',
    storage: '10Gi',
    storageClassName: 'standard',
    allowedFor: ['jobManager', 'taskManager'],
  },
  {
    name: 'fast-ssd-50g',
    storage: '50Gi',
    storageClassName: 'standard',
    allowedFor: ['taskManager'],
  },
];

/** The template's dry run, as the template editor asks for it. */
const dryRun = (
  server: Parameters<typeof request>[0],
  values: Record<string, unknown>,
) =>
  request(server)
    .post('/api/scaffolder/v2/dry-run')
    .send(templateDryRunBody(values));

async function startScaffolder() {
  const token = await backendToken(plane());
  const config = clusterConfig(plane(), token).get() as Record<string, any>;
  config.flinkStandalone.claimTemplates = CLAIM_TEMPLATES;
  const backend = await startTestBackend({
    features: [
      scaffolderPlugin,
      scaffolderModuleFlinkStandalone,
      // publish:github, for the repository options (it has no dry run: the runner skips it).
      scaffolderModuleGithub,
      testDatabaseServiceFactory(),
      // Its own scheduler: the default mock is shared by the file's backends (see testenv).
      mockServices.scheduler.factory(),
      catalogServiceMock.factory(),
      mockServices.rootConfig.factory({
        data: { backend: { baseUrl: 'http://localhost:7007' }, ...config },
      }),
    ],
  });
  started.push(backend);
  return backend;
}

describe('the module in the real scaffolder backend', () => {
  it('lists the three actions with their examples and input schemas', async () => {
    const { server } = await startScaffolder();
    const response = await request(server).get('/api/scaffolder/v2/actions');

    expect(response.status).toBe(200);
    const ours = response.body.filter((a: { id: string }) =>
      a.id.startsWith('flink:standalone:'),
    );
    expect(ours.map((a: { id: string }) => a.id).sort()).toEqual([
      'flink:standalone:apply',
      'flink:standalone:render',
      'flink:standalone:validate',
    ]);
    for (const action of ours) {
      expect(action.examples.length).toBeGreaterThan(0);
      expect(action.schema.input.properties.spec).toBeDefined();
    }
    const apply = ours.find(
      (a: { id: string }) => a.id === 'flink:standalone:apply',
    );
    expect(apply.schema.input.required).toEqual(['cluster', 'entityRef']);
  });
});

describe('the shipped software template, through the scaffolder dry-run endpoint', () => {
  it('runs every step with the sample values and renders the expected files', async () => {
    const namespace = await createTestNamespace(plane().client, 'template');
    const { server } = await startScaffolder();
    const response = await dryRun(server, sampleValues({ namespace }));

    expect(response.status).toBe(200);
    const files = dryRunFiles(response.body);
    expect(Object.keys(files).sort()).toEqual([
      'catalog-info.yaml',
      'flink-cluster.yaml',
      'manifests/1-configmap-flink-config-orders-analytics-dev.yaml',
      'manifests/2-service-orders-analytics-dev.yaml',
      'manifests/3-service-orders-analytics-dev-rest.yaml',
      'manifests/4-service-orders-analytics-dev-taskmanager.yaml',
      'manifests/5-deployment-orders-analytics-dev.yaml',
      'manifests/6-statefulset-orders-analytics-dev-taskmanager.yaml',
    ]);
    const [entity] = fromYaml(files['catalog-info.yaml']) as any[];
    expect(entity.metadata.annotations).toEqual({
      'flink-standalone.backstage.io/kubernetes-cluster': 'local',
      'flink-standalone.backstage.io/namespace': namespace,
      'flink-standalone.backstage.io/cluster': 'orders-analytics-dev',
      'backstage.io/kubernetes-id': 'orders-analytics-dev',
    });
    expect(entity.spec).toEqual({
      type: 'service',
      lifecycle: 'experimental',
      owner: 'group:default/streaming-team',
      system: 'system:default/streaming-platform',
    });
    const [sts] = fromYaml(
      files['manifests/6-statefulset-orders-analytics-dev-taskmanager.yaml'],
    ) as any[];
    expect(sts.spec.replicas).toBe(2);
    expect(
      sts.spec.volumeClaimTemplates[0].spec.resources.requests.storage,
    ).toBe('10Gi');

    const [spec] = fromYaml(files['flink-cluster.yaml']) as any[];
    expect(spec.taskManager.volumeClaimTemplates).toEqual([
      expect.objectContaining({
        name: 'flink-data',
        storage: '10Gi',
        storageClassName: 'standard',
      }),
    ]);

    const log = dryRunLog(response.body);
    expect(log).toMatch(
      /\[dry run\] StatefulSet\/orders-analytics-dev-taskmanager created \(6\/6\)/,
    );
    // The change plan, before anything is applied: here, a new cluster.
    expect(log).toMatch(
      /Plan: StatefulSet\/orders-analytics-dev-taskmanager: created[\s\S]*Plan: A new cluster: no job runs yet\.[\s\S]*\[dry run\] ConfigMap/,
    );
    expect(response.body.steps.map((s: any) => s.id)).toEqual([
      'fetch',
      'render',
      'apply',
      'publish',
      'register',
    ]);
    // Only stock actions follow ours: the files go to a repository, then the catalog reads them.
    expect(log).toMatch(
      /Skipping because publish:github does not support dry-run/,
    );
    expect(log).toMatch(
      /Skipping because catalog:register does not support dry-run/,
    );
    // The dry run changed nothing in the cluster.
    const { items } = await plane().client.list(
      `/apis/apps/v1/namespaces/${namespace}/statefulsets`,
    );
    expect(items).toEqual([]);
  });

  it('renders application mode, a custom volume and HA; GitOps delivery skips the apply', async () => {
    const { server } = await startScaffolder();
    const values = sampleValues({
      namespace: 'not-created-because-gitops',
      mode: 'application',
      jarURI: 'local:///opt/flink/usrlib/orders.jar',
      entryClass: 'com.example.OrdersJob',
      parallelism: 4,
      volume: 'custom',
      volumeSize: '20Gi',
      storageClassName: 'standard',
      highAvailability: true,
      haStorageDir: 's3://flink-ha/orders-analytics-dev',
      claimRetentionWhenScaled: 'Retain',
      delivery: 'gitops',
      repoUrl: 'github.com?owner=example&repo=orders-analytics-dev',
    });
    const response = await dryRun(server, values);

    expect(response.status).toBe(200);
    const files = dryRunFiles(response.body);
    const [spec] = fromYaml(files['flink-cluster.yaml']) as any[];
    expect(spec).toMatchObject({
      mode: 'application',
      job: {
        jarURI: 'local:///opt/flink/usrlib/orders.jar',
        entryClass: 'com.example.OrdersJob',
        parallelism: 4,
      },
      taskManager: {
        volumeClaimTemplates: [
          { name: 'flink-data', storage: '20Gi', storageClassName: 'standard' },
        ],
        pvcRetention: { whenDeleted: 'Delete', whenScaled: 'Retain' },
      },
      highAvailability: { storageDir: 's3://flink-ha/orders-analytics-dev' },
    });
    expect(Object.keys(files)).toEqual(
      expect.arrayContaining([
        'manifests/1-serviceaccount-orders-analytics-dev.yaml',
        'manifests/2-role-orders-analytics-dev.yaml',
        'manifests/3-rolebinding-orders-analytics-dev.yaml',
      ]),
    );
    const log = dryRunLog(response.body);
    expect(log).not.toMatch(/\[dry run\]/);
    expect(log).toMatch(/Skipping step apply/i);
    // The repository steps still run (they have no dry run).
    expect(log).toMatch(
      /Skipping because publish:github does not support dry-run/,
    );
    expect(log).toMatch(
      /Skipping because catalog:register does not support dry-run/,
    );
  });

  it('asks for a repository: the stock catalog registers components from a URL', async () => {
    const { server } = await startScaffolder();
    const { repoUrl, ...values } = sampleValues();
    expect(repoUrl).toBeDefined();
    const response = await dryRun(server, values);

    expect(response.status).toBe(400);
    expect(JSON.stringify(response.body)).toMatch(/repoUrl/);
  });

  it('offers no delivery that needs an action a stock Backstage lacks', async () => {
    const { server } = await startScaffolder();
    const response = await dryRun(server, sampleValues({ delivery: 'direct' }));

    expect(response.status).toBe(400);
    expect(JSON.stringify(response.body)).toMatch(/delivery/);
  });
});
