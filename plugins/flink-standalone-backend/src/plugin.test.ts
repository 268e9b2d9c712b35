import {
  coreServices,
  createServiceFactory,
} from '@backstage/backend-plugin-api';
import { CacheManager } from '@backstage/backend-defaults/cache';
import { ConfigReader } from '@backstage/config';
import type { Entity } from '@backstage/catalog-model';
import {
  FlinkClusterStatus,
  parseClusterSpec,
  renderCluster,
} from '@flink-standalone/plugin-flink-standalone-common';
import {
  ClusterRegistry,
  FlinkObserver,
  applyCluster,
} from '@flink-standalone/plugin-flink-standalone-node';
import {
  InstalledServiceAccount,
  createTestNamespace,
  useControlPlane,
  waitFor,
} from '@flink-standalone/testenv';
import type { KubernetesObject } from '@kubernetes/client-node';
import request from 'supertest';
import {
  BASE,
  FlinkTestBackend,
  HIDDEN,
  NON_OWNER,
  OWNER,
  PLATFORM,
  READER,
  TEST_CLUSTER,
  as,
  backendServiceAccount,
  component,
  expectNoCredentials,
  flinkAnnotations,
  onPluginRequest,
  startFlinkBackend,
} from './__testUtils__/flinkTestBackend';

const plane = useControlPlane();

/** The backend's ServiceAccount, bound only to examples/rbac/flink-standalone-backend.yaml. */
let account: InstalledServiceAccount;
/** The namespace of this file's Flink clusters (the only allowed one). */
let namespace: string;
let backend: FlinkTestBackend | undefined;

beforeAll(async () => {
  namespace = await createTestNamespace(plane().client, 'streaming');
  account = await backendServiceAccount(
    plane(),
    'flink-standalone-backend.yaml',
  );
});

/** Config as an app has it: the Kubernetes plugin's cluster entry plus our options. */
function clusterConfig(url: string) {
  return {
    kubernetes: {
      clusterLocatorMethods: [
        {
          type: 'config',
          clusters: [
            {
              name: TEST_CLUSTER,
              url,
              authProvider: 'serviceAccount',
              serviceAccountToken: account.token,
              caData: plane().admin.ca,
            },
          ],
        },
      ],
    },
    flinkStandalone: {
      clusters: [{ name: TEST_CLUSTER, allowedNamespaces: [namespace] }],
    },
  };
}

function entities(): Entity[] {
  return [
    component(
      'orders-analytics',
      flinkAnnotations(namespace, 'orders-session'),
    ),
    component('sandbox', flinkAnnotations(namespace, 'sandbox')),
    component('website', undefined),
    component('bad', flinkAnnotations('Bad_NS', 'bad')),
    component('outside', flinkAnnotations('payments', 'outside')),
  ];
}

async function start(): Promise<FlinkTestBackend> {
  backend = await startFlinkBackend({
    plane: plane(),
    entities: entities(),
    config: clusterConfig,
  });
  return backend;
}

afterEach(async () => {
  if (!backend) return;
  const { logs } = backend;
  await backend.stop();
  backend = undefined;
  // No credential in any log line of any test (the capture is not empty: see the last test).
  expectNoCredentials(logs.join('\n'), {
    token: account.token,
    ca: plane().admin.ca,
  });
});

/** `clusterConfig` with these `flinkStandalone` options added. */
function clusterConfigWith(options: Record<string, unknown>) {
  return (url: string) => {
    const config = clusterConfig(url);
    return {
      ...config,
      flinkStandalone: { ...config.flinkStandalone, ...options },
    };
  };
}

/** `start`, with status reads reusing decisions, entities and answers for `seconds`. */
async function startWithReadCacheTtl(seconds: number) {
  backend = await startFlinkBackend({
    plane: plane(),
    entities: entities(),
    config: clusterConfigWith({ statusReadCache: { ttlSeconds: seconds } }),
  });
  return backend;
}

