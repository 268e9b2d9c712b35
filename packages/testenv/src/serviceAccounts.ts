import type { SharedControlPlane } from './shared';
import { createTestNamespace } from './shared';

/** The kinds of an RBAC manifest this helper installs (ServiceAccount, ClusterRole, ClusterRoleBinding). */
export interface RbacManifestObject {
  kind: string;
  metadata: { name: string };
  roleRef?: { name: string };
  subjects?: object[];
}

/**
 * Installs an RBAC manifest (one ServiceAccount, its ClusterRoles and ClusterRoleBindings) in a
 * fresh namespace and returns a token of that ServiceAccount, so a test acts with exactly those
 * rights. Cluster-wide names get the namespace's suffix: test files run in parallel.
 */
export async function serviceAccountToken(
  plane: SharedControlPlane,
  objects: RbacManifestObject[],
  namespacePrefix = 'rbac',
): Promise<string> {
  const namespace = await createTestNamespace(plane.client, namespacePrefix);
  const suffix = namespace.slice(namespace.lastIndexOf('-') + 1);
  const account = objects.find(o => o.kind === 'ServiceAccount');
  if (!account) throw new Error('the RBAC manifest has no ServiceAccount');
  await plane.client.create(`/api/v1/namespaces/${namespace}/serviceaccounts`, {
    ...account,
    metadata: { name: account.metadata.name, namespace },
  });
  for (const object of objects.filter(o => o.kind.startsWith('ClusterRole'))) {
    const plural =
      object.kind === 'ClusterRole' ? 'clusterroles' : 'clusterrolebindings';
    await plane.client.create(`/apis/rbac.authorization.k8s.io/v1/${plural}`, {
      ...object,
      metadata: { name: `${object.metadata.name}-${suffix}` },
      ...(object.roleRef && {
        roleRef: {
          ...object.roleRef,
          name: `${object.roleRef.name}-${suffix}`,
        },
      }),
      ...(object.subjects && {
        subjects: object.subjects.map(s => ({ ...s, namespace })),
      }),
    });
  }
  const request = await plane.client.create<{ status: { token: string } }>(
    `/api/v1/namespaces/${namespace}/serviceaccounts/${account.metadata.name}/token`,
    {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: { expirationSeconds: 3600 },
    },
  );
  return request.status.token;
}
