import type { LoggerService } from '@backstage/backend-plugin-api';
import type {
  FlinkClusterStatus,
  FlinkRestSummary,
} from '@flink-standalone/plugin-flink-standalone-common';
import type {
  ClusterRegistry,
  FlinkKubernetesCluster,
} from '../cluster/ClusterRegistry';
import type { FlinkClusterRef } from '../apply/clusterOperations';
import { clusterKey } from '../cluster/clusterKey';
import { DEFAULT_OBSERVE_OPTIONS, observeCluster } from '../observer';
import type { FlinkRestObservation, ObserveOptions } from '../observer';
import { statusChangesAt } from '../observer/observeCluster';
import {
  JobManagerFacts,
  jobManagerFacts,
  summarizeRest,
} from '../observer/flink';
import { FlinkRestClient } from '../rest/FlinkRestClient';
import type { SharedRestAnswers } from '../rest/sharedRestAnswers';
import { ClusterWatchCache, SnapshotSources } from '../watch/ClusterWatchCache';
import {
  JsonParts,
  PrecompressedJson,
  jsonBody,
  precompressJson,
} from './precompressedJson';

/** @public */
export interface FlinkObserverOptions {
  registry: ClusterRegistry;
  logger?: LoggerService;
  stuckTerminatingAfterSeconds?: number;
  /** A StatefulSet rollout waiting longer than this for a pod to become Ready is blocked (default 300). */
  stuckRolloutAfterSeconds?: number;
  /** How long a Flink REST answer is reused (default 5 s). */
  restMaxAgeMs?: number;
  /** At most this many Flink REST refreshes start per second, over all clusters (default 20). */
  restMaxRefreshesPerSecond?: number;
  /** Where backend replicas share Flink REST answers (see FlinkRestClientOptions.shared). */
  sharedRestAnswers?: SharedRestAnswers;
  /** How long a first status request waits for a cache's initial sync (default 10 s). */
  initialSyncTimeoutMs?: number;
  now?: () => Date;
}

/**
 * A computed status, as what it was computed from and its UTF-8 JSON without its times (the
 * read's, and `flink.fetchedAt`) and opening brace. The status's objects are not kept: a memo
 * lives for seconds, past young GCs, and each would copy its objects and then promote them (a
 * status is tens of KB of small objects); a Buffer's bytes live outside the JavaScript heap and
 * are never copied. The REST answer it holds is the REST client's own, not a copy.
 */
interface Memo {
  ref: ObservedClusterRef;
  /** When a page last read it: while within KEEP_CURRENT_WHILE_READ_MS, kept current on change. */
  readAt: number;
  sources: SnapshotSources;
  version: string;
  /** When the clock alone changes the status (see statusChangesAt); undefined: never. */
  changesAt?: number;
  /** The Flink REST answer last found to give this status (each refetch is a new object). */
  rest?: FlinkRestObservation;
  /** What the JobManager's pods tell, to summarize a newer REST answer as the status would. */
  jobManager: JobManagerFacts;
  /** `flink` without its fetchedAt and opening brace, then a comma. */
  flink: Buffer;
  /**
   * `flink` as above, then the other fields (not the times), without the status's opening
   * brace; compressed too, as browsers ask for it.
   */
  body: PrecompressedJson;
}

/**
 * A status read within this long is recomputed as soon as its cluster changes; one read longer
 * ago (no page open on it), by its next read. Entity pages poll every 10 s by default.
 */
const KEEP_CURRENT_WHILE_READ_MS = 60_000;

/**
 * How long changes to clusters gather before their statuses are recomputed ahead of reads. A
 * change comes in a burst (a pod deleted: its deletion, the controller's new pod, the
 * scheduler's binding, the node's status updates, the events, the StatefulSet's status), about a
 * dozen writes within a second or two; gathered, they cost one or two computations instead of
 * one each. No read waits for them, nor gets an older status: a read that finds its status out
 * of date computes it itself.
 */
const AHEAD_GATHER_MS = 1_000;

const keyOf = (ref: ObservedClusterRef) =>
  clusterKey(ref.cluster, ref.namespace, ref.name);

/**
 * A Flink cluster in a Kubernetes cluster.
 *
 * @public
 */
