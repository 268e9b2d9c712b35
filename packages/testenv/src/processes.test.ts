import { KubeApiError } from './kubeClient';
import { FatalError, waitFor } from './processes';

/** A check that answers from a list, one entry per call; an Error entry is thrown. */
function answers(...list: unknown[]) {
  let calls = 0;
  const check = async () => {
    const next = list[Math.min(calls, list.length - 1)];
    calls += 1;
    if (next instanceof Error) throw next;
    return next;
  };
  return { check, calls: () => calls };
}

const fast = { timeoutMs: 200, intervalMs: 1 };
const apiError = (status: number) =>
  new KubeApiError('GET', '/api/v1/x', status, undefined, {});

describe('waitFor', () => {
  it.each([[0], [''], [null], [false], [undefined]])(
    'takes %j as "not yet", never as success',
    async notYet => {
      const { check, calls } = answers(notYet);
      await expect(waitFor('x', check, fast)).rejects.toThrow(
        `timed out after 200 ms waiting for x; last answer: ${JSON.stringify(notYet) ?? 'undefined'}`,
      );
      expect(calls()).toBeGreaterThan(1);
    },
  );

  it('returns the first value that says success', async () => {
    const { check, calls } = answers(0, false, { ready: 3 });
    await expect(waitFor('x', check, fast)).resolves.toEqual({ ready: 3 });
    expect(calls()).toBe(3);
  });

  it('retries errors a condition passes through (404 before the object exists, a refused connection)', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED'), {
      code: 'ECONNREFUSED',
    });
    const { check, calls } = answers(apiError(404), refused, 'up');
    await expect(waitFor('x', check, fast)).resolves.toBe('up');
    expect(calls()).toBe(3);
  });

  it('names the last error when it times out', async () => {
    const { check } = answers(apiError(404));
    await expect(waitFor('the pod', check, fast)).rejects.toThrow(
      /waiting for the pod; last error: .*404/,
    );
  });

  it.each([
    ['a TypeError (a bug in the check)', new TypeError('x is undefined')],
    ['a 422 (an invalid request never becomes valid)', apiError(422)],
    ['a 400', apiError(400)],
    ['a FatalError', new FatalError('the process exited')],
  ])('throws %s at once', async (_what, error) => {
    const { check, calls } = answers(error, 'never');
    await expect(
      waitFor('x', check, { timeoutMs: 60_000, intervalMs: 1 }),
    ).rejects.toBe(error);
    expect(calls()).toBe(1);
  });

  it('throws a failed assertion at once', async () => {
    let calls = 0;
    const check = () => {
      calls += 1;
      expect(calls).toBe(0);
      return true;
    };
    const failure = await waitFor('x', check, {
      timeoutMs: 60_000,
      intervalMs: 1,
    }).catch(e => e);
    expect(String(failure)).toMatch(/toBe/);
    expect(calls).toBe(1);
  });

  it('retries what retryOn allows', async () => {
    const { check, calls } = answers(new TypeError('flaky'), 'done');
    await expect(
      waitFor('x', check, { ...fast, retryOn: () => true }),
    ).resolves.toBe('done');
    expect(calls()).toBe(2);
  });
});
