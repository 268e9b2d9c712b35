import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fromYaml } from '@flink-standalone/plugin-flink-standalone-common';
import {
  createTestNamespace,
  useControlPlane,
} from '@flink-standalone/testenv';
import type { KubernetesObject } from '@kubernetes/client-node';
import {
  TEST_CLUSTER,
  backendToken,
  registryFor,
} from '../__testUtils__/backendAccess';
import type { FlinkKubernetesCluster } from '../cluster/ClusterRegistry';
import { applyCluster, applyReportOf } from './applyCluster';

const EXAMPLES = resolve(__dirname, '../../../../examples/clusters');
const rendered = readdirSync(EXAMPLES)
  .filter(f => f.endsWith('.rendered.yaml'))
  .sort();

const plane = useControlPlane();
let cluster: FlinkKubernetesCluster;

beforeAll(async () => {
  // The backend's least-privilege account: a kind missing from its RBAC fails here.
  cluster = registryFor(plane(), await backendToken(plane())).get(TEST_CLUSTER);
});

/** The example's objects, moved to a namespace of this test's own (other tests use the originals). */
async function inTestNamespace(file: string): Promise<any[]> {
  const namespace = await createTestNamespace(plane().client, 'examples');
  return (fromYaml(readFileSync(join(EXAMPLES, file), 'utf8')) as any[]).map(
    object => ({
      ...object,
      metadata: { ...object.metadata, namespace },
      ...(object.subjects && {
        subjects: object.subjects.map((s: any) => ({ ...s, namespace })),
      }),
    }),
  );
}

describe('the rendered examples in the real API server', () => {
  it('has examples to check', () => {
    expect(rendered.length).toBeGreaterThanOrEqual(6);
  });

  it.each(rendered)(
    '%s: server-side apply with dryRun=All accepts every object',
    async file => {
      const objects = (await inTestNamespace(file)) as KubernetesObject[];
      const result = await applyCluster(cluster, objects, { dryRun: true });
      expect(result.objects.map(o => `${o.kind}/${o.name}`)).toEqual(
        objects.map(o => `${o.kind}/${o.metadata!.name}`),
      );
      expect(result.objects.every(o => o.action === 'created')).toBe(true);
      // A binding to a Role only dry-run created cannot be checked by the API server; say so.
      for (const binding of result.objects.filter(
        o => o.kind === 'RoleBinding',
      )) {
        expect(binding.note).toMatch(/Role .* does not exist yet/);
      }
    },
  );

  it("rejects an invalid object with the API server's message", async () => {
    const objects = await inTestNamespace('minimal.rendered.yaml');
    const workload = objects.find(o => o.kind === 'StatefulSet');
    workload.spec.replicas = -1;
    const error = await applyCluster(cluster, objects, { dryRun: true }).catch(
      e => e,
    );
    expect(error.name).toBe('InputError');
    expect(error.message).toMatch(
      /StatefulSet\/sandbox-taskmanager was refused by the API server/,
    );
    expect(error.message).toMatch(
      /spec\.replicas: Invalid value: -1: must be greater than or equal to 0/,
    );
    expect(applyReportOf(error)?.failed.object).toBe(
      'StatefulSet/sandbox-taskmanager',
    );
  });
});