const entityPath = (name: string) =>
  `${BASE}/entities/default/component/${name}`;

/** The three entity routes, as one user. */
function entityRoutes(
  server: FlinkTestBackend['server'],
  name: string,
  user: string,
) {
  return {
    status: request(server)
      .get(`${entityPath(name)}/status`)
      .set('Authorization', as(user)),
    scale: request(server)
      .post(`${entityPath(name)}/scale`)
      .set('Authorization', as(user))
      .send({ taskManagers: 1 }),
    delete: request(server)
      .delete(entityPath(name))
      .set('Authorization', as(user)),
    unblock: request(server)
      .post(`${entityPath(name)}/unblock-rollout`)
      .set('Authorization', as(user))
      .send({ pod: `${name}-taskmanager-0` }),
    forceDelete: request(server)
      .post(`${entityPath(name)}/force-delete-pod`)
      .set('Authorization', as(user))
      .send({ pod: `${name}-taskmanager-0` }),
  };
}

async function answers(routes: Record<string, request.Test>) {
  const result: Record<string, { status: number; error?: string }> = {};
  for (const [route, req] of Object.entries(routes)) {
    const response = await req;
    result[route] = {
      status: response.status,
      error: response.body?.error?.name,
    };
  }
  return result;
}

/** No credential or address of the cluster in what the backend sends. */
function expectNoSecrets(body: unknown, proxyUrl: string) {
  const text = JSON.stringify(body);
  expectNoCredentials(text, { token: account.token, ca: plane().admin.ca });
  expect(text).not.toContain(plane().server);
  expect(text).not.toContain(proxyUrl);
}

