import { isNodeReady } from './nodes';
import { waitFor } from './processes';
import { createTestNamespace, useControlPlane } from './shared';
import { createReadyPod, holds } from './testHelpers';

// These faults hit the whole cluster, so this file gets a plane of its own.
const plane = useControlPlane({ dedicated: true, nodes: 2 });

describe('cluster-wide fault helpers', () => {
  it('takes a node NotReady (tainted by the node-lifecycle controller) and back', async () => {
    const { client, faults, nodes } = plane();
    const node = nodes[1];
    await faults.nodeNotReady(node);
    await holds(
      'node NotReady',
      async () => !isNodeReady(await client.get(`/api/v1/nodes/${node}`)),
      {
        forMs: 5000,
      },
    );
    await waitFor('not-ready taint', async () => {
      const taints =
        (await client.get(`/api/v1/nodes/${node}`)).spec.taints ?? [];
      return taints.some(
        (t: { key: string }) => t.key === 'node.kubernetes.io/not-ready',
      );
    });
    // nodeReady returns once the node is back as it was: Ready, the taints lifted.
    await faults.nodeReady(node);
    const back = await client.get(`/api/v1/nodes/${node}`);
    expect(isNodeReady(back)).toBe(true);
    expect(
      (back.spec.taints ?? []).map((t: { key: string }) => t.key),
    ).not.toContain('node.kubernetes.io/not-ready');
  });

  it('restarts the API server; objects survive and clients reconnect', async () => {
    const { client, faults } = plane();
    const ns = await createTestNamespace(client, 'restart');
    await createReadyPod(client, ns, 'survivor');
    await faults.restartApiServer();
    const pod = await client.get(`/api/v1/namespaces/${ns}/pods/survivor`);
    expect(pod.metadata.name).toBe('survivor');
    // Controllers keep working after the restart: a new pod is scheduled and run.
    await createReadyPod(client, ns, 'after-restart');
  });
});
