import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigReader } from '@backstage/config';
import {
  FlinkClusterStatus,
  parseClusterSpec,
  renderCluster,
} from '@flink-standalone/plugin-flink-standalone-common';
import {
  ClusterRegistry,
  applyCluster,
} from '@flink-standalone/plugin-flink-standalone-node';
import {
  InstalledServiceAccount,
  createTestNamespace,
  isAllowed,
  serviceAccountSubject,
  tokenKubeconfig,
  useControlPlane,
  waitFor,
} from '@flink-standalone/testenv';
import type { KubernetesObject } from '@kubernetes/client-node';
import request from 'supertest';
import {
  BASE,
  FlinkTestBackend,
  NON_OWNER,
  OWNER,
  TEST_CLUSTER,
  as,
  backendServiceAccount,
  component,
  expectNoCredentials,
  flinkAnnotations,
  rbacManifest,
  startFlinkBackend,
} from './__testUtils__/flinkTestBackend';

/*
 * The backend with examples/rbac/flink-standalone-backend-namespaced.yaml: a Role per allowed
 * namespace, no ClusterRole (so no nodes), and its cluster given as a kubeconfig file.
 */

const plane = useControlPlane();

let account: InstalledServiceAccount;
/** The manifest's `streaming` and `payments`, as this file's own namespaces. */
let streaming: string;
let payments: string;
let dir: string;
let backend: FlinkTestBackend | undefined;

