import { whyNotReady } from './testHelpers';

describe('whyNotReady', () => {
  it('says what keeps a pod Pending: the scheduler condition with its message', () => {
    expect(
      whyNotReady({
        metadata: { name: 'writer-0' },
        status: {
          phase: 'Pending',
          conditions: [
            {
              type: 'PodScheduled',
              status: 'False',
              reason: 'Unschedulable',
              message:
                '0/4 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/disk-pressure: }',
            },
          ],
        },
      }),
    ).toBe(
      'phase Pending; PodScheduled Unschedulable: 0/4 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/disk-pressure: }',
    );
  });

  it('names waiting containers and leaves out conditions that hold', () => {
    expect(
      whyNotReady({
        metadata: { name: 'writer-0' },
        status: {
          phase: 'Pending',
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
        },
      }),
    ).toBe(
      'phase Pending; Ready ContainersNotReady; main waiting ErrImagePull: not found',
    );
  });

  it('says when there is no pod', () => {
    expect(whyNotReady(undefined)).toBe('no such pod');
  });
});
