import os from 'node:os';
import { parseQuantity } from '../quantity';
import {
  freeDiskBytes,
  freeDiskProblem,
  MIN_FREE_DISK_BYTES,
  nearestExistingDir,
} from './disk';

describe('free disk for a real node', () => {
  it('names the directory, what it has and the rule when the disk is too full', () => {
    const problem = freeDiskProblem('/tmp/run/node', parseQuantity('900Mi'));
    expect(problem).toContain('/tmp/run/node');
    expect(problem).toContain('it has 0.88 GiB');
    expect(problem).toContain('needs 2.0 GiB');
    expect(problem).toContain('below 512Mi the kubelet evicts pods');
  });

  it('accepts a disk with the eviction floor and room for a run', () => {
    expect(freeDiskProblem('/tmp/run/node', MIN_FREE_DISK_BYTES)).toBe(
      undefined,
    );
    expect(
      freeDiskProblem('/tmp/run/node', MIN_FREE_DISK_BYTES - 1),
    ).toBeDefined();
  });

  // Compares the folder read, not two free-space readings: other tests write while this one runs.
  it('reads the free space of the nearest existing parent of a directory not yet made', () => {
    const missing = `${os.tmpdir()}/not-made-yet/${process.pid}/node`;
    expect(nearestExistingDir(missing)).toBe(os.tmpdir());
    expect(nearestExistingDir(os.tmpdir())).toBe(os.tmpdir());
    expect(freeDiskBytes(missing)).toBeGreaterThan(0);
  });
});
