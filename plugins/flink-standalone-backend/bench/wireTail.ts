/**
 * Where the slowest requests at the wire spent their time. Each is matched, by its connection's
 * port and its time, with the moment the backend's main thread took it up (its server's
 * `request` event, before any middleware), which splits its time at the wire in two: waiting
 * before the backend's JavaScript saw it (the main thread busy with other work, in a GC pause, or
 * waiting for a core) and from then to its answer's last packet (the middleware, the route, the
 * write). Each is also checked against the main thread's GC pauses and the requests the backend
 * was serving to itself meanwhile (one plugin's call to another: catalog, permission).
 *
 * The packets' timestamps and the backend's are both the wall clock (the kernel's, and Node's
 * `performance.timeOrigin` plus its monotonic clock); a request whose times disagree (taken up
 * before its first packet or after its answer) is counted as such, none expected.
 */
import type { Profiler } from 'node:inspector';
import { ownerOf } from './heapProfile';
import { percentile } from './latency';
import type { GcPause } from './threadDelays';
import { wireMs, type WireRequest } from './wireCapture';

/** A request the backend's main thread took up: its connection's port, when (µs since the epoch). */
export interface TakenUp {
  port: number;
  atUs: number;
}

/** A span of the wall clock, µs since the epoch. */
export interface Span {
  startUs: number;
  endUs: number;
}

export interface WireTail {
  /** The requests at or over the phase's p99 at the wire. */
  count: number;
  thresholdMs: number;
  /** Of them, found in the backend's records with their times in order. */
  matched: number;
  /** Found with times out of order (the clocks disagreeing). */
  outOfOrder: number;
  /** Of the matched: waiting before the backend took them up, and from then on (ms). */
  beforeMs: { p50: number; max: number };
  afterMs: { p50: number; max: number };
  /** The same two at the median of every request of the phase, for comparison. */
  allBeforeP50Ms: number;
  allAfterP50Ms: number;
  /** Of the tail, those whose time at the wire overlapped a GC pause of the main thread. */
  duringGc: number;
  /** Of the tail, those whose time at the wire overlapped a call between plugins being served. */
  duringPluginCall: number;
  /** The tail's requests matched: first packet, taken up, answer's last packet (µs since the epoch). */
  windows: { sentUs: number; takenUpUs: number; answeredUs: number }[];
}

const overlaps = (a: Span, b: Span) =>
  a.startUs <= b.endUs && b.startUs <= a.endUs;

const median = (values: number[]) => percentile(values, 0.5);

/**
 * The moment each request was taken up, by connection; a connection's requests are at least
 * half a second apart, so the one within `slackUs` of a request's time at the wire is its own.
 */
function matcher(takenUp: TakenUp[], slackUs = 5_000) {
  const byPort = new Map<number, number[]>();
  for (const { port, atUs } of takenUp) {
    const times = byPort.get(port) ?? [];
    times.push(atUs);
    byPort.set(port, times);
  }
  return (request: WireRequest): number | undefined =>
    byPort
      .get(request.port)
      ?.find(
        atUs =>
          atUs >= request.sentUs - slackUs &&
          atUs <= request.answeredUs + slackUs,
      );
}

export function wireTail(
  requests: WireRequest[],
  takenUp: TakenUp[],
  gcPauses: GcPause[],
  pluginCalls: Span[],
): WireTail {
  const thresholdMs = percentile(requests.map(wireMs), 0.99);
  const takenUpAt = matcher(takenUp);
  const split = (request: WireRequest) => {
    const atUs = takenUpAt(request);
    if (atUs === undefined) return undefined;
    return {
      request,
      atUs,
      inOrder: atUs >= request.sentUs && atUs <= request.answeredUs,
      beforeMs: (atUs - request.sentUs) / 1000,
      afterMs: (request.answeredUs - atUs) / 1000,
    };
  };
  type Split = NonNullable<ReturnType<typeof split>>;
  const inOrder = (s: Split | undefined): s is Split => s?.inOrder === true;
  const all = requests.map(split).filter(inOrder);
  const tail = requests.filter(r => wireMs(r) >= thresholdMs);
  const tailSplits = tail.map(split);
  const matched = tailSplits.filter(inOrder);
  const gcSpans: Span[] = gcPauses.map(p => ({
    startUs: p.startMs * 1000,
    endUs: (p.startMs + p.durationMs) * 1000,
  }));
  const spanOf = (r: WireRequest): Span => ({
    startUs: r.sentUs,
    endUs: r.answeredUs,
  });
  return {
    count: tail.length,
    thresholdMs,
    matched: matched.length,
    outOfOrder: tailSplits.filter(s => s && !s.inOrder).length,
    beforeMs: {
      p50: median(matched.map(s => s.beforeMs)),
      max: Math.max(...matched.map(s => s.beforeMs)),
    },
    afterMs: {
      p50: median(matched.map(s => s.afterMs)),
      max: Math.max(...matched.map(s => s.afterMs)),
    },
    allBeforeP50Ms: median(all.map(s => s.beforeMs)),
    allAfterP50Ms: median(all.map(s => s.afterMs)),
    duringGc: tail.filter(r => gcSpans.some(g => overlaps(spanOf(r), g)))
      .length,
    duringPluginCall: tail.filter(r =>
      pluginCalls.some(c => overlaps(spanOf(r), c)),
    ).length,
    windows: matched.map(s => ({
      sentUs: s.request.sentUs,
      takenUpUs: s.atUs,
      answeredUs: s.request.answeredUs,
    })),
  };
}

