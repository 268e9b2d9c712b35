import { KubeApiError } from './kubeClient';
import { createTestNamespace, useControlPlane } from './shared';

const plane = useControlPlane();

/**
 * A Role of the plane's own tests: ConfigMaps and Leases in one namespace. It checks that RBAC is
 * enforced; the renderer's HA Role is tested in plugins/flink-standalone-node (haRbac.test.ts).
 */
const testRole = {
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'Role',
  metadata: { name: 'flink' },
  rules: [
    {
      apiGroups: [''],
      resources: ['configmaps'],
      verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'],
    },
    {
      apiGroups: ['coordination.k8s.io'],
      resources: ['leases'],
      verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'],
    },
  ],
};

async function setUpServiceAccount(ns: string) {
  const { client } = plane();
  await client.create(`/api/v1/namespaces/${ns}/serviceaccounts`, {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name: 'flink' },
  });
  await client.create(
    `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/roles`,
    testRole,
  );
  await client.create(
    `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/rolebindings`,
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'flink' },
      roleRef: {
        apiGroup: 'rbac.authorization.k8s.io',
        kind: 'Role',
        name: 'flink',
      },
      subjects: [{ kind: 'ServiceAccount', name: 'flink', namespace: ns }],
    },
  );
}

async function allowed(
  ns: string,
  verb: string,
  resource: string,
  group = '',
  namespace = ns,
) {
  const review = await plane().client.create(
    '/apis/authorization.k8s.io/v1/subjectaccessreviews',
    {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      spec: {
        user: `system:serviceaccount:${ns}:flink`,
        groups: [
          'system:serviceaccounts',
          `system:serviceaccounts:${ns}`,
          'system:authenticated',
        ],
        resourceAttributes: { namespace, verb, group, resource },
      },
    },
  );
  return review.status.allowed === true;
}

describe('RBAC and authentication are real', () => {
  it('lets a ServiceAccount do what its Role grants (ConfigMaps, Leases), not list Secrets', async () => {
    const { client } = plane();
    const ns = await createTestNamespace(client, 'rbac');
    const other = await createTestNamespace(client, 'rbac-other');
    await setUpServiceAccount(ns);

    expect(await allowed(ns, 'get', 'configmaps')).toBe(true);
    expect(await allowed(ns, 'update', 'configmaps')).toBe(true);
    expect(await allowed(ns, 'update', 'leases', 'coordination.k8s.io')).toBe(
      true,
    );
    expect(await allowed(ns, 'list', 'secrets')).toBe(false);
    expect(await allowed(ns, 'get', 'configmaps', '', other)).toBe(false);
  });

  it('authenticates a ServiceAccount token and enforces its Role when acting as it', async () => {
    const { client } = plane();
    const ns = await createTestNamespace(client, 'rbac-token');
    await setUpServiceAccount(ns);
    const request = await client.create(
      `/api/v1/namespaces/${ns}/serviceaccounts/flink/token`,
      {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenRequest',
        spec: { expirationSeconds: 600 },
      },
    );
    const asFlink = client.withToken(request.status.token);
    try {
      const created = await asFlink.create(
        `/api/v1/namespaces/${ns}/configmaps`,
        {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'ha-leader' },
          data: { leader: 'jm-0' },
        },
      );
      const updated = await asFlink.request(
        'PUT',
        `/api/v1/namespaces/${ns}/configmaps/ha-leader`,
        {
          ...created,
          data: { leader: 'jm-1' },
        },
      );
      expect(updated.data.leader).toBe('jm-1');
      const denied = await asFlink
        .list(`/api/v1/namespaces/${ns}/secrets`)
        .catch(e => e);
      expect(denied).toBeInstanceOf(KubeApiError);
      expect(denied.status).toBe(403);
    } finally {
      asFlink.close();
    }
  });

  it('rejects anonymous requests and unknown tokens', async () => {
    const { client } = plane();
    const anonymous = client.withToken('');
    const forged = client.withToken('not-a-real-token');
    try {
      expect((await anonymous.raw('GET', '/api/v1/namespaces')).status).toBe(
        401,
      );
      expect((await forged.raw('GET', '/api/v1/namespaces')).status).toBe(401);
    } finally {
      anonymous.close();
      forged.close();
    }
  });

  it('accepts the admin token as well as the admin certificate', async () => {
    const { client, admin } = plane();
    const byToken = client.withToken(admin.token);
    try {
      expect((await byToken.raw('GET', '/api/v1/nodes')).status).toBe(200);
    } finally {
      byToken.close();
    }
  });
});
