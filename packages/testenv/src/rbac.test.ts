import { isAllowed, serviceAccountSubject } from './accessReviews';
import { KubeApiError } from './kubeClient';
import type { RbacManifestObject } from './serviceAccounts';
import { installServiceAccount } from './serviceAccounts';
import { createTestNamespace, useControlPlane } from './shared';

const plane = useControlPlane();

/**
 * A ServiceAccount with a Role of the plane's own tests: ConfigMaps and Leases in one namespace.
 * It checks that RBAC is enforced; the renderer's HA Role is tested in plugins/flink-standalone-node
 * (haRbac.test.ts).
 */
const manifest: RbacManifestObject[] = [
  { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'flink' } },
  {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    metadata: { name: 'flink', namespace: 'granted' },
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
  },
  {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: 'flink', namespace: 'granted' },
    roleRef: {
      apiGroup: 'rbac.authorization.k8s.io',
      kind: 'Role',
      name: 'flink',
    },
    subjects: [{ kind: 'ServiceAccount', name: 'flink' }],
  },
];

/** The ServiceAccount, its Role bound in a fresh namespace (returned). */
async function setUpServiceAccount(prefix: string) {
  const granted = await createTestNamespace(plane().client, prefix);
  const account = await installServiceAccount(plane(), manifest, {
    namespaces: { granted },
  });
  return { granted, account };
}

describe('RBAC and authentication are real', () => {
  it('lets a ServiceAccount do what its Role grants (ConfigMaps, Leases), not list Secrets', async () => {
    const { client } = plane();
    const other = await createTestNamespace(client, 'rbac-other');
    const { granted, account } = await setUpServiceAccount('rbac');
    const subject = serviceAccountSubject(account.namespace, account.name);
    const allowed = (
      verb: string,
      resource: string,
      group = '',
      namespace = granted,
    ) => isAllowed(client, subject, { verb, resource, group, namespace });

    expect(await allowed('get', 'configmaps')).toBe(true);
    expect(await allowed('update', 'configmaps')).toBe(true);
    expect(await allowed('update', 'leases', 'coordination.k8s.io')).toBe(true);
    expect(await allowed('list', 'secrets')).toBe(false);
    expect(await allowed('get', 'configmaps', '', other)).toBe(false);
  });

  it('authenticates a ServiceAccount token and enforces its Role when acting as it', async () => {
    const { client } = plane();
    const { granted: ns, account } = await setUpServiceAccount('rbac-token');
    const asFlink = client.withToken(account.token);
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