/** The tail as one line of the phase's report. */
export function describeWireTail(t: WireTail): string {
  const ms = (v: number) => v.toFixed(2);
  return (
    `the slowest 1 % at the wire (${t.count} requests, ${ms(t.thresholdMs)} ms and over; ${t.matched} matched with the backend's records${t.outOfOrder ? `, ${t.outOfOrder} with times out of order` : ''}): ` +
    `before the backend's main thread took them up p50=${ms(t.beforeMs.p50)} max=${ms(t.beforeMs.max)} ms, from then to the answer p50=${ms(t.afterMs.p50)} max=${ms(t.afterMs.max)} ms ` +
    `(every request: ${ms(t.allBeforeP50Ms)} and ${ms(t.allAfterP50Ms)} at the median); ` +
    `${t.duringGc} during a GC pause of the main thread, ${t.duringPluginCall} while it served a call between plugins (catalog, permission)`
  );
}

/** Longer than this between two samples: the profiler's signal waited, so the thread was not running. */
const GAP_US = 1_500;
export const NOT_SAMPLED = 'no sample (the thread waiting for a core)';

/**
 * What the main thread was doing while the tail's requests waited to be taken up, from its CPU
 * profile (sampled every 0.5 ms): ms per activity over all the tail's waits. An activity is a
 * sample's innermost frame of a package or of this repository (`heapProfile`'s owners), or V8's
 * own (`(garbage collector)`, `(program)`, `(idle)`); a stretch with no sample for longer than
 * `GAP_US` is the thread not running, since the profiler's signal waits for the thread to run.
 */
export function tailWaitByActivity(
  /** Its clock is the monotonic one (µs). */
  profile: Profiler.Profile,
  monotonicToWallUs: number,
  windows: WireTail['windows'],
): [string, number][] {
  const byId = new Map(profile.nodes.map(node => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parentOf.set(child, node.id);
  const activityOf = (id: number): string => {
    const leaf = byId.get(id)!.callFrame;
    if (leaf.functionName.startsWith('(')) return leaf.functionName;
    for (
      let at: number | undefined = id;
      at !== undefined;
      at = parentOf.get(at)
    ) {
      const owner = ownerOf(byId.get(at)!.callFrame.url);
      if (owner && !owner.startsWith('node:')) return owner;
    }
    return leaf.url.startsWith('node:') ? leaf.url : '(V8 and Node internals)';
  };
  // Sample i ran at times[i]; the stretch since the one before is charged to it.
  const times: number[] = [];
  let at = profile.startTime + monotonicToWallUs;
  for (const delta of profile.timeDeltas ?? []) times.push((at += delta));
  const samples = profile.samples ?? [];
  const waited = new Map<string, number>();
  for (const { sentUs, takenUpUs } of windows) {
    for (let i = 1; i < times.length && times[i - 1] < takenUpUs; i++) {
      const from = Math.max(times[i - 1], sentUs);
      const to = Math.min(times[i], takenUpUs);
      if (to <= from) continue;
      const activity =
        times[i] - times[i - 1] > GAP_US ? NOT_SAMPLED : activityOf(samples[i]);
      waited.set(activity, (waited.get(activity) ?? 0) + (to - from) / 1000);
    }
  }
  return [...waited].sort((a, b) => b[1] - a[1]);
}
