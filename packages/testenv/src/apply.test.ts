import { KubeApiError } from './kubeClient';
import { createTestNamespace, useControlPlane } from './shared';

const plane = useControlPlane();

function deployment(namespace: string, spec: Record<string, unknown>) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'jm', namespace },
    spec: {
      selector: { matchLabels: { app: 'jm' } },
      template: {
        metadata: { labels: { app: 'jm' } },
        spec: { containers: [{ name: 'jm', image: 'flink:2.2' }] },
      },
      ...spec,
    },
  };
}

describe('server-side apply against the real API server', () => {
  it('accepts a valid object with dryRun=All without persisting it', async () => {
    const { client } = plane();
    const ns = await createTestNamespace(client, 'apply');
    const path = `/apis/apps/v1/namespaces/${ns}/deployments/jm`;
    const result = await client.apply(path, deployment(ns, { replicas: 1 }), {
      dryRun: true,
    });
    expect(result.metadata.uid).toBeDefined();
    expect(await client.find(path)).toBeUndefined();
  });

  it("rejects an unknown field and a wrong type with the API server's message", async () => {
    const { client } = plane();
    const ns = await createTestNamespace(client, 'apply-bad');
    const path = `/apis/apps/v1/namespaces/${ns}/deployments/jm`;
    const unknown = await client
      .apply(path, deployment(ns, { replicaz: 1 }), { dryRun: true })
      .catch(e => e);
    expect(unknown).toBeInstanceOf(KubeApiError);
    expect(unknown.message).toMatch(/replicaz/);
    const wrongType = await client
      .apply(path, deployment(ns, { replicas: 'three' }), { dryRun: true })
      .catch(e => e);
    expect(wrongType).toBeInstanceOf(KubeApiError);
    expect(wrongType.message).toMatch(/replicas/);
  });
});
