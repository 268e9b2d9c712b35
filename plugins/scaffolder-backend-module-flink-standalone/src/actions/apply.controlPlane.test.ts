import { mockServices } from '@backstage/backend-test-utils';
import type { Config } from '@backstage/config';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import {
  FlinkSession,
  createTestNamespace,
  credentialLeaks,
  startFlinkSession,
  useControlPlane,
  waitFor,
} from '@flink-standalone/testenv';
import { FlinkStandaloneClusters } from '@flink-standalone/plugin-flink-standalone-node';
import {
  actionContext,
  allLogLines,
  capturingLogger,
  testClaimTemplates,
} from '../__testUtils__/actionContext';
import {
  TEST_CLUSTER,
  backendToken,
  clusterConfig,
} from '../__testUtils__/backendAccess';
import { createApplyAction } from './apply';
import { createRenderAction } from './render';

const plane = useControlPlane();
let token: string;
let namespace: string;

beforeAll(async () => {
  token = await backendToken(plane());
});

beforeEach(async () => {
  namespace = await createTestNamespace(plane().client, 'apply-action');
});

/** No credential in any log line: the tasks' logs and the cluster service's, every level. */
function expectNoCredentialInLogs() {
  expect(
    credentialLeaks(allLogLines.join('\n'), { token, ca: plane().admin.ca }),
  ).toEqual([]);
}

/** The check is not vacuous: the actions logged what they applied. */
function expectLogsCaptured() {
  expect(allLogLines.join('\n')).toMatch(/StatefulSet\/orders-taskmanager/);
}

afterEach(() => expectNoCredentialInLogs());
afterAll(() => expectLogsCaptured());

/** The clusters of config, as the backend's cluster service builds them; closed after the tests. */
const services: FlinkStandaloneClusters[] = [];
afterAll(() => Promise.all(services.map(s => s.close())));

async function clusterService(config: Config) {
  const service = FlinkStandaloneClusters.fromConfig(config, {
    restMaxAgeMs: 200,
    logger: capturingLogger(),
  });
  services.push(service);
  await service.start();
  return service;
}

function applyAction(clusters: FlinkStandaloneClusters) {
  return createApplyAction({
    claimTemplates: testClaimTemplates(),
    clusters,
    permissions: mockServices.permissions.mock({
      authorize: jest
        .fn()
        .mockResolvedValue([{ result: AuthorizeResult.ALLOW }]),
    }),
  });
}

const specFor = (ns: string) => ({
  name: 'orders',
  namespace: ns,
  flinkVersion: '2.2',
  taskManager: {
    replicas: 2,
    slots: 2,
    volumeClaimTemplates: [{ name: 'flink-data', storage: '1Gi' }],
  },
});

const input = (extra: Record<string, unknown> = {}) => ({
  spec: specFor(namespace),
  cluster: TEST_CLUSTER,
  entityRef: 'component:default/orders',
  timeoutSeconds: 120,
  ...extra,
});

const claimsIn = async (ns: string) =>
  (await plane().client.list(`/api/v1/namespaces/${ns}/persistentvolumeclaims`))
    .items;

const OBJECTS = [
  'ConfigMap/flink-config-orders',
  'Service/orders',
  'Service/orders-rest',
  'Service/orders-taskmanager',
  'Deployment/orders',
  'StatefulSet/orders-taskmanager',
];