export interface ObservedClusterRef extends FlinkClusterRef {
  cluster: string;
}

/**
 * Status of Flink clusters: one watch cache per Kubernetes cluster (started on first use,
 * shared by every entity), Flink REST answers cached per cluster, and the pure observer core.
 *
 * @public
 */
export class FlinkObserver {
  private readonly caches = new Map<
    string,
    { cache: ClusterWatchCache; synced: Promise<boolean> }
  >();
  private readonly rest: FlinkRestClient;
  private readonly now: () => Date;
  /** The last status per Flink cluster, reused while nothing it depends on changed. */
  private readonly computed = new Map<string, Memo>();
  /**
   * Statuses computed since the start: by a read that found its memo out of date, and ahead of
   * reads, on a change of a cluster whose status pages still read (for benchmarks and tests).
   */
  readonly statusesComputed = { onRead: 0, ahead: 0 };
  /**
   * Why those statuses were computed: the first of the cluster, a change in the watch cache of
   * what it was computed from, a Flink REST answer that says something new, or a time it
   * depends on passing (e.g. a pod terminating for too long). For benchmarks and diagnostics.
   */
  readonly recomputeCauses: Record<RecomputeCause, number> = {
    first: 0,
    cluster: 0,
    flink: 0,
    clock: 0,
  };
  /** Statuses still read whose clusters changed, gathering until the timer (see markDue). */
  private readonly gathering = new Set<string>();
  private gatherTimer?: ReturnType<typeof setTimeout>;
  /** Statuses gathered, now being recomputed one per turn of the event loop. */
  private readonly due = new Set<string>();
  private recomputing = false;

  constructor(private readonly options: FlinkObserverOptions) {
    this.now = options.now ?? (() => new Date());
    this.rest = new FlinkRestClient({
      maxAgeMs: options.restMaxAgeMs,
      maxRefreshesPerSecond: options.restMaxRefreshesPerSecond,
      shared: options.sharedRestAnswers,
      // A new answer may say something new: the status is recomputed ahead, as on a change.
      onAnswer: ref => this.markDue([keyOf(ref)]),
      now: this.now,
    });
  }

  /** The watch cache of a Kubernetes cluster, started on first use. */
  cacheOf(clusterName: string): ClusterWatchCache {
    return this.entry(clusterName).cache;
  }

  private entry(clusterName: string) {
    let entry = this.caches.get(clusterName);
    if (!entry) {
      const cluster = this.options.registry.get(clusterName);
      const cache = new ClusterWatchCache(cluster, {
        namespaces: cluster.allowedNamespaces,
        onChange: clusters => this.changed(clusterName, clusters),
      });
      cache.start();
      const synced = cache
        .synced(this.options.initialSyncTimeoutMs ?? 10_000)
        .then(() => true)
        .catch(error => {
          this.options.logger?.warn(
            `Flink watch cache of ${clusterName}: ${error.message}; serving stale status`,
          );
          return false;
        });
      entry = { cache, synced };
      this.caches.set(clusterName, entry);
    }
    return entry;
  }

  /**
   * The status of one Flink cluster, from memory: no Kubernetes request is made for it (the
   * Flink REST answer is refreshed in the background when old). A namespace outside the
   * cluster's allowed list is refused before anything else.
   */
  async getStatus(ref: ObservedClusterRef): Promise<FlinkClusterStatus> {
    // The JSON the route serves, parsed: one answer, and the rare callers (apply, remedies) pay.
    const parts = await this.getStatusJson(ref);
    return JSON.parse(
      Buffer.concat(jsonBody(parts, 'identity')).toString('utf8'),
    );
  }

  /**
   * The same status as UTF-8 JSON, in parts to be written in order (see jsonBody): this read's
   * times and its REST answer's, then the rest, serialized and compressed once per change of
   * the cluster or of what Flink answers, not once per request (entity pages poll far more
   * often than clusters change) nor per REST refetch, and not copied per request either.
   */
  async getStatusJson(ref: ObservedClusterRef): Promise<JsonParts> {
    const { memo, observedAt, lastSyncedAt } = await this.current(ref);
    const fetchedAt = memo.rest?.fetchedAt;
    const times = JSON.stringify({
      observedAt,
      lastSyncedAt,
      flink: { fetchedAt },
    });
    // `{"observedAt":…,"flink":{"fetchedAt":…` and a comma before flink's other fields, if any.
    const head = `${times.slice(0, -2)}${fetchedAt === undefined ? '' : ','}`;
    return [Buffer.from(head), memo.body];
  }