beforeAll(async () => {
  streaming = await createTestNamespace(plane().client, 'streaming');
  payments = await createTestNamespace(plane().client, 'payments');
  account = await backendServiceAccount(
    plane(),
    'flink-standalone-backend-namespaced.yaml',
    { namespaces: { streaming, payments } },
  );
  dir = mkdtempSync(join(tmpdir(), 'flink-standalone-namespaced-'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

afterEach(async () => {
  await backend?.stop();
  backend = undefined;
});

/** A kubeconfig file acting as the ServiceAccount, through `server`. */
function kubeconfigFile(server: string) {
  const file = join(dir, `kubeconfig-${server.replace(/\W/g, '')}`);
  writeFileSync(file, tokenKubeconfig(plane(), account.token, server), {
    mode: 0o600,
  });
  return file;
}

function flinkStandaloneConfig(server: string) {
  return {
    flinkStandalone: {
      clusters: [
        {
          name: TEST_CLUSTER,
          kubeconfig: { path: kubeconfigFile(server) },
          allowedNamespaces: [streaming, payments],
        },
      ],
    },
  };
}

const entityPath = (name: string) =>
  `${BASE}/entities/default/component/${name}`;

describe('with namespaced RBAC (Roles only)', () => {
  it('the Roles grant exactly what the cluster-wide ClusterRole grants, nodes aside', () => {
    type Rules = { rules?: unknown[]; metadata: { namespace?: string } };
    const clusterRole = rbacManifest('flink-standalone-backend.yaml').find(
      o =>
        o.kind === 'ClusterRole' &&
        o.metadata.name === 'flink-standalone-backend',
    ) as Rules | undefined;
    const roles = rbacManifest(
      'flink-standalone-backend-namespaced.yaml',
    ).filter(o => o.kind === 'Role') as Rules[];
    expect(roles.map(r => r.metadata.namespace)).toEqual([
      'streaming',
      'payments',
    ]);
    for (const role of roles) expect(role.rules).toEqual(clusterRole?.rules);
  });

  it('the ServiceAccount holds no cluster-wide right', async () => {
    const client = plane().client.withToken(account.token);
    for (const path of [
      '/api/v1/nodes',
      '/api/v1/pods',
      '/apis/apps/v1/statefulsets',
    ]) {
      expect({ path, status: (await client.raw('GET', path)).status }).toEqual({
        path,
        status: 403,
      });
    }
    expect(
      (await client.raw('GET', `/api/v1/namespaces/${streaming}/pods`)).status,
    ).toBe(200);
  });

  it('the watch cache and every entity route work: nodes are forbidden and unknown, nothing else is watched', async () => {
    const registry = ClusterRegistry.fromConfig(
      new ConfigReader(flinkStandaloneConfig(plane().server)),
    );
    const specInput = {
      name: 'orders-session',
      namespace: streaming,
      component: 'orders-analytics',
      flinkVersion: '2.1',
      taskManager: {
        replicas: 2,
        volumeClaimTemplates: [{ name: 'flink-data', storage: '1Gi' }],
      },
    };
    await applyCluster(
      registry.get(TEST_CLUSTER),
      renderCluster(parseClusterSpec(specInput)) as KubernetesObject[],
    );
    backend = await startFlinkBackend({
      plane: plane(),
      entities: [
        component(
          'orders-analytics',
          flinkAnnotations(streaming, 'orders-session'),
        ),
        component('payments-job', flinkAnnotations(payments, 'payments-job')),
      ],
      config: flinkStandaloneConfig,
    });
    const { server, proxy, logs } = backend;
    const statusOf = (name: string, user = OWNER) =>
      request(server)
        .get(`${entityPath(name)}/status`)
        .set('Authorization', as(user));

    const status: FlinkClusterStatus = await waitFor(
      'two ready TaskManagers through the route',
      async () => {
        const answer: FlinkClusterStatus = (await statusOf('orders-analytics'))
          .body.status;
        return answer?.taskManager?.replicas.ready === 2 &&
          answer.claims.every(c => c.phase === 'Bound')
          ? answer
          : undefined;
      },
      { timeoutMs: 60_000 },
    );
    // The node informer's 403 counts as synced-and-empty: the cache synced (no warning about a
    // first sync that timed out), the status is not stale, and the pods' nodes are named but
    // their readiness is unknown.
    expect(
      logs.filter(l => /^(warn|error) /.test(l) && /flink-standalone/.test(l)),
    ).toEqual([]);
    expect(status.stale).toBe(false);
    expect(status.pods.length).toBeGreaterThan(0);
    for (const pod of status.pods) {
      expect(pod.node).toEqual(expect.any(String));
      expect(pod.nodeReady).toBeNull();
    }
    const nodeRequests = proxy.requests.filter(r =>
      r.url.startsWith('/api/v1/nodes'),
    );
    expect(nodeRequests.length).toBeGreaterThan(0);
    expect(nodeRequests.every(r => r.status === 403)).toBe(true);
    // Everything else stays inside the allowed namespaces, and is allowed there. A Flink REST
    // request through a Service's proxy answers with whatever the Service's pods answer (here
    // kwok pods, with no Flink behind them), so its status says nothing of RBAC: the proxy is
    // checked with the authorizer instead.
    const others = proxy.requests.filter(r => !nodeRequests.includes(r));
    for (const { url } of others) {
      expect({ url, inside: /\/namespaces\/[^/]+\//.exec(url)?.[0] }).toEqual({
        url,
        inside: expect.stringMatching(
          new RegExp(`^/namespaces/(${streaming}|${payments})/$`),
        ),
      });
    }
    for (const { url, status: code } of others.filter(
      r => !/\/proxy\//.test(r.url),
    )) {
      expect({ url, code }).not.toEqual({ url, code: 403 });
    }
    for (const namespace of [streaming, payments]) {
      expect({
        namespace,
        allowed: await isAllowed(
          plane().client,
          serviceAccountSubject(account.namespace, account.name),
          {
            verb: 'get',
            resource: 'services',
            subresource: 'proxy',
            namespace,
          },
        ),
      }).toEqual({ namespace, allowed: true });
    }

    const missing = await statusOf('payments-job');
    expect(missing.status).toBe(200);
    expect(missing.body.status.jobManagerDeploymentStatus).toBe('MISSING');
    expect((await statusOf('orders-analytics', NON_OWNER)).status).toBe(403);

    // A change plan's dry runs stay inside the allowed namespace's Role too.
    const plan = await request(server)
      .post(`${entityPath('orders-analytics')}/plan`)
      .set('Authorization', as(OWNER))
      .send({
        spec: {
          ...specInput,
          taskManager: { ...specInput.taskManager, slots: 2 },
        },
      });
    expect(plan.status).toBe(200);
    expect(
      plan.body.changes.map(
        (c: { kind: string; name: string }) => `${c.kind}/${c.name}`,
      ),
    ).toContain('StatefulSet/orders-session-taskmanager');

    const scale = (user: string) =>
      request(server)
        .post(`${entityPath('orders-analytics')}/scale`)
        .set('Authorization', as(user))
        .send({ taskManagers: 1 });
    expect((await scale(NON_OWNER)).status).toBe(403);
    const scaled = await scale(OWNER);
    expect(scaled.status).toBe(200);
    expect(scaled.body).toMatchObject({ previousReplicas: 2, replicas: 1 });

    const deleted = await request(server)
      .delete(`${entityPath('orders-analytics')}?deleteClaims=true`)
      .set('Authorization', as(OWNER));
    expect(deleted.status).toBe(200);
    await waitFor(
      'MISSING after delete',
      async () => {
        const answer: FlinkClusterStatus = (await statusOf('orders-analytics'))
          .body.status;
        return (
          (answer.jobManagerDeploymentStatus === 'MISSING' &&
            answer.claims.length === 0) ||
          undefined
        );
      },
      { timeoutMs: 60_000 },
    );

    // No token, CA or kubeconfig content in any log line (and the capture is not empty).
    const logText = logs.join('\n');
    expect(logText).toMatch(/Deleted Flink cluster/);
    expectNoCredentials(logText, {
      token: account.token,
      ca: plane().admin.ca,
      kubeconfig: tokenKubeconfig(plane(), account.token, proxy.url),
    });
  });
});
