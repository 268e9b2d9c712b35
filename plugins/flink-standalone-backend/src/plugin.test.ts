import { ConfigReader } from '@backstage/config';
import {
  mockCredentials,
  mockServices,
  startTestBackend,
} from '@backstage/backend-test-utils';
import type { Entity } from '@backstage/catalog-model';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
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
import { useControlPlane, waitFor } from '@flink-standalone/testenv';
import type { KubernetesObject } from '@kubernetes/client-node';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import request from 'supertest';
import { parseAllDocuments } from 'yaml';
import { flinkStandalonePlugin } from './plugin';

const plane = useControlPlane();

/** The example catalog the app loads. */
const exampleEntities: Entity[] = parseAllDocuments(
  readFileSync(
    resolve(__dirname, '../../../examples/catalog/components.yaml'),
    'utf8',
  ),
).map(d => d.toJS());

const READER = 'user:default/reader';
const OPERATOR = 'user:default/operator';
const BASE = '/api/flink-standalone';

/** A fake permission policy (named as such): readers may read; operators may do everything. */
const permissions = mockServices.permissions.mock({
  authorize: async (requests, options) => {
    const principal = (
      options.credentials.principal as { userEntityRef?: string }
    ).userEntityRef;
    return requests.map(({ permission }) => ({
      result:
        principal === OPERATOR ||
        (principal === READER &&
          permission.name === 'flink.standalone.status.read')
          ? AuthorizeResult.ALLOW
          : AuthorizeResult.DENY,
    }));
  },
});

async function ensureNamespace(name: string) {
  if (!(await plane().client.find(`/api/v1/namespaces/${name}`))) {
    await plane().client.create('/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name },
    });
  }
}

function appConfig() {
  return {
    kubernetes: {
      clusterLocatorMethods: [
        {
          type: 'config',
          clusters: [
            {
              name: 'local',
              url: plane().server,
              authProvider: 'serviceAccount',
              serviceAccountToken: plane().admin.token,
              caData: plane().admin.ca,
            },
          ],
        },
      ],
    },
    flinkStandalone: {
      clusters: [
        { name: 'local', allowedNamespaces: ['streaming', 'flink-sandbox'] },
      ],
    },
  };
}

async function startBackend(entities: Entity[] = exampleEntities) {
  const { server } = await startTestBackend({
    features: [
      flinkStandalonePlugin,
      // Requests without a token are unauthenticated (the mock's default would be a user).
      mockServices.httpAuth.factory({
        defaultCredentials: mockCredentials.none(),
      }),
      mockServices.rootConfig.factory({ data: appConfig() }),
      catalogServiceMock.factory({ entities }),
      permissions.factory,
    ],
  });
  return server;
}

const as = (user: string) => mockCredentials.user.header(user);
const statusOf = (server: any, entity = 'orders-analytics', user = READER) =>
  request(server)
    .get(`${BASE}/entities/default/component/${entity}/status`)
    .set('Authorization', as(user));

/** No credential of the cluster appears in what the backend sends. */
function expectNoSecrets(body: unknown) {
  const text = JSON.stringify(body);
  expect(text).not.toContain(plane().admin.token);
  expect(text).not.toContain(plane().admin.ca.split('\n')[1]);
  expect(text).not.toContain(plane().server);
}

