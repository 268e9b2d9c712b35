/**
 * How long a thread could not run its JavaScript while measured: its event loop's delays and
 * its GC pauses by kind: the backend's main thread's, where status requests wait.
 */
import {
  NodeGCPerformanceDetail,
  PerformanceEntry,
  PerformanceObserver,
  constants as perf,
  monitorEventLoopDelay,
  performance,
} from 'node:perf_hooks';

/** Node's names for the kinds of GC it reports, in V8's words. */
const GC_KINDS: Record<number, string> = {
  [perf.NODE_PERFORMANCE_GC_MINOR]: 'scavenge',
  [perf.NODE_PERFORMANCE_GC_MAJOR]: 'mark-compact',
  [perf.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental marking',
  [perf.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
};

export interface GcTally {
  count: number;
  totalMs: number;
  maxMs: number;
}

/** A GC pause of the thread, on the wall clock (ms since the epoch, sub-millisecond). */
export interface GcPause {
  startMs: number;
  durationMs: number;
}

export interface ThreadDelays {
  eventLoopP99Ms: number;
  eventLoopMaxMs: number;
  gcMaxMs: number;
  gcByKind: Record<string, GcTally>;
  gcPauses: GcPause[];
}

/** Watches the calling thread's event loop and GC until `stop`. */
export function watchThreadDelays(): { stop(): ThreadDelays } {
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  const gcByKind: Record<string, GcTally> = {};
  const gcPauses: GcPause[] = [];
  let gcMaxMs = 0;
  const gc = new PerformanceObserver(list => {
    for (const entry of list.getEntries()) {
      gcMaxMs = Math.max(gcMaxMs, entry.duration);
      gcPauses.push({
        startMs: performance.timeOrigin + entry.startTime,
        durationMs: entry.duration,
      });
      // A 'gc' entry's detail (Node's types leave it off PerformanceEntry).
      const { kind: gcKind } = (
        entry as PerformanceEntry & { detail: NodeGCPerformanceDetail }
      ).detail;
      const kind = GC_KINDS[gcKind] ?? 'other';
      const tally = (gcByKind[kind] ??= { count: 0, totalMs: 0, maxMs: 0 });
      tally.count += 1;
      tally.totalMs += entry.duration;
      tally.maxMs = Math.max(tally.maxMs, entry.duration);
    }
  });
  gc.observe({ entryTypes: ['gc'] });
  return {
    stop() {
      loop.disable();
      gc.disconnect();
      return {
        eventLoopP99Ms: loop.percentile(99) / 1e6,
        eventLoopMaxMs: loop.max / 1e6,
        gcMaxMs,
        gcByKind,
        gcPauses,
      };
    },
  };
}

/** E.g. "scavenge 7x 54 ms (max 15.9), mark-compact 1x 20 ms (max 19.9)". */
export function describeGc(gcByKind: Record<string, GcTally>): string {
  const kinds = Object.entries(gcByKind);
  if (kinds.length === 0) return 'none';
  return kinds
    .map(
      ([kind, t]) =>
        `${kind} ${t.count}x ${t.totalMs.toFixed(0)} ms (max ${t.maxMs.toFixed(1)})`,
    )
    .join(', ');
}
