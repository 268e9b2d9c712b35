import { readFileSync } from 'node:fs';
import { resolvePackagePath } from '@backstage/backend-plugin-api';
import { ConfigReader } from '@backstage/config';
import { fromYaml } from '@flink-standalone/plugin-flink-standalone-common';
import {
  RbacManifestObject,
  SharedControlPlane,
  serviceAccountToken,
} from '@flink-standalone/testenv';

/** The least-privilege RBAC the backend runs with in a target cluster (examples/rbac). */
const RBAC_FILE = resolvePackagePath(
  '@flink-standalone/plugin-scaffolder-backend-module-flink-standalone',
  '../../examples/rbac/flink-standalone-backend.yaml',
);

export const TEST_CLUSTER = 'local';

/**
 * A token of a ServiceAccount holding only examples/rbac, so the actions are tested with the
 * rights the backend has in production.
 */
export function backendToken(plane: SharedControlPlane): Promise<string> {
  return serviceAccountToken(
    plane,
    fromYaml(readFileSync(RBAC_FILE, 'utf8')) as RbacManifestObject[],
    'scaffolder',
  );
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
