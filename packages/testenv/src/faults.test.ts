import { PodFailure } from './faults';
import { KubeObject } from './kubeClient';
import { waitFor } from './processes';
import { createTestNamespace, useControlPlane } from './shared';
import { createReadyPod, holds, isPodReady } from './testHelpers';

const plane = useControlPlane();

const podPath = (ns: string, name: string) =>
  `/api/v1/namespaces/${ns}/pods/${name}`;

function containerState(pod: KubeObject) {
  return pod.status.containerStatuses[0];
}

describe('fault helpers', () => {
  const failures: [PodFailure, (pod: KubeObject) => boolean][] = [
    [
      'CrashLoopBackOff',
      p =>
        containerState(p).state.waiting?.reason === 'CrashLoopBackOff' &&
        containerState(p).restartCount > 0,
    ],
    [
      'ImagePullBackOff',
      p =>
        containerState(p).state.waiting?.reason === 'ImagePullBackOff' &&
        p.status.phase === 'Pending',
    ],
    [
      'ErrImagePull',
      p => containerState(p).state.waiting?.reason === 'ErrImagePull',
    ],
    [
      'OOMKilled',
      p =>
        containerState(p).lastState.terminated?.reason === 'OOMKilled' &&
        containerState(p).lastState.terminated.exitCode === 137,
    ],
  ];

  it.each(failures)(
    'makes a Running pod report %s, and kwok leaves it so',
    async (failure, matches) => {
      const { client, faults } = plane();
      const ns = await createTestNamespace(client, 'fault');
      await createReadyPod(client, ns, 'victim');
      await faults.failPod(ns, 'victim', failure);
      await holds(`pod shows ${failure}`, async () => {
        const pod = await client.get(podPath(ns, 'victim'));
        return matches(pod) && !isPodReady(pod);
      });
    },
  );

  it('keeps a deleted pod Terminating until released', async () => {
    const { client, faults } = plane();
    const ns = await createTestNamespace(client, 'stuck');
    await createReadyPod(client, ns, 'stuck');
    await faults.stickTerminating(ns, 'stuck');
    await holds('pod Terminating', async () => {
      const pod = await client.find(podPath(ns, 'stuck'));
      return Boolean(pod?.metadata.deletionTimestamp);
    });
    await faults.releaseTerminating(ns, 'stuck');
    await waitFor(
      'pod gone',
      async () => !(await client.find(podPath(ns, 'stuck'))),
    );
  });

  it('makes a claim that stays Pending although the pool has volumes', async () => {
    const { client, faults } = plane();
    const ns = await createTestNamespace(client, 'pending');
    await faults.pendingClaim(ns, 'orphan');
    await holds(
      'claim Pending',
      async () => {
        const claim = await client.get(
          `/api/v1/namespaces/${ns}/persistentvolumeclaims/orphan`,
        );
        return claim.status.phase === 'Pending';
      },
      { forMs: 4000 },
    );
    const volumes = await client.list('/api/v1/persistentvolumes');
    expect(volumes.items.some(pv => pv.status.phase === 'Available')).toBe(
      true,
    );
  });

  it('emits a FailedMount warning event for a pod', async () => {
    const { client, faults } = plane();
    const ns = await createTestNamespace(client, 'mount');
    await createReadyPod(client, ns, 'mounter');
    await faults.failedMount(ns, 'mounter');
    const events = await client.list(
      `/api/v1/namespaces/${ns}/events?fieldSelector=${encodeURIComponent('involvedObject.name=mounter,reason=FailedMount')}`,
    );
    expect(events.items).toHaveLength(1);
    expect(events.items[0]).toMatchObject({
      type: 'Warning',
      involvedObject: { kind: 'Pod', name: 'mounter' },
      count: 3,
    });
  });
});