  /** The memoized status, computed anew when something it depends on changed. */
  private async current(
    ref: ObservedClusterRef,
  ): Promise<{ memo: Memo; observedAt: string; lastSyncedAt?: string }> {
    const cluster = this.options.registry.authorize(ref.cluster, ref.namespace);
    const entry = this.entry(ref.cluster);
    await entry.synced;
    const { cache } = entry;
    const rest = this.restAnswer(cluster, cache, ref, 'peek');
    const now = this.now();
    const memo = this.memoOf(ref, cache, rest, now, 'onRead');
    memo.readAt = now.getTime();
    // What may differ between reuses: when it was observed and, while connected, when the cache last synced.
    return {
      memo,
      observedAt: now.toISOString(),
      lastSyncedAt: cache.lastSyncedAt?.toISOString(),
    };
  }

  /**
   * The Flink REST answer a status is computed with: none before the JobManager exists; for a
   * read, `peek` (which refreshes an old answer), ahead of reads `latest` (which starts nothing).
   */
  private restAnswer(
    cluster: FlinkKubernetesCluster,
    cache: ClusterWatchCache,
    ref: ObservedClusterRef,
    how: 'peek' | 'latest',
  ): FlinkRestObservation | undefined {
    return cache.hasJobManager(ref.namespace, ref.name)
      ? this.rest[how](cluster, ref.namespace, ref.name)
      : undefined;
  }

  /** The memo of a cluster if still its status at `now`, else a new one. */
  private memoOf(
    ref: ObservedClusterRef,
    cache: ClusterWatchCache,
    rest: FlinkRestObservation | undefined,
    now: Date,
    when: keyof FlinkObserver['statusesComputed'],
  ): Memo {
    const memoKey = keyOf(ref);
    const previous = this.computed.get(memoKey);
    const cause = whyRecompute(previous, cache, rest, now);
    if (previous && !cause) return previous;
    this.statusesComputed[when]++;
    this.recomputeCauses[cause ?? 'first']++;
    const snapshot = cache.snapshot(ref.namespace, ref.name);
    const options: ObserveOptions = {
      now,
      stuckTerminatingAfterSeconds:
        this.options.stuckTerminatingAfterSeconds ??
        DEFAULT_OBSERVE_OPTIONS.stuckTerminatingAfterSeconds,
      stuckRolloutAfterSeconds:
        this.options.stuckRolloutAfterSeconds ??
        DEFAULT_OBSERVE_OPTIONS.stuckRolloutAfterSeconds,
    };
    const status = observeCluster(snapshot, rest, options);
    const sources = cache.sourcesOf(snapshot);
    const flink = flinkChunk(status.flink);
    const others = JSON.stringify({
      ...status,
      observedAt: undefined,
      lastSyncedAt: undefined,
      flink: undefined,
    }).slice(1);
    const memo: Memo = {
      ref,
      readAt: previous?.readAt ?? now.getTime(),
      sources,
      version: cache.version(sources),
      changesAt: statusChangesAt(snapshot, options),
      rest,
      jobManager: jobManagerFacts(snapshot),
      flink,
      body: precompressJson(Buffer.concat([flink, Buffer.from(others)])),
    };
    this.computed.set(memoKey, memo);
    return memo;
  }

  /**
   * A change in the watch cache of a Kubernetes cluster: the statuses it may change that pages
   * still read are recomputed soon, off the read path (see markDue and recomputeDue), so the
   * next read finds its status ready instead of computing it while the page waits.
   */
  private changed(clusterName: string, clusters: string[] | undefined): void {
    this.markDue(
      clusters
        ? clusters.map(cluster => `${clusterName}/${cluster}`)
        : [...this.computed.keys()].filter(key =>
            key.startsWith(`${clusterName}/`),
          ),
    );
  }

