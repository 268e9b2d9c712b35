import type { CacheService } from '@backstage/backend-plugin-api';
import type { JobRestore } from '@flink-standalone/plugin-flink-standalone-common';
import type { FlinkKubernetesCluster } from '../cluster/ClusterRegistry';
import { clusterKey } from '../cluster/clusterKey';
import type { FlinkRestObservation } from '../observer/types';
import type { SharedRestAnswers } from './sharedRestAnswers';
import { flinkRequest } from './flinkRequest';
import { taskManagerRestoreSource } from './restores';

/** Where a cluster's answer is shared between replicas (the plugin's cache is its own namespace). */
const sharedKey = (
  cluster: FlinkKubernetesCluster,
  namespace: string,
  name: string,
) => `rest-answer:${clusterKey(cluster.name, namespace, name)}`;

/** Whether a shared value is an answer (a store may hold what another version wrote). */
function isObservation(value: unknown): value is FlinkRestObservation {
  const answer = value as Partial<FlinkRestObservation> | undefined;
  return (
    typeof answer?.fetchedAt === 'string' &&
    typeof answer.reachable === 'boolean' &&
    !Number.isNaN(Date.parse(answer.fetchedAt))
  );
}

/** The endpoints the observer reads, fetched together. */
const ENDPOINTS = ['/overview', '/taskmanagers', '/jobs/overview'] as const;

type RestJob = NonNullable<FlinkRestObservation['jobs']>[number];

/** What a cluster's restores are known to be, and at which job transition each job was read. */
interface RestoreMemo {
  checked: Map<string, number | undefined>;
  latest?: JobRestore;
}

/**
 * The answers, or the error of the first endpoint that failed in the order they are listed (not
 * the first to fail in time): a cluster failing the same way each time is told the same way.
 */
function inOrder<T>(answers: PromiseSettledResult<T>[]): T[] {
  const failed = answers.find(a => a.status === 'rejected');
  if (failed) throw failed.reason;
  return answers.map(a => (a as PromiseFulfilledResult<T>).value);
}

/** @public */
export interface FlinkRestClientOptions {
  /** How long an answer is served before it is fetched again (default 5 s). */
  maxAgeMs?: number;
  /**
   * At most this many background refreshes start per second, over all Flink clusters (default
   * 20). Past it, an older answer is served (its `fetchedAt` says how old) and a later read
   * refreshes it. Bounds the Flink REST traffic through the API server whatever the viewers.
   */
  maxRefreshesPerSecond?: number;
  /**
   * Where backend replicas share their answers (the plugin's `CacheService`: with a shared store
   * such as Redis, one replica's refresh serves every replica's viewers). A background refresh
   * takes another replica's answer while it is within `maxAgeMs` instead of asking Flink; every
   * answer fetched is put there for `maxAgeMs`. A store that fails is passed over.
   */
  shared?: SharedRestAnswers;
  /** After each fetched answer is stored, with the Flink cluster it is about. */
  onAnswer?: (ref: {
    cluster: string;
    namespace: string;
    name: string;
  }) => void;
  now?: () => Date;
}

/** A JSON value as the cache takes it: an answer is plain JSON (no Dates, no class instances). */
type SharedValue = Parameters<CacheService['set']>[1];

/**
 * The defaults of {@link FlinkRestClientOptions}.
 *
 * @public
 */
export const FLINK_REST_REFRESH_DEFAULTS = {
  maxAgeMs: 5000,
  maxRefreshesPerSecond: 20,
} as const;

/**
 * A token bucket: `perSecond` tokens a second, at most one second's worth saved up, so a burst
 * of viewers after a quiet minute still starts no more than `perSecond` refreshes at once.
 */
class RefreshBudget {
  private tokens: number;
  private updatedAt: number;

  constructor(
    private readonly perSecond: number,
    private readonly now: () => number,
  ) {
    this.tokens = perSecond;
    this.updatedAt = now();
  }