describe('flink-standalone routes', () => {
  it('answers 401 without credentials', async () => {
    const server = await startBackend();
    for (const req of [
      request(server).get(
        `${BASE}/entities/default/component/orders-analytics/status`,
      ),
      request(server)
        .post(`${BASE}/entities/default/component/orders-analytics/scale`)
        .send({ taskManagers: 1 }),
      request(server).delete(
        `${BASE}/entities/default/component/orders-analytics`,
      ),
      request(server).get(`${BASE}/clusters`),
      request(server).post(`${BASE}/render`).send({ spec: {} }),
    ]) {
      expect((await req).status).toBe(401);
    }
  });

  it('answers 404 for an entity that is not in the catalog', async () => {
    const response = await statusOf(await startBackend(), 'no-such-component');
    expect(response.status).toBe(404);
    expect(response.body.error.name).toBe('NotFoundError');
  });

  it('answers 403 to a caller without the permission, and 400 on bad input', async () => {
    const server = await startBackend();
    expect(
      (await statusOf(server, 'orders-analytics', 'user:default/stranger'))
        .status,
    ).toBe(403);
    const scale = await request(server)
      .post(`${BASE}/entities/default/component/orders-analytics/scale`)
      .set('Authorization', as(OPERATOR))
      .send({ taskManagers: -2 });
    expect(scale.status).toBe(400);
    expect(scale.body.error.message).toMatch(/body\.taskManagers/);
    const extra = await request(server)
      .post(`${BASE}/entities/default/component/orders-analytics/scale`)
      .set('Authorization', as(OPERATOR))
      .send({ taskManagers: 1, force: true });
    expect(extra.status).toBe(400);
    const badQuery = await request(server)
      .delete(
        `${BASE}/entities/default/component/orders-analytics?deleteClaims=maybe`,
      )
      .set('Authorization', as(OPERATOR));
    expect(badQuery.status).toBe(400);
    expect(badQuery.body.error.message).toMatch(
      /query\.deleteClaims: must be true or false/,
    );
    const badHaQuery = await request(server)
      .delete(
        `${BASE}/entities/default/component/orders-analytics?deleteHighAvailabilityData=yes`,
      )
      .set('Authorization', as(OPERATOR));
    expect(badHaQuery.status).toBe(400);
    expect(badHaQuery.body.error.message).toMatch(
      /query\.deleteHighAvailabilityData: must be true or false/,
    );
  });

  it('answers 400 naming the annotation when the entity has none or a malformed one', async () => {
    const server = await startBackend();
    const none = await statusOf(server, 'website');
    expect(none.status).toBe(400);
    expect(none.body.error.message).toMatch(
      /flink-standalone.backstage.io\/cluster is missing/,
    );
    const malformed: Entity = {
      ...exampleEntities[0],
      metadata: {
        ...exampleEntities[0].metadata,
        name: 'bad',
        annotations: {
          ...exampleEntities[0].metadata.annotations,
          'flink-standalone.backstage.io/namespace': 'Bad_NS',
        },
      },
    };
    const bad = await statusOf(await startBackend([malformed]), 'bad');
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(
      /namespace "Bad_NS" is not a namespace/,
    );
  });

  it('answers 403 for a namespace outside the allowed list, before any Kubernetes call', async () => {
    const outside: Entity = {
      ...exampleEntities[0],
      metadata: {
        ...exampleEntities[0].metadata,
        name: 'outside',
        annotations: {
          ...exampleEntities[0].metadata.annotations,
          'flink-standalone.backstage.io/namespace': 'payments',
        },
      },
    };
    const response = await statusOf(await startBackend([outside]), 'outside');
    expect(response.status).toBe(403);
    expect(response.body.error.message).toMatch(
      /Namespace "payments" is not allowed/,
    );
  });

  it('reports MISSING for a cluster that does not exist, and names only clusters', async () => {
    const server = await startBackend();
    const response = await statusOf(server, 'sandbox');
    expect(response.status).toBe(200);
    expect(response.body.status.jobManagerDeploymentStatus).toBe('MISSING');
    expectNoSecrets(response.body);
    const clusters = await request(server)
      .get(`${BASE}/clusters`)
      .set('Authorization', as(READER));
    expect(clusters.body).toEqual({ clusters: [{ name: 'local' }] });
  });

  it('renders a spec, or lists every problem', async () => {
    const server = await startBackend();
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
  });
});

