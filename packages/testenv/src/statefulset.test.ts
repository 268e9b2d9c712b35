import { KubeObject } from './kubeClient';
import { waitFor } from './processes';
import { createTestNamespace, useControlPlane } from './shared';
import { headlessService, isPodReady, waitForPodReady } from './testHelpers';

const plane = useControlPlane();

function statefulSet(
  name: string,
  whenScaled: 'Delete' | 'Retain',
): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name },
    spec: {
      replicas: 3,
      podManagementPolicy: 'Parallel',
      serviceName: name,
      selector: { matchLabels: { app: name } },
      persistentVolumeClaimRetentionPolicy: {
        whenDeleted: 'Delete',
        whenScaled,
      },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          containers: [
            {
              name: 'main',
              image: 'example.invalid/flink:2.2',
              volumeMounts: [{ name: 'data', mountPath: '/data' }],
            },
          ],
        },
      },
      volumeClaimTemplates: [
        {
          metadata: { name: 'data' },
          spec: {
            accessModes: ['ReadWriteOnce'],
            resources: { requests: { storage: '1Gi' } },
          },
        },
      ],
    },
  };
}

async function createStatefulSet(
  namespace: string,
  name: string,
  whenScaled: 'Delete' | 'Retain',
) {
  const { client } = plane();
  await client.create(
    `/api/v1/namespaces/${namespace}/services`,
    headlessService(name, 6122),
  );
  await client.create(
    `/apis/apps/v1/namespaces/${namespace}/statefulsets`,
    statefulSet(name, whenScaled),
  );
}

async function readyPods(
  namespace: string,
  app: string,
): Promise<KubeObject[]> {
  const pods = await plane().client.list(
    `/api/v1/namespaces/${namespace}/pods?labelSelector=app%3D${app}`,
  );
  return pods.items.filter(p => isPodReady(p) && !p.metadata.deletionTimestamp);
}

async function claims(namespace: string): Promise<Map<string, KubeObject>> {
  const list = await plane().client.list(
    `/api/v1/namespaces/${namespace}/persistentvolumeclaims`,
  );
  return new Map(list.items.map(c => [c.metadata.name!, c]));
}

async function waitForReadyReplicas(
  namespace: string,
  name: string,
  count: number,
) {
  return waitFor(
    `${count} Ready pods of ${name}`,
    async () => {
      const pods = await readyPods(namespace, name);
      return pods.length === count ? pods : undefined;
    },
    { timeoutMs: 60_000 },
  );
}

