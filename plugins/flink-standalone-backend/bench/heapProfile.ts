/**
 * Diagnostics for the benchmark: what holds the backend's heap, by the code that allocated it.
 * V8's sampling heap profiler keeps a sample of the allocations that are still alive, each with
 * its stack; a sample's size is charged to the innermost frame in a file (a package in
 * node_modules, or this repository's code), since V8's and Node's own frames (JSON.parse, Buffer)
 * only say how, not who.
 */
import { Session } from 'node:inspector/promises';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  callFrame: CallFrame;
  selfSize: number;
  children: ProfileNode[];
}
export interface SamplingHeapProfile {
  head: ProfileNode;
}

/**
 * `node_modules/@scope/name/…` → `@scope/name`; a file of this repository → its package and
 * folder (`plugins/flink-standalone-node/src`, `…/bench`: the benchmark's own allocations).
 */
export function ownerOf(url: string): string | undefined {
  const path = url.replace(/^file:\/\//, '');
  const modules = path.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const [first, second] = path
      .slice(modules + '/node_modules/'.length)
      .split('/');
    return first.startsWith('@') ? `${first}/${second}` : first;
  }
  const repo = path.match(/\/((?:plugins|packages)\/[^/]+\/[^/]+|scripts)\//);
  return repo?.[1] ?? (path.startsWith('/') ? path : undefined);
}

/** Sampled bytes by owner (package or directory), largest first. */
export function bytesByOwner(profile: SamplingHeapProfile): [string, number][] {
  const bytes = new Map<string, number>();
  const visit = (node: ProfileNode, owner: string) => {
    const own = ownerOf(node.callFrame.url) ?? owner;
    if (node.selfSize > 0)
      bytes.set(own, (bytes.get(own) ?? 0) + node.selfSize);
    for (const child of node.children) visit(child, own);
  };
  visit(profile.head, '(V8 and Node internals)');
  return [...bytes].sort((a, b) => b[1] - a[1]);
}

/** The `count` largest owners, as `owner <size>`, e.g. "express 2.64, knex 0.75". */
export function largestOwners(
  owners: [string, number][],
  count: number,
  size: (bytes: number) => string,
): string {
  return owners
    .slice(0, count)
    .map(([owner, bytes]) => `${owner} ${size(bytes)}`)
    .join(', ');
}

/**
 * What a sampling profile keeps: what is `alive` when taken; everything `allocated` since the
 * start, collected or not (the allocation rate by code, which makes the young GCs run); or what
 * `survived` a young GC (alive, or collected only by a full GC: what young GCs copy and promote,
 * their cost). For `survived`, a young GC runs before the profile is taken (the benchmark starts
 * node with `--expose-gc`), so objects too young to have met one are not counted.
 */
export type HeapSampling = 'alive' | 'allocated' | 'survived';

/** Starts sampling this thread's allocations; `take()` returns the profile so far. */
export async function startHeapSampling(keep: HeapSampling = 'alive') {
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.enable');
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 64 * 1024,
    includeObjectsCollectedByMajorGC: keep !== 'alive',
    includeObjectsCollectedByMinorGC: keep === 'allocated',
  });
  return {
    take: async (): Promise<SamplingHeapProfile> => {
      if (keep === 'survived')
        global.gc?.({ type: 'minor', execution: 'sync' });
      return (await session.post('HeapProfiler.getSamplingProfile')).profile;
    },
    stop: async () => {
      await session.post('HeapProfiler.stopSampling');
      session.disconnect();
    },
  };
}