  /** Takes one token if there is one. */
  take(): boolean {
    const now = this.now();
    this.tokens = Math.min(
      this.perSecond,
      this.tokens + ((now - this.updatedAt) / 1000) * this.perSecond,
    );
    this.updatedAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/**
 * Reads the Flink REST API of clusters, through the API server's service proxy (works wherever
 * the backend reaches the API server) or a direct URL. Answers are cached briefly and fetched
 * once for concurrent readers; `peek` never waits, so a status request never blocks on Flink.
 *
 * @public
 */
export class FlinkRestClient {
  private readonly cache = new Map<string, FlinkRestObservation>();
  private readonly inFlight = new Map<string, Promise<FlinkRestObservation>>();
  private readonly restores = new Map<string, RestoreMemo>();
  private readonly maxAgeMs: number;
  private readonly now: () => Date;
  private readonly budget: RefreshBudget;
  private readonly onAnswer: FlinkRestClientOptions['onAnswer'];
  private readonly shared: FlinkRestClientOptions['shared'];
  /** Refreshes started and refreshes put off for want of budget, since the start. */
  readonly refreshes = { started: 0, deferred: 0 };

  constructor(options: FlinkRestClientOptions = {}) {
    this.maxAgeMs = options.maxAgeMs ?? FLINK_REST_REFRESH_DEFAULTS.maxAgeMs;
    this.now = options.now ?? (() => new Date());
    this.onAnswer = options.onAnswer;
    this.shared = options.shared;
    this.budget = new RefreshBudget(
      options.maxRefreshesPerSecond ??
        FLINK_REST_REFRESH_DEFAULTS.maxRefreshesPerSecond,
      () => this.now().getTime(),
    );
  }

  /**
   * The latest answer (maybe none yet), and a refresh in the background when it is old and the
   * refresh budget allows (see `maxRefreshesPerSecond`).
   */
  peek(
    cluster: FlinkKubernetesCluster,
    namespace: string,
    name: string,
  ): FlinkRestObservation | undefined {
    const key = clusterKey(cluster.name, namespace, name);
    const cached = this.cache.get(key);
    const age = cached
      ? this.now().getTime() - Date.parse(cached.fetchedAt)
      : Infinity;
    if (age > this.maxAgeMs && !this.inFlight.has(key)) {
      if (this.budget.take()) {
        this.refreshes.started++;
        void this.refresh(cluster, namespace, name);
      } else {
        this.refreshes.deferred++;
      }
    }
    return cached;
  }

  /** The latest answer (maybe none yet), starting no refresh: for work no reader waits on. */
  latest(
    cluster: FlinkKubernetesCluster,
    namespace: string,
    name: string,
  ): FlinkRestObservation | undefined {
    return this.cache.get(clusterKey(cluster.name, namespace, name));
  }

  /** Fetches now (or joins the fetch in flight): never another replica's answer. */
  fetch(
    cluster: FlinkKubernetesCluster,
    namespace: string,
    name: string,
  ): Promise<FlinkRestObservation> {
    return this.inFlightOr(cluster, namespace, name, () =>
      this.observeAndShare(cluster, namespace, name),
    );
  }

  /** A background refresh: another replica's newer answer within the max age, else a fetch. */
  private refresh(
    cluster: FlinkKubernetesCluster,
    namespace: string,
    name: string,
  ): Promise<FlinkRestObservation> {
    return this.inFlightOr(
      cluster,
      namespace,
      name,
      async () =>
        (await this.sharedAnswer(cluster, namespace, name)) ??
        this.observeAndShare(cluster, namespace, name),
    );
  }

  /** One answer at a time per Flink cluster: a caller while one is coming joins it. */
  private inFlightOr(
    cluster: FlinkKubernetesCluster,
    namespace: string,
    name: string,
    answer: () => Promise<FlinkRestObservation>,
  ): Promise<FlinkRestObservation> {
    const key = clusterKey(cluster.name, namespace, name);
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = answer().then(observation => {
        this.cache.set(key, observation);
        this.inFlight.delete(key);
        this.onAnswer?.({ cluster: cluster.name, namespace, name });
        return observation;
      });
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  /**
   * Another replica's answer while within the max age (judged here too: a store may keep a value
   * past its TTL, memcached for instance counts whole seconds). Only asked when this replica's
   * own answer is older than that, so a taken answer is always the newer one.
   */
  private async sharedAnswer(
    cluster: FlinkKubernetesCluster,
    namespace: string,
    name: string,
  ): Promise<FlinkRestObservation | undefined> {
    if (!this.shared) return undefined;
    const answer = await this.shared
      .get(sharedKey(cluster, namespace, name))
      .catch(() => undefined);
    return isObservation(answer) &&
      this.now().getTime() - Date.parse(answer.fetchedAt) <= this.maxAgeMs
      ? answer
      : undefined;
  }

  private async observeAndShare(
    cluster: FlinkKubernetesCluster,
    namespace: string,
    name: string,
  ): Promise<FlinkRestObservation> {
    const observation = await this.observe(cluster, namespace, name);
    // Not waited for: a slow or failing store never holds up this replica's status.
    this.shared
      ?.set(
        sharedKey(cluster, namespace, name),
        observation as unknown as SharedValue,
        {
          ttl: this.maxAgeMs,
        },
      )
      .catch(() => {});
    return observation;
  }

  forget(cluster: string, namespace: string, name: string): void {
    this.cache.delete(clusterKey(cluster, namespace, name));
    this.restores.delete(clusterKey(cluster, namespace, name));
  }

  private async observe(
    cluster: FlinkKubernetesCluster,
    namespace: string,
    name: string,
  ): Promise<FlinkRestObservation> {
    const fetchedAt = this.now().toISOString();
    try {
      const [overview, taskManagers, jobs] = inOrder(
        await Promise.allSettled(
          ENDPOINTS.map(e => this.get(cluster, namespace, name, e)),
        ),
      );
      const observedJobs: RestJob[] = (jobs.jobs ?? []).map((job: any) => ({
        jid: job.jid,
        name: job.name,
        state: job.state,
        startTime: job['start-time'],
        lastModification: job['last-modification'],
        tasksRunning: job.tasks?.running,
        tasksTotal: job.tasks?.total,
      }));
      const taskManagerIds: string[] = (taskManagers.taskmanagers ?? []).map(
        (tm: any) => tm.id,
      );
      return {
        reachable: true,
        fetchedAt,
        overview: {
          flinkVersion: overview['flink-version'],
          taskmanagers: overview.taskmanagers,
          slotsTotal: overview['slots-total'],
          slotsAvailable: overview['slots-available'],
          jobsRunning: overview['jobs-running'],
          jobsFinished: overview['jobs-finished'],
          jobsCancelled: overview['jobs-cancelled'],
          jobsFailed: overview['jobs-failed'],
        },
        taskManagers: (taskManagers.taskmanagers ?? []).map((tm: any) => ({
          id: tm.id,
          path: tm.path,
          slotsNumber: tm.slotsNumber,
          freeSlots: tm.freeSlots,
          timeSinceLastHeartbeat: tm.timeSinceLastHeartbeat,
        })),
        jobs: observedJobs,
        lastRestore: await this.latestRestore(
          cluster,
          namespace,
          name,
          observedJobs,
          taskManagerIds,
        ),
      };
    } catch (error) {
      return {
        reachable: false,
        fetchedAt,
        unreachableReason: 'Error',
        error: (error as Error).message,
      };
    }
  }

  /**
   * The latest restore of a running job and where each TaskManager read its state. Flink's
   * REST API tells that a job restored (checkpoint statistics) but not from where; each
   * TaskManager's log does. So this reads, once per job transition (`last-modification`) and
   * only after all tasks run: the job's checkpoint statistics, then, for a new restore, each
   * TaskManager's log. Steady clusters cost nothing extra; a failure never hides the rest.
   */
  private async latestRestore(
    cluster: FlinkKubernetesCluster,
    namespace: string,
    name: string,
    jobs: RestJob[],
    taskManagerIds: string[],
  ): Promise<JobRestore | undefined> {
    const key = clusterKey(cluster.name, namespace, name);
    const memo: RestoreMemo = this.restores.get(key) ?? {
      checked: new Map(),
    };
    this.restores.set(key, memo);
    const settled = jobs.filter(
      job =>
        job.state === 'RUNNING' &&
        job.tasksTotal !== undefined &&
        job.tasksRunning === job.tasksTotal &&
        memo.checked.get(job.jid) !== job.lastModification,
    );
    for (const job of settled) {
      try {
        const stats = await this.get(
          cluster,
          namespace,
          name,
          `/jobs/${encodeURIComponent(job.jid)}/checkpoints`,
        );
        const restored = stats.latest?.restored;
        const isNewer =
          restored &&
          (!memo.latest ||
            restored.restore_timestamp > Date.parse(memo.latest.restoredAt));
        if (isNewer) {
          const sources = await Promise.all(
            taskManagerIds.map(async id => {
              const log = await this.getText(
                cluster,
                namespace,
                name,
                `/taskmanagers/${encodeURIComponent(id)}/log`,
              );
              return [
                id,
                taskManagerRestoreSource(log, restored.restore_timestamp),
              ] as const;
            }),
          );
          memo.latest = {
            jobId: job.jid,
            checkpointId: restored.id,
            restoredAt: new Date(restored.restore_timestamp).toISOString(),
            savepoint: Boolean(restored.is_savepoint),
            taskManagers: Object.fromEntries(sources),
          };
        }
        memo.checked.set(job.jid, job.lastModification);
      } catch {
        // Read again at the next refresh; the overview is still worth serving.
      }
    }
    return memo.latest;
  }

  private async get(
    cluster: FlinkKubernetesCluster,
    namespace: string,
    name: string,
    endpoint: string,
  ): Promise<any> {
    return JSON.parse(await this.getText(cluster, namespace, name, endpoint));
  }

  private getText(
    cluster: FlinkKubernetesCluster,
    namespace: string,
    name: string,
    endpoint: string,
  ): Promise<string> {
    return flinkRequest(cluster, namespace, name, { endpoint });
  }
}
