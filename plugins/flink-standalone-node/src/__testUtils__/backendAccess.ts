import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigReader } from '@backstage/config';
import { fromYaml } from '@flink-standalone/plugin-flink-standalone-common';
import {
  RbacManifestObject,
  SharedControlPlane,
  serviceAccountToken,
} from '@flink-standalone/testenv';
import { ClusterRegistry } from '../cluster/ClusterRegistry';

/** The repository's least-privilege RBAC for the backend (examples/rbac). */
const RBAC_FILE = resolve(
  __dirname,
  '../../../../examples/rbac/flink-standalone-backend.yaml',
);

export const TEST_CLUSTER = 'local';

/**
 * A token of a ServiceAccount bound only to examples/rbac, as the backend would run with in a
 * target cluster: a verb missing there fails the tests that need it.
 */
export function backendToken(plane: SharedControlPlane): Promise<string> {
  return serviceAccountToken(
    plane,
    fromYaml(readFileSync(RBAC_FILE, 'utf8')) as RbacManifestObject[],
    'backstage',
  );
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
      flinkStandalone: {
        clusters: [{ name: TEST_CLUSTER, ...flinkStandalone }],
      },
    }),
  );
}
