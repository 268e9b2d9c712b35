import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseQuantity } from '../quantity';
import { EVICTION_FREE_DISK_FLOOR } from './config';

/**
 * Free disk a real node needs where its kubelet and containerd keep their state: the kubelet's
 * eviction floor plus room for a run (images imported once, about 1 GB; pods' logs and state).
 */
export const MIN_FREE_DISK_BYTES =
  parseQuantity(EVICTION_FREE_DISK_FLOOR) + parseQuantity('1536Mi');

const GIB = 2 ** 30;

/** Why a filesystem with `freeBytes` free cannot hold a real node's `dir`, or undefined if it can. */
export function freeDiskProblem(
  dir: string,
  freeBytes: number,
): string | undefined {
  if (freeBytes >= MIN_FREE_DISK_BYTES) return undefined;
  return (
    `a real node needs ${(MIN_FREE_DISK_BYTES / GIB).toFixed(1)} GiB free on the disk of ${dir}, ` +
    `it has ${(freeBytes / GIB).toFixed(2)} GiB: below ${EVICTION_FREE_DISK_FLOOR} the kubelet ` +
    `evicts pods and taints the node DiskPressure (no pod would start); free some space there ` +
    `(old clones or test runs in ${os.tmpdir()}, for example)`
  );
}

/** `dir` itself or its nearest parent that exists: the node's folders are made later, on that filesystem. */
export function nearestExistingDir(dir: string): string {
  let existing = dir;
  while (!fs.existsSync(existing)) existing = path.dirname(existing);
  return existing;
}

/** Bytes an unprivileged write could still use on the filesystem holding `dir` (or its nearest existing parent). */
export function freeDiskBytes(dir: string): number {
  const stats = fs.statfsSync(nearestExistingDir(dir));
  return stats.bavail * stats.bsize;
}

/** Throws the first problem among `dirs` before anything starts, instead of pods that never run. */
export function checkFreeDisk(dirs: string[]): void {
  for (const dir of dirs) {
    const problem = freeDiskProblem(dir, freeDiskBytes(dir));
    if (problem) throw new Error(problem);
  }
}
