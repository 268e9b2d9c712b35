import {
  parseClusterSpec,
  renderCluster,
} from '@flink-standalone/plugin-flink-standalone-common';
import {
  KubeApiError,
  createTestNamespace,
  isAllowed,
  serviceAccountSubject,
  untilAllowed,
  useControlPlane,
} from '@flink-standalone/testenv';
import type { KubernetesObject } from '@kubernetes/client-node';
import {
  TEST_CLUSTER,
  backendToken,
  registryFor,
} from '../__testUtils__/backendAccess';
import { applyCluster } from './applyCluster';

const plane = useControlPlane();

/**
 * The renderer's Kubernetes-HA RBAC, applied as the backend applies it (its least-privilege
 * token), then used as the Flink pods use it: their ServiceAccount's own token.
 */
describe("the renderer's HA ServiceAccount, Role and RoleBinding", () => {
  let namespace: string;

  beforeAll(async () => {
    namespace = await createTestNamespace(plane().client, 'ha-rbac');
    const cluster = registryFor(plane(), await backendToken(plane())).get(
      TEST_CLUSTER,
    );
    const objects = renderCluster(
      parseClusterSpec({
        name: 'orders',
        namespace,
        flinkVersion: '2.2',
        highAvailability: { storageDir: 's3://flink/ha' },
      }),
    ) as KubernetesObject[];
    await applyCluster(
      cluster,
      objects.filter(o =>
        ['ServiceAccount', 'Role', 'RoleBinding'].includes(o.kind!),
      ),
    );
    // The Role and its binding reach the API server's authorizer a moment after they are applied.
    await untilAllowed(
      plane().client,
      serviceAccountSubject(namespace, 'orders'),
      { verb: 'get', resource: 'configmaps', namespace },
    );
  });

  const allowed = (
    verb: string,
    resource: string,
    group = '',
    ns = namespace,
  ) =>
    isAllowed(plane().client, serviceAccountSubject(namespace, 'orders'), {
      verb,
      resource,
      group,
      namespace: ns,
    });

  it('grants ConfigMaps in its namespace (Flink locks on ConfigMaps), no Leases, no Secrets, nothing elsewhere', async () => {
    for (const verb of ['get', 'list', 'watch', 'create', 'update', 'delete']) {
      expect([verb, await allowed(verb, 'configmaps')]).toEqual([verb, true]);
    }
    expect(await allowed('update', 'leases', 'coordination.k8s.io')).toBe(
      false,
    );
    expect(await allowed('list', 'secrets')).toBe(false);
    expect(await allowed('get', 'configmaps', '', 'default')).toBe(false);
  });

  it("lets a pod with the ServiceAccount's token write its leader ConfigMap, and nothing else", async () => {
    const { client } = plane();
    const request = await client.create(
      `/api/v1/namespaces/${namespace}/serviceaccounts/orders/token`,
      {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenRequest',
        spec: { expirationSeconds: 600 },
      },
    );
    const asFlink = client.withToken(request.status.token);
    try {
      const created = await asFlink.create(
        `/api/v1/namespaces/${namespace}/configmaps`,
        {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'orders-cluster-config-map' },
          data: { leader: 'jm-0' },
        },
      );
      const updated = await asFlink.request(
        'PUT',
        `/api/v1/namespaces/${namespace}/configmaps/orders-cluster-config-map`,
        { ...created, data: { leader: 'jm-1' } },
      );
      expect(updated.data.leader).toBe('jm-1');
      const denied = await asFlink
        .list(`/api/v1/namespaces/${namespace}/secrets`)
        .catch(e => e);
      expect(denied).toBeInstanceOf(KubeApiError);
      expect(denied.status).toBe(403);
    } finally {
      asFlink.close();
    }
  });
});