describe('flink:standalone:apply against the real control plane, Flink REST from a real Flink', () => {
  let flink: FlinkSession;
  let clusters: FlinkStandaloneClusters;

  beforeAll(async () => {
    flink = await startFlinkSession({ version: '2.2', taskManagers: 2 });
    clusters = await clusterService(
      clusterConfig(plane(), token, {
        flinkRest: { mode: 'direct', baseUrl: flink.restUrl },
      }),
    );
  }, 180_000);

  afterAll(async () => {
    await flink?.stop();
  });

  it('creates the cluster, logs each object then the observer state until READY, and is idempotent', async () => {
    const action = applyAction(clusters);
    const first = actionContext(input());
    await action.handler(first.ctx as any);

    expect(first.outputs).toMatchObject({
      name: 'orders',
      namespace,
      dryRun: false,
      state: 'READY',
      flinkUiUrl: flink.restUrl,
      summary: expect.stringMatching(
        /^READY, JobManager pods ready 1\/1, TaskManager pods ready 2\/2, claims bound 2\/2/,
      ),
    });
    const objects = first.outputs.objects as {
      kind: string;
      name: string;
      action: string;
    }[];
    expect(objects.map(o => `${o.kind}/${o.name}`)).toEqual(OBJECTS);
    expect(objects.every(o => o.action === 'created')).toBe(true);
    // First the change plan: a new cluster, every object created.
    const planLines = first.log.filter(line => line.startsWith('Plan: '));
    expect(planLines).toEqual([
      ...OBJECTS.map(o => `Plan: ${o}: created`),
      'Plan: A new cluster: no job runs yet.',
    ]);
    expect(first.outputs).toMatchObject({
      plan: planLines.map(line => line.slice('Plan: '.length)),
      jobEffect: 'new-cluster',
    });
    const applyLines = first.log.slice(planLines.length);
    expect(applyLines.slice(0, 6)).toEqual(
      OBJECTS.map((o, i) => `${o} created (${i + 1}/6)`),
    );
    const waitLines = applyLines.slice(6);
    expect(waitLines.length).toBeGreaterThan(1);
    // The watch cache may see the objects before their controllers do (desired 0 at first).
    expect(waitLines).toEqual(
      waitLines.map(() =>
        expect.stringMatching(
          /^[A-Z_]+, JobManager pods ready \d\/\d, TaskManager pods ready \d\/\d, claims bound \d\/\d/,
        ),
      ),
    );
    expect(waitLines[0]).not.toMatch(/^READY/);

    const claims = await claimsIn(namespace);
    expect(claims.map(c => [c.metadata.name, c.status?.phase]).sort()).toEqual([
      ['flink-data-orders-taskmanager-0', 'Bound'],
      ['flink-data-orders-taskmanager-1', 'Bound'],
    ]);
    const sts = await plane().client.get(
      `/apis/apps/v1/namespaces/${namespace}/statefulsets/orders-taskmanager`,
    );
    expect(sts.status?.readyReplicas).toBe(2);

    const second = actionContext(input());
    await action.handler(second.ctx as any);
    expect(
      (second.outputs.objects as { action: string }[]).map(o => o.action),
    ).toEqual(Array(6).fill('unchanged'));
    expect(second.outputs.state).toBe('READY');
    expect(second.outputs).toMatchObject({
      plan: [
        'Nothing changes: every object is as the spec renders it.',
        'No pod restarts: running jobs are not affected.',
      ],
      jobEffect: 'none',
    });
    expect((await claimsIn(namespace)).length).toBe(2);

    // A dry run of a change says what it would do to this running cluster, and does nothing.
    const generation = sts.metadata.generation;
    const change = actionContext(
      input({
        spec: {
          ...specFor(namespace),
          taskManager: { ...specFor(namespace).taskManager, slots: 4 },
        },
      }),
      { isDryRun: true },
    );
    await action.handler(change.ctx as any);
    const plan = change.outputs.plan as string[];
    expect(plan).toContain(
      'StatefulSet orders-taskmanager: 2 pods replaced one at a time, highest ordinal first, each after the previous one is Ready, on the same claims: orders-taskmanager-1, orders-taskmanager-0',
    );
    // The real Flink session answers: no job runs, so none fails over or is lost.
    expect(change.outputs.jobEffect).toBe('none');
    expect(plan[plan.length - 1]).toBe(
      'No job runs now: nothing to fail over or lose.',
    );
    expect(
      (
        await plane().client.get(
          `/apis/apps/v1/namespaces/${namespace}/statefulsets/orders-taskmanager`,
        )
      ).metadata.generation,
    ).toBe(generation);
  });

  it('resolves a claim template and applies the manifests the render action wrote', async () => {
    const render = createRenderAction({ claimTemplates: testClaimTemplates() });
    const { ctx, workspace } = actionContext({
      spec: {
        ...specFor(namespace),
        taskManager: {
          replicas: 1,
          volumeClaimTemplates: [
            { name: 'flink-data', claimTemplate: 'standard-10g' },
          ],
        },
      },
    });
    await render.handler(ctx as any);
    const apply = actionContext({
      manifestsPath: 'manifests',
      cluster: TEST_CLUSTER,
      entityRef: 'orders',
      waitForReady: false,
    });
    apply.ctx.workspacePath = workspace.path;
    await applyAction(clusters).handler(apply.ctx as any);

    expect(apply.outputs.state).toBeUndefined();
    expect((apply.outputs.objects as object[]).length).toBe(6);
    const sts = await plane().client.get(
      `/apis/apps/v1/namespaces/${namespace}/statefulsets/orders-taskmanager`,
    );
    expect(
      sts.spec.volumeClaimTemplates[0].spec.resources.requests.storage,
    ).toBe('10Gi');
    expect(sts.spec.volumeClaimTemplates[0].metadata.annotations).toMatchObject(
      {
        'flink-standalone.backstage.io/claim-template': 'standard-10g',
      },
    );
  });
});

