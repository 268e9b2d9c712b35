import fs from 'node:fs';
import {
  ControlPlane,
  ControlPlaneOptions,
  startControlPlane,
} from './controlPlane';
import { Faults } from './faults';
import { KubeClient } from './kubeClient';
import { waitFor } from './processes';
import type { RealNode } from './realNode';

/** What a test needs to know of the real node: its name, address and namespace annotations. */
export type RealNodeInfo = Pick<
  RealNode,
  'name' | 'address' | 'namespaceAnnotations'
>;

/** Set by the Jest global setup: the path of a JSON file describing the shared plane. */
export const SHARED_PLANE_ENV = 'FLINK_STANDALONE_TESTENV_PLANE';

/** A control plane as a test sees it: whether it started it or joined a shared one. */
export type SharedControlPlane = Omit<
  ControlPlane,
  'stop' | 'startupMs' | 'workDir' | 'realNode' | 'processes'
> & { realNode?: RealNodeInfo };

type PlaneFile = Pick<
  SharedControlPlane,
  | 'server'
  | 'kubeconfig'
  | 'kubeconfigPath'
  | 'admin'
  | 'nodes'
  | 'storageClasses'
  | 'realNode'
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
    realNode: plane.realNode && {
      name: plane.realNode.name,
      address: plane.realNode.address,
      namespaceAnnotations: plane.realNode.namespaceAnnotations,
    },
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

/**
 * A fresh namespace for one test, ready for pods (its default ServiceAccount exists). With
 * `annotations` (e.g. a real node's `namespaceAnnotations`) its pods are placed accordingly.
 */
export async function createTestNamespace(
  client: KubeClient,
  prefix = 'test',
  annotations: Record<string, string> = {},
): Promise<string> {
  const ns = await client.create('/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { generateName: `${prefix}-`, annotations },
  });
  const name = ns.metadata.name!;
  await waitFor(`default ServiceAccount in ${name}`, () =>
    client.find(`/api/v1/namespaces/${name}/serviceaccounts/default`),
  );
  return name;
}

/**
 * A fresh namespace whose pods run real containers on the plane's real node. Fails when the plane
 * has none: a test that needs real pods never falls back to fake ones.
 */
export async function createRealNodeNamespace(
  plane: SharedControlPlane,
  prefix = 'real',
): Promise<string> {
  if (!plane.realNode) {
    throw new Error(
      'this test needs the real node, and the control plane has none (started with FLINK_STANDALONE_REAL_NODE=false, or without the realNode option)',
    );
  }
  return createTestNamespace(
    plane.client,
    prefix,
    plane.realNode.namespaceAnnotations,
  );
}