  /**
   * Of these clusters, those whose statuses pages still read are to be recomputed, with the
   * other changes that come within AHEAD_GATHER_MS of the first.
   */
  private markDue(keys: string[]): void {
    const now = this.now().getTime();
    for (const key of keys) {
      const memo = this.computed.get(key);
      if (memo && now - memo.readAt <= KEEP_CURRENT_WHILE_READ_MS)
        this.gathering.add(key);
    }
    if (this.gathering.size > 0 && !this.gatherTimer) {
      this.gatherTimer = setTimeout(() => this.gathered(), AHEAD_GATHER_MS);
      // Never what keeps a process alive: close() clears it, and a read needs none.
      this.gatherTimer.unref();
    }
  }

  /** The statuses gathered are due; changes from now on gather for the next round. */
  private gathered(): void {
    this.gatherTimer = undefined;
    for (const key of this.gathering) this.due.add(key);
    this.gathering.clear();
    if (!this.recomputing) {
      this.recomputing = true;
      setImmediate(() => this.recomputeDue());
    }
  }

  /** Statuses waiting to be recomputed ahead of reads, gathering or due (for tests). */
  get recomputesPending(): number {
    return this.gathering.size + this.due.size;
  }

  /**
   * One due status per turn of the event loop, so that reads arriving meanwhile are served in
   * between; one whose inputs turn out unchanged (the change was not among its sources, or a
   * read already recomputed it) stays as it is.
   */
  private recomputeDue(): void {
    const [key] = this.due;
    if (key === undefined) {
      this.recomputing = false;
      return;
    }
    this.due.delete(key);
    const memo = this.computed.get(key);
    const cache = memo && this.caches.get(memo.ref.cluster)?.cache;
    if (memo && cache) {
      const rest = this.restAnswer(cache.cluster, cache, memo.ref, 'latest');
      this.memoOf(memo.ref, cache, rest, this.now(), 'ahead');
    }
    setImmediate(() => this.recomputeDue());
  }

  /** Fetches the Flink REST answers now (e.g. while waiting for READY). */
  async refreshRest(ref: ObservedClusterRef): Promise<void> {
    const cluster = this.options.registry.authorize(ref.cluster, ref.namespace);
    await this.rest.fetch(cluster, ref.namespace, ref.name);
  }

  close(): void {
    for (const { cache } of this.caches.values()) cache.stop();
    this.caches.clear();
    this.computed.clear();
    clearTimeout(this.gatherTimer);
    this.gatherTimer = undefined;
    this.gathering.clear();
    this.due.clear();
  }
}

/**
 * Why a status is computed anew (see `FlinkObserver.recomputeCauses`).
 *
 * @public
 */
export type RecomputeCause = 'first' | 'cluster' | 'flink' | 'clock';

/** Why the memo is no longer the status at `now`; undefined: it still is. */
function whyRecompute(
  memo: Memo | undefined,
  cache: ClusterWatchCache,
  rest: FlinkRestObservation | undefined,
  now: Date,
): RecomputeCause | undefined {
  if (!memo) return 'first';
  if (memo.changesAt !== undefined && now.getTime() >= memo.changesAt)
    return 'clock';
  if (memo.version !== cache.version(memo.sources)) return 'cluster';
  return givesSameStatus(memo, rest) ? undefined : 'flink';
}

/**
 * Whether a REST answer gives the memo's status: the answer it was computed from, or a refetch
 * whose summary differs only in when it was fetched. Most refetches are such (Flink's counts
 * and jobs change rarely, its heartbeat times are not shown), and recomputing a status of tens
 * of KB for each would be most of the observer's work. A refetch found the same is remembered,
 * so it is summarized once, not once per read.
 */
function givesSameStatus(
  memo: Memo,
  rest: FlinkRestObservation | undefined,
): boolean {
  if (memo.rest === rest) return true;
  if (
    !rest ||
    !memo.flink.equals(flinkChunk(summarizeRest(rest, memo.jobManager)))
  )
    return false;
  memo.rest = rest;
  return true;
}

/** `status.flink` as the memo keeps it: its fetchedAt is served with each read's times. */
function flinkChunk(flink: FlinkRestSummary): Buffer {
  const json = JSON.stringify({ ...flink, fetchedAt: undefined });
  return Buffer.from(`${json.slice(1)},`);
}