describe('flink:standalone:apply without a reachable Flink REST API', () => {
  let clusters: FlinkStandaloneClusters;

  beforeAll(async () => {
    clusters = await clusterService(clusterConfig(plane(), token));
  });

  it('in a dry-run template run validates on the API server and changes nothing', async () => {
    const { ctx, outputs, log } = actionContext(input(), { isDryRun: true });
    await applyAction(clusters).handler(ctx as any);

    expect(outputs).toMatchObject({ dryRun: true, name: 'orders', namespace });
    expect(outputs.state).toBeUndefined();
    expect(
      (outputs.objects as { action: string }[]).map(o => o.action),
    ).toEqual(Array(6).fill('created'));
    expect(log).toEqual([
      ...OBJECTS.map(o => `Plan: ${o}: created`),
      'Plan: A new cluster: no job runs yet.',
      ...OBJECTS.map((o, i) => `[dry run] ${o} created (${i + 1}/6)`),
    ]);
    expect(outputs.jobEffect).toBe('new-cluster');
    for (const plural of ['configmaps', 'services', 'persistentvolumeclaims']) {
      const { items } = await plane().client.list(
        `/api/v1/namespaces/${namespace}/${plural}`,
      );
      expect(items.filter(o => o.metadata.name !== 'kube-root-ca.crt')).toEqual(
        [],
      );
    }
    for (const plural of ['deployments', 'statefulsets']) {
      expect(
        (
          await plane().client.list(
            `/apis/apps/v1/namespaces/${namespace}/${plural}`,
          )
        ).items,
      ).toEqual([]);
    }
  });

  it('a dry run reports what the API server refuses, as an input error', async () => {
    const { ctx } = actionContext(
      input({
        spec: { ...specFor(namespace), namespace: 'no-such-namespace' },
      }),
      { isDryRun: true },
    );
    await expect(applyAction(clusters).handler(ctx as any)).rejects.toThrow(
      /no-such-namespace/,
    );
  });

  it('on simulated nodes, ends once the pods are Ready and the claims Bound, and says why', async () => {
    const { ctx, outputs, log } = actionContext(input());
    await applyAction(clusters).handler(ctx as any);

    expect(outputs.state).toBe('DEPLOYED_NOT_READY');
    expect(outputs.summary).toMatch(
      /TaskManager pods ready 2\/2, claims bound 2\/2: .*simulated/,
    );
    expect(log[log.length - 1]).toBe(outputs.summary);
  });

  it('stops waiting when the task is cancelled', async () => {
    const controller = new AbortController();
    // Claims of a class no provisioner serves stay Pending, so only the cancel ends this wait.
    const spec = {
      ...specFor(namespace),
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
    };
    const { ctx, log } = actionContext(input({ spec, timeoutSeconds: 600 }), {
      signal: controller.signal,
    });
    const run = applyAction(clusters).handler(ctx as any);
    // The objects are applied and the wait has begun (its first progress line).
    await waitFor('the first progress line', () =>
      log.some(l => /^DEPLOY/.test(l)),
    );
    controller.abort();
    const logged = log.length;
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    // It ended on the cancel, not on its own: no claim is Bound (the cluster could not be up),
    // and at most the poll in flight at the cancel reported after it.
    const claims = await claimsIn(namespace);
    expect(claims.filter(c => c.status?.phase === 'Bound')).toEqual([]);
    expect(
      log.slice(logged).filter(l => /^DEPLOY/.test(l)).length,
    ).toBeLessThanOrEqual(1);
  });

  it('fails at its timeout with the last summary when the cluster does not come up', async () => {
    // Claims of a class no provisioner serves stay Pending: the TaskManagers never start.
    const spec = {
      ...specFor(namespace),
      taskManager: {
        replicas: 1,
        volumeClaimTemplates: [
          { name: 'flink-data', storage: '1Gi', storageClassName: 'none' },
        ],
      },
    };
    const { ctx, outputs, log } = actionContext(
      input({ spec, timeoutSeconds: 2 }),
    );
    const error = await applyAction(clusters)
      .handler(ctx as any)
      .catch(e => e);
    expect(error.name).toBe('ClusterNotReadyError');
    expect(error.message).toMatch(
      new RegExp(
        `^Flink cluster ${namespace}/orders (was not READY|is \\w+ but not [\\w, ]+) within 2 s: .*claims bound 0/1`,
      ),
    );
    // The objects were applied and reported before the wait; no final state is claimed.
    expect(outputs.objects).toHaveLength(6);
    expect(outputs.state).toBeUndefined();
    expect(log.some(l => /claims bound 0\/1/.test(l))).toBe(true);
  });

  it("fails at once with the observer's reason when the cluster is in ERROR", async () => {
    // A quota of no pods: the controllers report FailedCreate, which the observer calls ERROR.
    await plane().client.create(
      `/api/v1/namespaces/${namespace}/resourcequotas`,
      {
        apiVersion: 'v1',
        kind: 'ResourceQuota',
        metadata: { name: 'no-pods' },
        spec: { hard: { pods: '0' } },
      },
    );
    const { ctx, outputs } = actionContext(input({ timeoutSeconds: 30 }));
    const error = await applyAction(clusters)
      .handler(ctx as any)
      .catch(e => e);
    expect(error.name).toBe('ClusterNotReadyError');
    expect(error.message).toMatch(
      new RegExp(
        `^Flink cluster ${namespace}/orders failed: FailedCreate: .*quota`,
      ),
    );
    expect(error.status.jobManagerDeploymentStatus).toBe('ERROR');
    expect(outputs.state).toBeUndefined();
  });
});
