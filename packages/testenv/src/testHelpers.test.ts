import { KubeObject } from './kubeClient';
import { whyNotReady } from './testHelpers';

const pending = (status: KubeObject['status']): KubeObject => ({
  metadata: { name: 'writer-0' },
  status: { phase: 'Pending', ...status },
});

describe('whyNotReady', () => {
  it('says what keeps a pod Pending: the scheduler condition with its message', () => {
    const taint =
      '0/4 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/disk-pressure: }';
    expect(
      whyNotReady(
        pending({
          conditions: [
            {
              type: 'PodScheduled',
              status: 'False',
              reason: 'Unschedulable',
              message: taint,
            },
          ],
        }),
      ),
    ).toBe(`phase Pending; PodScheduled Unschedulable: ${taint}`);
  });

  it('names waiting containers and leaves out conditions that hold', () => {
    expect(
      whyNotReady(
        pending({
          conditions: [
            { type: 'PodScheduled', status: 'True' },
            { type: 'Ready', status: 'False', reason: 'ContainersNotReady' },
          ],
          containerStatuses: [
            {
              name: 'main',
              state: {
                waiting: { reason: 'ErrImagePull', message: 'not found' },
              },
            },
            { name: 'side', state: { running: {} } },
          ],
        }),
      ),
    ).toBe(
      'phase Pending; Ready ContainersNotReady; main waiting ErrImagePull: not found',
    );
  });

  it('says when there is no pod', () => {
    expect(whyNotReady(undefined)).toBe('no such pod');
  });
});
