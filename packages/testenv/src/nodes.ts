import { KWOK_NODE_ANNOTATION } from './components';
import { KubeClient, KubeObject } from './kubeClient';
import { waitFor } from './processes';

export interface FakeNodeSpec {
  name: string;
  zone: string;
  labels?: Record<string, string>;
}

export const ZONE_LABEL = 'topology.kubernetes.io/zone';

/** Three nodes in three zones unless told otherwise. */
export function defaultNodes(count = 3): FakeNodeSpec[] {
  return Array.from({ length: count }, (_, i) => ({
    name: `kwok-node-${i}`,
    zone: `zone-${String.fromCharCode(97 + (i % 26))}`,
  }));
}

/**
 * Simulated nodes cost nothing: room for every cluster a whole test run leaves on the shared
 * plane (about 30 CPU-requesting clusters filled 3 × 32 CPUs, and later pods stayed Pending).
 */
const CAPACITY = {
  cpu: '1000',
  memory: '8Ti',
  pods: '1000',
  'ephemeral-storage': '1Ti',
};

function nodeObject(spec: FakeNodeSpec): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: spec.name,
      annotations: {
        [KWOK_NODE_ANNOTATION]: 'fake',
        'node.alpha.kubernetes.io/ttl': '0',
      },
      labels: {
        'kubernetes.io/arch': 'amd64',
        'kubernetes.io/os': 'linux',
        'kubernetes.io/hostname': spec.name,
        'node.kubernetes.io/instance-type': 'kwok',
        'topology.kubernetes.io/region': 'testenv',
        [ZONE_LABEL]: spec.zone,
        type: 'kwok',
        ...spec.labels,
      },
    },
    spec: {},
    status: {
      capacity: CAPACITY,
      allocatable: CAPACITY,
      nodeInfo: {
        architecture: 'amd64',
        operatingSystem: 'linux',
        kubeletVersion: 'kwok',
        kubeProxyVersion: 'kwok',
      },
    },
  };
}

export function isNodeReady(node: KubeObject): boolean {
  return (node.status?.conditions ?? []).some(
    (c: { type: string; status: string }) =>
      c.type === 'Ready' && c.status === 'True',
  );
}

/** Creates fake nodes for kwok to run (it plays their kubelets) and waits until they are Ready. */
export async function createFakeNodes(
  client: KubeClient,
  specs: FakeNodeSpec[],
  timeoutMs = 20_000,
): Promise<string[]> {
  for (const spec of specs) {
    const created = await client.create('/api/v1/nodes', nodeObject(spec));
    // Node status is not always kept on create; set capacity through the status subresource.
    if (!created.status?.capacity?.pods) {
      await client.patch(`/api/v1/nodes/${spec.name}/status`, {
        status: nodeObject(spec).status,
      });
    }
  }
  await waitFor(
    'fake nodes Ready',
    async () => {
      const nodes = await client.list('/api/v1/nodes');
      const ready = nodes.items.filter(isNodeReady).map(n => n.metadata.name);
      return specs.every(s => ready.includes(s.name));
    },
    { timeoutMs },
  );
  return specs.map(s => s.name);
}