describe('StatefulSet on the real control plane', () => {
  it('runs 3 Parallel replicas with bound claims, keeps claim identity and honours whenScaled', async () => {
    const { client } = plane();
    const ns = await createTestNamespace(client, 'sts');
    await createStatefulSet(ns, 'tm', 'Delete');

    const pods = await waitForReadyReplicas(ns, 'tm', 3);
    expect(pods.map(p => p.metadata.name).sort()).toEqual([
      'tm-0',
      'tm-1',
      'tm-2',
    ]);
    await waitFor('three Bound claims', async () => {
      const all = await claims(ns);
      return ['data-tm-0', 'data-tm-1', 'data-tm-2'].every(
        n => all.get(n)?.status?.phase === 'Bound',
      );
    });
    const claimOfOne = (await claims(ns)).get('data-tm-1')!;
    const podOne = pods.find(p => p.metadata.name === 'tm-1')!;
    expect(
      podOne.spec.volumes.find((v: any) => v.name === 'data')
        .persistentVolumeClaim.claimName,
    ).toBe('data-tm-1');

    // A deleted pod comes back under the same name, bound to the same claim.
    await client.delete(`/api/v1/namespaces/${ns}/pods/tm-1`);
    const reborn = await waitForPodReady(client, ns, 'tm-1', {
      previousUid: podOne.metadata.uid,
      timeoutMs: 60_000,
    });
    expect(
      reborn.spec.volumes.find((v: any) => v.name === 'data')
        .persistentVolumeClaim.claimName,
    ).toBe('data-tm-1');
    const claimAfter = (await claims(ns)).get('data-tm-1')!;
    expect(claimAfter.metadata.uid).toBe(claimOfOne.metadata.uid);
    expect(claimAfter.spec.volumeName).toBe(claimOfOne.spec.volumeName);
    expect(claimAfter.status.phase).toBe('Bound');

    // whenScaled: Delete removes the claims of the removed ordinals.
    await client.patch(`/apis/apps/v1/namespaces/${ns}/statefulsets/tm/scale`, {
      spec: { replicas: 1 },
    });
    await waitFor(
      'claims -1 and -2 deleted',
      async () => {
        const all = await claims(ns);
        return (
          all.has('data-tm-0') && !all.has('data-tm-1') && !all.has('data-tm-2')
        );
      },
      { timeoutMs: 60_000 },
    );
    await waitForReadyReplicas(ns, 'tm', 1);
  });

  it('keeps the claims of removed ordinals with whenScaled: Retain', async () => {
    const { client } = plane();
    const ns = await createTestNamespace(client, 'sts-retain');
    await createStatefulSet(ns, 'keep', 'Retain');
    await waitForReadyReplicas(ns, 'keep', 3);

    await client.patch(
      `/apis/apps/v1/namespaces/${ns}/statefulsets/keep/scale`,
      { spec: { replicas: 1 } },
    );
    await waitFor(
      'pods -1 and -2 gone',
      async () => {
        const pods = await client.list(`/api/v1/namespaces/${ns}/pods`);
        return (
          pods.items.length === 1 && pods.items[0].metadata.name === 'keep-0'
        );
      },
      { timeoutMs: 60_000 },
    );
    // The controller has acted on the scale-down; with whenScaled: Delete it would have made the
    // scaled-away pods own their claims (the garbage collector then deletes them). Retain: no pod
    // owns one.
    await waitFor('the scale-down observed', async () => {
      const sts = await client.get(
        `/apis/apps/v1/namespaces/${ns}/statefulsets/keep`,
      );
      return (
        sts.status?.observedGeneration === sts.metadata.generation &&
        sts.status?.replicas === 1
      );
    });
    const all = await claims(ns);
    for (const name of ['data-keep-0', 'data-keep-1', 'data-keep-2']) {
      expect(all.get(name)?.status?.phase).toBe('Bound');
      const owners = (all.get(name)?.metadata.ownerReferences ?? []) as {
        kind: string;
      }[];
      expect(owners.filter(o => o.kind === 'Pod')).toEqual([]);
    }
  });

  it('binds a WaitForFirstConsumer claim once its pod is scheduled, and a claim larger than the pool PVs', async () => {
    const { client, storageClasses } = plane();
    const ns = await createTestNamespace(client, 'wffc');
    const claim = (
      name: string,
      storage: string,
      storageClassName?: string,
    ) => ({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name },
      spec: {
        accessModes: ['ReadWriteOnce'],
        resources: { requests: { storage } },
        ...(storageClassName ? { storageClassName } : {}),
      },
    });
    await client.create(
      `/api/v1/namespaces/${ns}/persistentvolumeclaims`,
      claim('late', '1Gi', storageClasses.waitForFirstConsumer),
    );
    await client.create(
      `/api/v1/namespaces/${ns}/persistentvolumeclaims`,
      claim('big', '500Gi'),
    );
    // The volume binder has looked at the claim and decided to wait (its event), not yet to bind.
    await waitFor('the binder waiting for a consumer of "late"', async () => {
      const events = await client.list(`/api/v1/namespaces/${ns}/events`);
      return events.items.some(
        e =>
          (e.involvedObject as { name?: string } | undefined)?.name ===
            'late' && e.reason === 'WaitForFirstConsumer',
      );
    });
    expect(
      (await client.get(`/api/v1/namespaces/${ns}/persistentvolumeclaims/late`))
        .status.phase,
    ).toBe('Pending');

    await client.create(`/api/v1/namespaces/${ns}/pods`, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'consumer' },
      spec: {
        containers: [
          {
            name: 'main',
            image: 'example.invalid/app:1',
            volumeMounts: [{ name: 'v', mountPath: '/v' }],
          },
        ],
        volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'late' } }],
      },
    });
    await waitFor(
      'both claims Bound',
      async () => {
        const all = await claims(ns);
        return (
          all.get('late')?.status?.phase === 'Bound' &&
          all.get('big')?.status?.phase === 'Bound'
        );
      },
      { timeoutMs: 60_000 },
    );
    expect((await claims(ns)).get('big')!.status.capacity.storage).toBe(
      '500Gi',
    );
  });
});