describe('flink-standalone routes, denied before any Kubernetes call', () => {
  it('answers 401 without credentials, on every route', async () => {
    const { server, proxy } = await start();
    for (const req of [
      request(server).get(`${entityPath('orders-analytics')}/status`),
      request(server)
        .post(`${entityPath('orders-analytics')}/scale`)
        .send({ taskManagers: 1 }),
      request(server).delete(entityPath('orders-analytics')),
      request(server)
        .post(`${entityPath('orders-analytics')}/unblock-rollout`)
        .send({ pod: 'orders-session-taskmanager-0' }),
      request(server)
        .post(`${entityPath('orders-analytics')}/force-delete-pod`)
        .send({ pod: 'orders-session-taskmanager-0' }),
      request(server)
        .post(`${entityPath('orders-analytics')}/plan`)
        .send({ spec: {} }),
      request(server).get(`${BASE}/clusters`),
      request(server).post(`${BASE}/render`).send({ spec: {} }),
    ]) {
      expect((await req).status).toBe(401);
    }
    expect(proxy.requests).toEqual([]);
  });

  it('answers 404 on every entity route when the caller may not read the entity from the catalog', async () => {
    const { server, proxy } = await start();
    const notFound = { status: 404, error: 'NotFoundError' };
    // The entity exists (its owner sees it), but the catalog hides it from HIDDEN.
    const allNotFound = {
      status: notFound,
      scale: notFound,
      delete: notFound,
      unblock: notFound,
      forceDelete: notFound,
    };
    expect(
      await answers(entityRoutes(server, 'orders-analytics', HIDDEN)),
    ).toEqual(allNotFound);
    expect(
      await answers(entityRoutes(server, 'no-such-component', OWNER)),
    ).toEqual(allNotFound);
    expect(proxy.requests).toEqual([]);
  });

  it("answers 403 on every entity route to a non-owner (the catalog's isEntityOwner condition), and on scale and delete to a reader", async () => {
    const { server, proxy } = await start();
    const forbidden = { status: 403, error: 'NotAllowedError' };
    expect(
      await answers(entityRoutes(server, 'orders-analytics', NON_OWNER)),
    ).toEqual({
      status: forbidden,
      scale: forbidden,
      delete: forbidden,
      unblock: forbidden,
      forceDelete: forbidden,
    });
    expect(
      await answers(entityRoutes(server, 'orders-analytics', READER)),
    ).toEqual({
      status: { status: 200 },
      scale: forbidden,
      delete: forbidden,
      unblock: forbidden,
      forceDelete: forbidden,
    });
    // Only the reader's status read reached Kubernetes (the watch cache's first lists).
    expect(proxy.requests.length).toBeGreaterThan(0);
    expect(
      proxy.requests.filter(r => r.method !== 'GET').map(r => r.url),
    ).toEqual([]);
  });

  it('makes no Kubernetes request for a denied caller, before the first status is asked', async () => {
    const { server, proxy } = await start();
    await answers(entityRoutes(server, 'orders-analytics', NON_OWNER));
    await answers(entityRoutes(server, 'orders-analytics', HIDDEN));
    expect(proxy.requests).toEqual([]);
    // The observer starts its watch cache on the first allowed status request, not before.
    const first = await request(server)
      .get(`${entityPath('sandbox')}/status`)
      .set('Authorization', as(OWNER));
    expect(first.status).toBe(200);
    expect(proxy.requests.length).toBeGreaterThan(0);
  });

  it('serves repeated status reads from reused decisions, entities and answers: a second read asks nobody, whether the decisions are definitive or conditional', async () => {
    const { server, served } = await start();
    const read = async (user: string) =>
      (
        await request(server)
          .get(`${entityPath('orders-analytics')}/status`)
          .set('Authorization', as(user))
      ).status;
    /** The catalog and permission requests a second read of `user` makes, after a first. */
    const secondRead = async (user: string, expected: number) => {
      expect(await read(user)).toBe(expected);
      const from = served.length;
      expect(await read(user)).toBe(expected);
      return served
        .slice(from)
        .filter(plugin => plugin === 'catalog' || plugin === 'permission');
    };
    // A reader's decisions are definitive (ALLOW): reused, as is the entity.
    await expect(secondRead(READER, 200)).resolves.toEqual([]);
    // HIDDEN's catalog read decision is DENY: 404 again, asking nobody.
    await expect(secondRead(HIDDEN, 404)).resolves.toEqual([]);
    // The owner's and a non-owner's status read decisions are CONDITIONAL (isEntityOwner): their
    // answers for this entity are reused.
    await expect(secondRead(OWNER, 200)).resolves.toEqual([]);
    await expect(secondRead(NON_OWNER, 403)).resolves.toEqual([]);
  });

  it("keeps a conditional caller's answer fresh through the real catalog and permission backends, with the caller's credentials, while reads go on without waiting", async () => {
    const { server } = await startWithReadCacheTtl(1);
    const APPLY_CONDITIONS =
      '/.well-known/backstage/permissions/apply-conditions';
    /** The catalog and permission requests the backend answered: plugin, path and status. */
    const answered: string[] = [];
    onPluginRequest(server, (plugin, response) => {
      if (plugin !== 'catalog' && plugin !== 'permission') return;
      response.on('finish', () =>
        answered.push(
          `${plugin} ${response.req.url!.split('?')[0]} ${response.statusCode}`,
        ),
      );
    });
    const read = async (user: string) =>
      (
        await request(server)
          .get(`${entityPath('orders-analytics')}/status`)
          .set('Authorization', as(user))
      ).status;
    const reads = async () => ({
      owner: await read(OWNER),
      other: await read(NON_OWNER),
    });
    expect(await reads()).toEqual({ owner: 200, other: 403 });
    const loaded = answered.length;
    // The time-to-live itself is the condition here.
    await new Promise(resolve => setTimeout(resolve, 1_100));
    // Served from what is held, while both answers are refreshed in the background.
    expect(await reads()).toEqual({ owner: 200, other: 403 });
    await waitFor(
      "both callers' answers refreshed",
      async () =>
        answered
          .slice(loaded)
          .filter(a => a === `catalog ${APPLY_CONDITIONS} 200`).length >= 2 ||
        undefined,
      { timeoutMs: 10_000 },
    );
    // Through the batched routes only (paths within each plugin): the entities as each caller
    // sees them, then the permission backend applying isEntityOwner to them through the catalog.
    expect(new Set(answered.slice(loaded))).toEqual(
      new Set([
        'catalog /entities/by-refs 200',
        'permission /authorize 200',
        `catalog ${APPLY_CONDITIONS} 200`,
      ]),
    );
    // The refreshed answers are what the next reads serve: decided with the plugin's own
    // credentials (which the permission framework allows), the non-owner's would be a 200.
    expect(await reads()).toEqual({ owner: 200, other: 403 });
  });

  it("keeps a polled entity fresh through the real catalog's by-refs route, with the plugin's own credentials, while reads go on without waiting", async () => {
    const { server } = await startWithReadCacheTtl(1);
    /** The catalog requests the backend answered: path and status. */
    const catalogAnswers: { path: string; status: number }[] = [];
    onPluginRequest(server, (plugin, response) => {
      if (plugin !== 'catalog') return;
      response.on('finish', () =>
        catalogAnswers.push({
          path: response.req.url!.split('?')[0],
          status: response.statusCode,
        }),
      );
    });
    const read = async () =>
      (
        await request(server)
          .get(`${entityPath('orders-analytics')}/status`)
          .set('Authorization', as(READER))
      ).status;
    expect(await read()).toBe(200);
    const loaded = catalogAnswers.length;
    // The time-to-live itself is the condition here.
    await new Promise(resolve => setTimeout(resolve, 1_100));
    expect(await read()).toBe(200);
    const refreshed = await waitFor(
      'the entity refreshed by the catalog',
      async () =>
        catalogAnswers.find(a => a.path.endsWith('/entities/by-refs')),
      { timeoutMs: 10_000 },
    );
    expect(refreshed.status).toBe(200);
    // The refresh's answer is what the next read serves: a denied or empty one would be a 404.
    expect(await read()).toBe(200);
    // Nothing after the first load was a single entity read that the reads waited for.
    expect(
      catalogAnswers
        .slice(loaded)
        .map(a => a.path.replace(/\/by-name\/.*/, '/by-name')),
    ).not.toContain('/api/catalog/entities/by-name');
  });

  it('answers 400 on bad input, naming the field and rule', async () => {
    const { server, proxy } = await start();
    const scale = await request(server)
      .post(`${entityPath('orders-analytics')}/scale`)
      .set('Authorization', as(OWNER))
      .send({ taskManagers: -2 });
    expect(scale.status).toBe(400);
    expect(scale.body.error.message).toMatch(/body\.taskManagers/);
    const extra = await request(server)
      .post(`${entityPath('orders-analytics')}/scale`)
      .set('Authorization', as(OWNER))
      .send({ taskManagers: 1, force: true });
    expect(extra.status).toBe(400);
    const badQuery = await request(server)
      .delete(`${entityPath('orders-analytics')}?deleteClaims=maybe`)
      .set('Authorization', as(OWNER));
    expect(badQuery.status).toBe(400);
    expect(badQuery.body.error.message).toMatch(
      /query\.deleteClaims: must be true or false/,
    );
    const badHaQuery = await request(server)
      .delete(
        `${entityPath('orders-analytics')}?deleteHighAvailabilityData=yes`,
      )
      .set('Authorization', as(OWNER));
    expect(badHaQuery.status).toBe(400);
    expect(badHaQuery.body.error.message).toMatch(
      /query\.deleteHighAvailabilityData: must be true or false/,
    );
    const badKind = await request(server)
      .get(`${BASE}/entities/default/com_ponent/orders-analytics/status`)
      .set('Authorization', as(OWNER));
    expect(badKind.status).toBe(400);
    expect(badKind.body.error.message).toMatch(/params\.kind/);
    expect(proxy.requests).toEqual([]);
  });

  it('answers 400 naming the annotation when the entity has none or a malformed one', async () => {
    const { server, proxy } = await start();
    const none = await request(server)
      .get(`${entityPath('website')}/status`)
      .set('Authorization', as(OWNER));
    expect(none.status).toBe(400);
    expect(none.body.error.message).toMatch(
      /flink-standalone.backstage.io\/cluster is missing/,
    );
    const bad = await request(server)
      .get(`${entityPath('bad')}/status`)
      .set('Authorization', as(OWNER));
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(
      /namespace "Bad_NS" is not a namespace/,
    );
    expect(proxy.requests).toEqual([]);
  });

  it('answers 403 for a namespace outside the allowed list, on every entity route', async () => {
    const { server, proxy } = await start();
    const routes = {
      ...entityRoutes(server, 'outside', OWNER),
      // The platform team's own route, asked by the platform team.
      forceDelete: entityRoutes(server, 'outside', PLATFORM).forceDelete,
    };
    for (const [route, req] of Object.entries(routes)) {
      const response = await req;
      expect({ route, status: response.status }).toEqual({
        route,
        status: 403,
      });
      expect(response.body.error.message).toMatch(
        /Namespace "payments" is not allowed/,
      );
    }
    expect(proxy.requests).toEqual([]);
  });

  it('renders a spec, or lists every problem, without Kubernetes', async () => {
    const { server, proxy } = await start();
    const good = await request(server)
      .post(`${BASE}/render`)
      .set('Authorization', as(READER))
      .send({
        spec: { name: 'preview', namespace: 'streaming', flinkVersion: '2.1' },
      });
    expect(good.body.valid).toBe(true);
    expect(good.body.objects.map((o: any) => o.kind)).toEqual([
      'ConfigMap',
      'Service',
      'Service',
      'Service',
      'Deployment',
      'StatefulSet',
    ]);
    expect(good.body.yaml).toContain('kind: StatefulSet');
    const bad = await request(server)
      .post(`${BASE}/render`)
      .set('Authorization', as(READER))
      .send({ spec: { name: 'X' } });
    expect(bad.body).toEqual({
      valid: false,
      problems: expect.arrayContaining([
        { path: 'name', message: expect.stringMatching(/DNS-1035/) },
        { path: 'namespace', message: 'is required' },
      ]),
    });
    const clusters = await request(server)
      .get(`${BASE}/clusters`)
      .set('Authorization', as(READER));
    expect(clusters.body).toEqual({ clusters: [{ name: TEST_CLUSTER }] });
    expect(proxy.requests).toEqual([]);
  });
});

