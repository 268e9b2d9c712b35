import { responseError } from '../testing/responseError';
import {
  describeError,
  describeRest,
  describeRollout,
  formatDuration,
  formatJobs,
  formatRetention,
} from './format';

describe('format', () => {
  it.each([
    [0, '0 s'],
    [119_000, '119 s'],
    [120_000, '2 min'],
    [119 * 60_000, '119 min'],
    [120 * 60_000, '2 h'],
    [47 * 3600_000, '47 h'],
    [49 * 3600_000, '2 d'],
    [-5000, '0 s'],
  ])('formats %d ms as %s', (milliseconds, text) => {
    expect(formatDuration(milliseconds)).toBe(text);
  });

  it('describes a rollout: blocked with its remedy, else progress', () => {
    const workload = {
      kind: 'StatefulSet' as const,
      name: 'orders-taskmanager',
      component: 'taskmanager' as const,
      replicas: { desired: 3, current: 3, ready: 2, updated: 1, available: 2 },
      rolloutComplete: false,
    };
    expect(describeRollout(workload)).toBe('1/3 updated');
    expect(
      describeRollout({
        ...workload,
        rolloutBlocked: {
          pod: 'orders-taskmanager-2',
          updateRevision: 'r1',
          notReadySince: '2026-12-03T12:00:00Z',
          deleteRequired: true,
          message:
            'the rollout stays blocked until pod orders-taskmanager-2 is deleted',
        },
      }),
    ).toBe(
      'blocked: the rollout stays blocked until pod orders-taskmanager-2 is deleted',
    );
  });

  it('lists jobs by state, leaving out empty states', () => {
    expect(formatJobs({ RUNNING: 2, FAILED: 0, CANCELED: 1 })).toBe(
      '2 RUNNING, 1 CANCELED',
    );
    expect(formatJobs({})).toBe('none');
  });

  it('explains retention, ephemeral volumes included', () => {
    expect(
      formatRetention({ whenDeleted: 'Retain', whenScaled: 'Delete' }),
    ).toBe('whenDeleted: Retain, whenScaled: Delete');
    expect(formatRetention('Ephemeral')).toBe(
      'Ephemeral (deleted with its pod)',
    );
  });

  it('says why REST does not answer', () => {
    expect(
      describeRest({
        reachable: false,
        unreachableReason: 'Error',
        error: 'connect ECONNREFUSED',
        jobsByState: {},
      }),
    ).toBe('REST not reachable: connect ECONNREFUSED');
    expect(describeRest({ reachable: false, jobsByState: {} })).toBe(
      'REST not queried yet',
    );
  });

  it('puts the backend message of a ResponseError first', async () => {
    const error = await responseError(
      409,
      'ConflictError',
      'field is immutable',
    );
    expect(describeError(error)).toBe(
      'field is immutable (Request failed with 409 ConflictError)',
    );
    expect(describeError(new Error('Failed to fetch'))).toBe('Failed to fetch');
  });
});