describe('against the example cluster in the real control plane', () => {
  const spec = parseClusterSpec({
    name: 'orders-session',
    namespace: 'streaming',
    component: 'orders-analytics',
    flinkVersion: '2.1',
    taskManager: {
      replicas: 3,
      slots: 2,
      volumeClaimTemplates: [{ name: 'flink-data', storage: '1Gi' }],
    },
  });

  it('serves the status the node library computes; a reader gets 403 on scale; scale and delete change the cluster', async () => {
    await ensureNamespace('streaming');
    const registry = ClusterRegistry.fromConfig(new ConfigReader(appConfig()));
    await applyCluster(
      registry.get('local'),
      renderCluster(spec) as KubernetesObject[],
    );
    const server = await startBackend();

    const settled = await waitFor(
      'three ready TaskManagers through the route',
      async () => {
        const response = await statusOf(server);
        const status: FlinkClusterStatus = response.body.status;
        return status?.taskManager?.replicas.ready === 3 &&
          status.claims.every(c => c.phase === 'Bound') &&
          status.flink.fetchedAt !== undefined
          ? response
          : undefined;
      },
      { timeoutMs: 60_000 },
    );
    expect(settled.type).toBe('application/json');
    expect(settled.body.location).toEqual({
      kubernetesCluster: 'local',
      namespace: 'streaming',
      name: 'orders-session',
    });
    expect(
      Date.now() - Date.parse(settled.body.status.observedAt),
    ).toBeLessThan(10_000);
    expect(Date.parse(settled.body.status.lastSyncedAt)).toBeLessThanOrEqual(
      Date.parse(settled.body.status.observedAt),
    );
    expectNoSecrets(settled.body);

    const observer = new FlinkObserver({ registry });
    try {
      const ref = {
        cluster: 'local',
        namespace: 'streaming',
        name: 'orders-session',
      };
      // Asked once, as the route's observer has been by now: the state message depends on it.
      await observer.refreshRest(ref);
      const direct = await observer.getStatus(ref);
      // What Kubernetes says must be identical; the Flink REST part is fetched at other times.
      const comparable = ({
        observedAt,
        lastSyncedAt,
        flink,
        conditions,
        ...s
      }: FlinkClusterStatus) => ({
        ...s,
        conditions: conditions.filter(
          c =>
            !['FlinkRestReachable', 'TaskManagersRegistered'].includes(c.type),
        ),
      });
      expect(comparable(settled.body.status)).toEqual(
        comparable(JSON.parse(JSON.stringify(direct))),
      );
    } finally {
      observer.close();
    }

    const denied = await request(server)
      .post(`${BASE}/entities/default/component/orders-analytics/scale`)
      .set('Authorization', as(READER))
      .send({ taskManagers: 1 });
    expect(denied.status).toBe(403);
    expect(
      (
        await plane().client.get(
          '/apis/apps/v1/namespaces/streaming/statefulsets/orders-session-taskmanager',
        )
      ).spec.replicas,
    ).toBe(3);

    const scaled = await request(server)
      .post(`${BASE}/entities/default/component/orders-analytics/scale`)
      .set('Authorization', as(OPERATOR))
      .send({ taskManagers: 1 });
    expect(scaled.status).toBe(200);
    expect(scaled.body).toEqual({
      kind: 'StatefulSet',
      name: 'orders-session-taskmanager',
      previousReplicas: 3,
      replicas: 1,
    });
    await waitFor('one TaskManager in the status', async () => {
      const status: FlinkClusterStatus = (await statusOf(server)).body.status;
      return (
        status.pods.filter(p => p.component === 'taskmanager').length === 1 ||
        undefined
      );
    });

    const deleted = await request(server)
      .delete(
        `${BASE}/entities/default/component/orders-analytics?deleteClaims=true`,
      )
      .set('Authorization', as(OPERATOR));
    expect(deleted.status).toBe(200);
    expect(deleted.body.deleted).toContainEqual({
      kind: 'StatefulSet',
      name: 'orders-session-taskmanager',
    });
    expectNoSecrets(deleted.body);
    await waitFor(
      'MISSING after delete',
      async () => {
        const status: FlinkClusterStatus = (await statusOf(server)).body.status;
        return (
          (status.jobManagerDeploymentStatus === 'MISSING' &&
            status.claims.length === 0) ||
          undefined
        );
      },
      { timeoutMs: 60_000 },
    );
  });
});
