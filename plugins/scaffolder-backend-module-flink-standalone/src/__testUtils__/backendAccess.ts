import { readFileSync } from 'node:fs';
import { resolvePackagePath } from '@backstage/backend-plugin-api';
import { ConfigReader } from '@backstage/config';
import { fromYaml } from '@flink-standalone/plugin-flink-standalone-common';
import {
  SharedControlPlane,
  createTestNamespace,
} from '@flink-standalone/testenv';

/** The least-privilege RBAC the backend runs with in a target cluster (examples/rbac). */
const RBAC_FILE = resolvePackagePath(
  '@flink-standalone/plugin-scaffolder-backend-module-flink-standalone',
  '../../examples/rbac/flink-standalone-backend.yaml',
);

export const TEST_CLUSTER = 'local';

type RbacObject = {
  kind: string;
  metadata: { name: string };
  roleRef?: { name: string };
  subjects?: object[];
};

/**
 * A token of a ServiceAccount holding only examples/rbac, so the actions are tested with the
 * rights the backend has in production. Cluster-wide names get a suffix: files run in parallel.
 */
export async function backendToken(plane: SharedControlPlane): Promise<string> {
  const namespace = await createTestNamespace(plane.client, 'scaffolder');
  const suffix = namespace.slice(namespace.lastIndexOf('-') + 1);
  const objects = fromYaml(readFileSync(RBAC_FILE, 'utf8')) as RbacObject[];
  const serviceAccount = objects.find(o => o.kind === 'ServiceAccount')!;
  await plane.client.create(`/api/v1/namespaces/${namespace}/serviceaccounts`, {
    ...serviceAccount,
    metadata: { name: serviceAccount.metadata.name, namespace },
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
    `/api/v1/namespaces/${namespace}/serviceaccounts/${serviceAccount.metadata.name}/token`,
    {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: { expirationSeconds: 3600 },
    },
  );
  return request.status.token;
}

/** Config as an app would have it: the Kubernetes plugin's cluster entry plus our options. */
export function clusterConfig(
  plane: SharedControlPlane,
  token: string,
  flinkStandalone: Record<string, unknown> = {},
) {
  return new ConfigReader({
    kubernetes: {
      clusterLocatorMethods: [
        {
          type: 'config',
          clusters: [
            {
              name: TEST_CLUSTER,
              url: plane.server,
              authProvider: 'serviceAccount',
              serviceAccountToken: token,
              caData: plane.admin.ca,
            },
          ],
        },
      ],
    },
    flinkStandalone: { clusters: [{ name: TEST_CLUSTER, ...flinkStandalone }] },
  });
}
