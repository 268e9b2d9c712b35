import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigReader } from '@backstage/config';
import { parseAllDocuments } from 'yaml';
import { SharedControlPlane, createTestNamespace } from '@flink-standalone/testenv';
import { ClusterRegistry } from '../cluster/ClusterRegistry';

/** The repository's least-privilege RBAC for the backend (examples/rbac). */
const RBAC_FILE = resolve(__dirname, '../../../../examples/rbac/flink-standalone-backend.yaml');

export const TEST_CLUSTER = 'local';

/**
 * A token of a ServiceAccount bound only to examples/rbac, as the backend would run with in a
 * target cluster: a verb missing there fails the tests that need it.
 */
export async function backendToken(plane: SharedControlPlane): Promise<string> {
  const namespace = await createTestNamespace(plane.client, 'backstage');
  const suffix = namespace.split('-').pop();
  const objects = parseAllDocuments(readFileSync(RBAC_FILE, 'utf8')).map(d => d.toJS());
  const rename = (name: string) => `${name}-${suffix}`;
  for (const object of objects) {
    const { kind } = object;
    if (kind === 'ServiceAccount') {
      await plane.client.create(`/api/v1/namespaces/${namespace}/serviceaccounts`, {
        ...object,
        metadata: { name: object.metadata.name, namespace },
      });
    } else if (kind === 'ClusterRole') {
      await plane.client.create('/apis/rbac.authorization.k8s.io/v1/clusterroles', {
        ...object,
        metadata: { name: rename(object.metadata.name) },
      });
    } else if (kind === 'ClusterRoleBinding') {
      await plane.client.create('/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
        ...object,
        metadata: { name: rename(object.metadata.name) },
        roleRef: { ...object.roleRef, name: rename(object.roleRef.name) },
        subjects: object.subjects.map((s: any) => ({ ...s, namespace })),
      });
    }
  }
  const request = await plane.client.create<{ status: { token: string } }>(
    `/api/v1/namespaces/${namespace}/serviceaccounts/flink-standalone-backend/token`,
    { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600 } },
  );
  return request.status.token;
}

/** A registry built from config, as the backend builds it: the Kubernetes plugin's cluster entry. */
export function registryFor(
  plane: SharedControlPlane,
  token: string,
  flinkStandalone: Record<string, unknown> = {},
): ClusterRegistry {
  return ClusterRegistry.fromConfig(
    new ConfigReader({
      kubernetes: {
        clusterLocatorMethods: [
          {
            type: 'config',
            clusters: [
              { name: TEST_CLUSTER, url: plane.server, authProvider: 'serviceAccount', serviceAccountToken: token, caData: plane.admin.ca },
            ],
          },
        ],
      },
      flinkStandalone: { clusters: [{ name: TEST_CLUSTER, ...flinkStandalone }] },
    }),
  );
}
