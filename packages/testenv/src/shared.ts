import fs from 'node:fs';
import {
  ControlPlane,
  ControlPlaneOptions,
  startControlPlane,
} from './controlPlane';
import { Faults } from './faults';
import { KubeClient } from './kubeClient';
import { waitFor } from './processes';

/** Set by the Jest global setup: the path of a JSON file describing the shared plane. */
export const SHARED_PLANE_ENV = 'FLINK_STANDALONE_TESTENV_PLANE';

/** A control plane as a test sees it: whether it started it or joined a shared one. */
export type SharedControlPlane = Omit<
  ControlPlane,
  'stop' | 'startupMs' | 'workDir'
>;

type PlaneFile = Pick<
  ControlPlane,
  | 'server'
  | 'kubeconfig'
  | 'kubeconfigPath'
  | 'admin'
  | 'nodes'
  | 'storageClasses'
>;

export function writeSharedPlaneFile(file: string, plane: ControlPlane): void {
  const { server, kubeconfig, kubeconfigPath, admin, nodes, storageClasses } =
    plane;
  const content: PlaneFile = {
    server,
    kubeconfig,
    kubeconfigPath,
    admin,
    nodes,
    storageClasses,
  };
  fs.writeFileSync(file, JSON.stringify(content), { mode: 0o600 });
}

function notOwned(): Promise<void> {
  return Promise.reject(
    new Error(
      'the shared control plane belongs to the Jest global setup; use useControlPlane({ dedicated: true })',
    ),
  );
}

/** Joins the plane described by the file in SHARED_PLANE_ENV, or answers undefined. */
export function connectSharedControlPlane(): SharedControlPlane | undefined {
  const file = process.env[SHARED_PLANE_ENV];
  if (!file || !fs.existsSync(file)) return undefined;
  const info: PlaneFile = JSON.parse(fs.readFileSync(file, 'utf8'));
  const client = new KubeClient({
    server: info.server,
    ca: info.admin.ca,
    cert: info.admin.cert,
    key: info.admin.key,
  });
  return {
    ...info,
    client,
    faults: new Faults(client, notOwned),
    restartApiServer: notOwned,
  };
}

/**
 * Jest helper: the shared plane of the test run when the global setup started one, otherwise
 * (or with `dedicated`) a plane of this test file's own, stopped after its tests.
 */
export function useControlPlane(
  options: ControlPlaneOptions & { dedicated?: boolean } = {},
): () => SharedControlPlane {
  let plane: SharedControlPlane | undefined;
  let owned: ControlPlane | undefined;
  beforeAll(async () => {
    plane = options.dedicated ? undefined : connectSharedControlPlane();
    if (!plane) plane = owned = await startControlPlane(options);
  }, 180_000);
  afterAll(async () => {
    if (owned) await owned.stop();
    else plane?.client.close();
  }, 60_000);
  return () => {
    if (!plane)
      throw new Error(
        'the control plane is not started yet (call inside a test)',
      );
    return plane;
  };
}

/** A fresh namespace for one test, ready for pods (its default ServiceAccount exists). */
export async function createTestNamespace(
  client: KubeClient,
  prefix = 'test',
): Promise<string> {
  const ns = await client.create('/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { generateName: `${prefix}-` },
  });
  const name = ns.metadata.name!;
  await waitFor(`default ServiceAccount in ${name}`, () =>
    client.find(`/api/v1/namespaces/${name}/serviceaccounts/default`),
  );
  return name;
}