describe('against a Flink cluster in the real control plane, with least privilege', () => {
  const specInput = () => ({
    name: 'orders-session',
    namespace,
    component: 'orders-analytics',
    flinkVersion: '2.1',
    taskManager: {
      replicas: 3,
      slots: 2,
      volumeClaimTemplates: [{ name: 'flink-data', storage: '1Gi' }],
    },
  });
  const spec = () => parseClusterSpec(specInput());
  /** The spec's manifests applied with the backend's least-privilege token, as the scaffolder would. */
  async function applySpec() {
    const registry = ClusterRegistry.fromConfig(
      new ConfigReader(clusterConfig(plane().server)),
    );
    await applyCluster(
      registry.get(TEST_CLUSTER),
      renderCluster(spec()) as KubernetesObject[],
    );
    return registry;
  }

  it('plans a change for the owner without making it; 403 to others; 400 naming the field for a bad spec or another cluster', async () => {
    await applySpec();
    const { server, proxy } = await start();
    const planOf = (user: string, body: object) =>
      request(server)
        .post(`${entityPath('orders-analytics')}/plan`)
        .set('Authorization', as(user))
        .send(body);
    await waitFor(
      'three ready TaskManagers through the route',
      async () =>
        (
          await request(server)
            .get(`${entityPath('orders-analytics')}/status`)
            .set('Authorization', as(OWNER))
        ).body.status?.taskManager?.replicas.ready === 3,
      { timeoutMs: 60_000 },
    );
    const taskManagers = `/apis/apps/v1/namespaces/${namespace}/statefulsets/orders-session-taskmanager`;
    const generation = (await plane().client.get(taskManagers)).metadata
      .generation;
    const fourSlots = {
      spec: {
        ...specInput(),
        taskManager: { ...specInput().taskManager, slots: 4 },
      },
    };

    const planned = await planOf(OWNER, fourSlots);
    expect(planned.status).toBe(200);
    expect(
      planned.body.changes.map(
        (c: { kind: string; name: string }) => `${c.kind}/${c.name}`,
      ),
    ).toEqual(
      expect.arrayContaining([
        'ConfigMap/flink-config-orders-session',
        'StatefulSet/orders-session-taskmanager',
      ]),
    );
    expect(
      planned.body.restarts.find(
        (r: { component: string }) => r.component === 'taskmanager',
      ).pods,
    ).toEqual([
      'orders-session-taskmanager-2',
      'orders-session-taskmanager-1',
      'orders-session-taskmanager-0',
    ]);
    expect(planned.body.lines.length).toBeGreaterThan(2);
    // A dry run: every write the plan sent was dryRun=All, and nothing changed.
    const writes = proxy.requests.filter(r => r.method !== 'GET');
    expect(writes.length).toBeGreaterThan(0);
    expect(writes.every(r => r.url.includes('dryRun=All'))).toBe(true);
    expect((await plane().client.get(taskManagers)).metadata.generation).toBe(
      generation,
    );

    for (const user of [READER, NON_OWNER]) {
      expect((await planOf(user, fourSlots)).status).toBe(403);
    }
    const otherCluster = await planOf(OWNER, {
      spec: { ...specInput(), name: 'orders-other' },
    });
    expect(otherCluster.status).toBe(400);
    expect(otherCluster.body.error.message).toBe(
      'spec.name: must be the entity\'s cluster name "orders-session", not "orders-other"',
    );
    const invalid = await planOf(OWNER, {
      spec: { ...specInput(), taskManager: { replicas: -1 } },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.message).toMatch(/taskManager\.replicas/);
  });

  it('serves the status the node library computes; the owner scales and deletes; others get 403 and change nothing', async () => {
    const registry = await applySpec();
    const { server, proxy, logs } = await start();
    const statusOf = (user = OWNER) =>
      request(server)
        .get(`${entityPath('orders-analytics')}/status`)
        .set('Authorization', as(user));

    const settled = await waitFor(
      'three ready TaskManagers through the route',
      async () => {
        const asked = Date.now();
        const response = await statusOf();
        const status: FlinkClusterStatus = response.body.status;
        return status?.taskManager?.replicas.ready === 3 &&
          status.claims.every(c => c.phase === 'Bound') &&
          status.flink.fetchedAt !== undefined
          ? { response, asked, answered: Date.now() }
          : undefined;
      },
      { timeoutMs: 60_000 },
    );
    const { response } = settled;
    expect(response.type).toBe('application/json');
    // Gzipped, as supertest asks like a browser (and decodes), from the observer's compressed
    // memo; plain JSON to a client that does not ask.
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    const plain = await statusOf().set('Accept-Encoding', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(Number(plain.headers['content-length'])).toBeGreaterThan(
      4 * Number(response.headers['content-length']),
    );
    expect(plain.body.location).toEqual(response.body.location);
    // Negotiated per header value: gzip refused by its weight, then asked for again.
    const refused = await statusOf().set(
      'Accept-Encoding',
      'gzip;q=0, identity',
    );
    expect(refused.headers['content-encoding']).toBeUndefined();
    const again = await statusOf().set('Accept-Encoding', 'gzip');
    expect(again.headers['content-encoding']).toBe('gzip');
    expect(plain.body.status.pods).toEqual(response.body.status.pods);
    expect(response.body.location).toEqual({
      kubernetesCluster: TEST_CLUSTER,
      namespace,
      name: 'orders-session',
    });
    // observedAt is the time of the request, lastSyncedAt no later.
    const observedAt = Date.parse(response.body.status.observedAt);
    expect(observedAt).toBeGreaterThanOrEqual(
      Math.floor(settled.asked / 1000) * 1000,
    );
    expect(observedAt).toBeLessThanOrEqual(settled.answered);
    expect(Date.parse(response.body.status.lastSyncedAt)).toBeLessThanOrEqual(
      observedAt,
    );
    // Cluster-wide RBAC includes nodes: every pod's node is known and Ready (kwok).
    expect(
      response.body.status.pods.map((p: { nodeReady: boolean }) => p.nodeReady),
    ).toEqual(response.body.status.pods.map(() => true));
    expectNoSecrets(response.body, proxy.url);

    const observer = new FlinkObserver({ registry });
    try {
      const ref = { cluster: TEST_CLUSTER, namespace, name: 'orders-session' };
      // Asked once, as the route's observer has been by now: the state message depends on it.
      await observer.refreshRest(ref);
      const direct = await observer.getStatus(ref);
      // What Kubernetes says must be identical; the Flink REST part is fetched at other times.
      const comparable = ({
        observedAt: _observed,
        lastSyncedAt: _synced,
        flink: _flink,
        conditions,
        ...s
      }: FlinkClusterStatus) => ({
        ...s,
        conditions: conditions.filter(
          c =>
            !['FlinkRestReachable', 'TaskManagersRegistered'].includes(c.type),
        ),
      });
      expect(comparable(response.body.status)).toEqual(
        comparable(JSON.parse(JSON.stringify(direct))),
      );
    } finally {
      observer.close();
    }

    // Denied callers: 403, and no write reaches Kubernetes.
    const writesBefore = proxy.requests.filter(r => r.method !== 'GET').length;
    for (const user of [READER, NON_OWNER]) {
      const routes = entityRoutes(server, 'orders-analytics', user);
      expect((await routes.scale).status).toBe(403);
      expect((await routes.delete).status).toBe(403);
      expect((await routes.unblock).status).toBe(403);
      expect((await routes.forceDelete).status).toBe(403);
    }
    // Force delete is the platform team's alone: the owner is refused too.
    expect(
      (await entityRoutes(server, 'orders-analytics', OWNER).forceDelete)
        .status,
    ).toBe(403);
    // The platform team may force-delete only a pod stuck on a NotReady node: none here.
    const notLost = await request(server)
      .post(`${entityPath('orders-analytics')}/force-delete-pod`)
      .set('Authorization', as(PLATFORM))
      .send({ pod: 'orders-session-taskmanager-0' });
    expect(notLost.status).toBe(409);
    expect(notLost.body.error).toMatchObject({
      name: 'ConflictError',
      message: `Pod orders-session-taskmanager-0 of ${namespace}/orders-session is not stuck Terminating on a NotReady node (no pod is stuck Terminating on a NotReady node): nothing was deleted`,
    });
    // The owner may unblock a rollout, but only of the pod the observer names: none here.
    const notBlocking = await request(server)
      .post(`${entityPath('orders-analytics')}/unblock-rollout`)
      .set('Authorization', as(OWNER))
      .send({ pod: 'orders-session-taskmanager-0' });
    expect(notBlocking.status).toBe(409);
    expect(notBlocking.body.error).toMatchObject({
      name: 'ConflictError',
      message: `Pod orders-session-taskmanager-0 does not block a rollout of ${namespace}/orders-session (no rollout is blocked): nothing was deleted`,
    });
    expect(proxy.requests.filter(r => r.method !== 'GET').length).toBe(
      writesBefore,
    );
    const taskManagers = `/apis/apps/v1/namespaces/${namespace}/statefulsets/orders-session-taskmanager`;
    expect((await plane().client.get(taskManagers)).spec.replicas).toBe(3);

    const scaled = await request(server)
      .post(`${entityPath('orders-analytics')}/scale`)
      .set('Authorization', as(OWNER))
      .send({ taskManagers: 1 });
    expect(scaled.status).toBe(200);
    expect(scaled.body).toEqual({
      kind: 'StatefulSet',
      name: 'orders-session-taskmanager',
      previousReplicas: 3,
      replicas: 1,
    });
    await waitFor('one TaskManager in the status', async () => {
      const status: FlinkClusterStatus = (await statusOf()).body.status;
      return (
        status.pods.filter(p => p.component === 'taskmanager').length === 1 ||
        undefined
      );
    });

    const deleted = await request(server)
      .delete(`${entityPath('orders-analytics')}?deleteClaims=true`)
      .set('Authorization', as(OWNER));
    expect(deleted.status).toBe(200);
    expect(deleted.body.deleted).toContainEqual({
      kind: 'StatefulSet',
      name: 'orders-session-taskmanager',
    });
    expectNoSecrets(deleted.body, proxy.url);
    await waitFor(
      'MISSING after delete',
      async () => {
        const status: FlinkClusterStatus = (await statusOf()).body.status;
        return (
          (status.jobManagerDeploymentStatus === 'MISSING' &&
            status.claims.length === 0) ||
          undefined
        );
      },
      { timeoutMs: 60_000 },
    );
    // The log check after each test is not vacuous: the capture holds the plugin's lines.
    expect(logs.join('\n')).toMatch(/Scaled .*orders-session-taskmanager/);
    // Nothing went wrong on the way (e.g. a watch cache that did not sync for lack of a right).
    expect(
      logs.filter(l => /^(warn|error) /.test(l) && /flink-standalone/.test(l)),
    ).toEqual([]);
    expect(logs.join('\n')).toMatch(/Deleted Flink cluster/);
  });

  it("shares Flink REST answers between backend replicas through the plugin's cache: a second replica serves the first one's answer and asks Flink nothing", async () => {
    await applySpec();
    // Backstage's own cache manager, one store for both backends, as a Redis is for replicas.
    const caches = CacheManager.fromConfig(new ConfigReader({}));
    const sharedCache = createServiceFactory({
      service: coreServices.cache,
      deps: { plugin: coreServices.pluginMetadata },
      factory: ({ plugin }) => caches.forPlugin(plugin.getId()),
    });
    const replica = () =>
      startFlinkBackend({
        plane: plane(),
        entities: entities(),
        // A minute, so the answer is still fresh however slowly the second replica starts.
        config: clusterConfigWith({ flinkRestRefresh: { maxAgeSeconds: 60 } }),
        services: [sharedCache],
      });
    const first = (backend = await replica());
    const second = await replica();
    try {
      const answerOf = (replicaBackend: FlinkTestBackend) =>
        waitFor(
          'a Flink REST answer in the status',
          async () => {
            const response = await request(replicaBackend.server)
              .get(`${entityPath('orders-analytics')}/status`)
              .set('Authorization', as(OWNER));
            const { flink } = (response.body.status ??
              {}) as Partial<FlinkClusterStatus>;
            return flink?.fetchedAt === undefined ? undefined : flink;
          },
          { timeoutMs: 60_000 },
        );
      const restRequests = (replicaBackend: FlinkTestBackend) =>
        replicaBackend.proxy.requests.filter(r => r.url.includes('/services/'))
          .length;

      const answered = await answerOf(first);
      expect(restRequests(first)).toBeGreaterThan(0);
      expect(await answerOf(second)).toEqual(answered);
      expect(restRequests(second)).toBe(0);
      expectNoCredentials(second.logs.join('\n'), {
        token: account.token,
        ca: plane().admin.ca,
      });
    } finally {
      await second.stop();
    }
  });
});
