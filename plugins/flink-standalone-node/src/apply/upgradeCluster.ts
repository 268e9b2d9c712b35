import {
  ClusterSpec,
  parseSavepointHistory,
  renderCluster,
  SAVEPOINT_HISTORY_ANNOTATION,
} from '@flink-standalone/plugin-flink-standalone-common';
import type {
  ChangePlan,
  SavepointRecord,
  UpgradeMode,
} from '@flink-standalone/plugin-flink-standalone-common';
import { ConflictError, InputError, NotFoundError } from '@backstage/errors';
import type { KubernetesObject } from '@kubernetes/client-node';
import type { FlinkKubernetesCluster } from '../cluster/ClusterRegistry';
import type { FlinkObserver } from '../service/FlinkObserver';
import { flinkRequest } from '../rest/flinkRequest';
import { applyCluster, ApplyOptions, ApplyResult } from './applyCluster';
import { planClusterChange } from './changePlan';
import { findJobManagerWorkload } from './clusterOperations';
import { recordSavepoint } from './savepointHistory';

/** @public */
export interface UpgradeOptions extends Pick<
  ApplyOptions,
  'force' | 'recreate' | 'onProgress'
> {
  mode: UpgradeMode;
  /**
   * Where savepoints go; without it, the cluster's configured savepoint directory
   * (`execution.checkpointing.savepoint-dir` or `state.savepoints.dir`).
   */
  savepointDirectory?: string;
  /** Each step, as a sentence for a task log. */
  log?: (line: string) => void;
  signal?: AbortSignal;
  /** How long a savepoint, and the job's start from it, may take (default 5 minutes each). */
  timeoutMs?: number;
  pollMs?: number;
}

/** @public */
export interface UpgradeResult {
  plan: ChangePlan;
  /** The savepoints taken before applying (none unless the plan restarts pods running jobs). */
  savepoints: SavepointRecord[];
  /** The spec applied: the given one, with the savepoint as initial savepoint in application mode. */
  applied: ClusterSpec;
  result: ApplyResult;
  /** The application job, running again from the savepoint (application mode, `savepoint`). */
  resumedJobId?: string;
}

interface RestJob {
  jid: string;
  name: string;
  state: string;
}

const SAVEPOINT_DIRECTORY_KEYS = [
  'execution.checkpointing.savepoint-dir',
  'state.savepoints.dir',
];

/** Job effects that lose the progress of running jobs unless a savepoint is taken first. */
const EFFECTS_THAT_RESTART_JOBS = new Set([
  'failover',
  'restore-from-checkpoint',
  'restart-from-savepoint',
  'lost',
]);

/**
 * A change to a cluster in one of the Flink operator's upgrade modes:
 * - `stateless`: apply; running jobs live with what the plan says (fail over, restart, are lost);
 * - `last-state`: apply where jobs resume from their latest checkpoint by themselves
 *   (TaskManager restarts; with Kubernetes HA, JobManager restarts and suspends too);
 * - `savepoint`: when the change restarts pods running jobs, or suspends the cluster, stop every
 *   running job with a savepoint (Flink's REST API, through the API server's proxy), record it in
 *   the cluster's history, apply, and in application mode start the job from that savepoint and
 *   wait until it runs restored from it. Session clusters' jobs are stopped and their savepoints
 *   named: their jars live with whoever submitted them, so submitting them again is theirs.
 *
 * Resuming (a suspended application cluster applied with `state: running`) in `savepoint` mode
 * starts the job from the newest savepoint of the history.
 *
 * A failure or a cancellation after a job stopped leaves a clear state: the job stopped, its
 * savepoint recorded and named in the error, nothing or everything applied.
 *
 * @public
 */
export async function upgradeCluster(
  cluster: FlinkKubernetesCluster,
  observer: Pick<FlinkObserver, 'getStatus'>,
  spec: ClusterSpec,
  options: UpgradeOptions,
): Promise<UpgradeResult> {
  const log = options.log ?? (() => {});
  const targetDirectory =
    options.mode === 'savepoint'
      ? savepointDirectoryOf(spec, options.savepointDirectory)
      : undefined;
  const [plan, jobManager] = await Promise.all([
    planClusterChange(cluster, observer, spec),
    // None yet: a new cluster.
    findJobManagerWorkload(cluster, spec).catch(error => {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    }),
  ]);
  for (const line of plan.lines) log(`Plan: ${line}`);
  const polling = {
    signal: options.signal,
    timeoutMs: options.timeoutMs ?? 300_000,
    pollMs: options.pollMs ?? 1000,
  };
  const apply = (toApply: ClusterSpec) =>
    applyCluster(cluster, renderCluster(toApply) as KubernetesObject[], {
      force: options.force,
      recreate: options.recreate,
      onProgress: options.onProgress,
      signal: options.signal,
    });
  const plainly = async (line: string): Promise<UpgradeResult> => {
    log(line);
    return { plan, savepoints: [], applied: spec, result: await apply(spec) };
  };

  const suspending = spec.state === 'suspended';
  const wasSuspended =
    (jobManager as { spec?: { replicas?: number } } | undefined)?.spec
      ?.replicas === 0;
  if (wasSuspended && !suspending && spec.mode === 'application') {
    const [latest] = parseSavepointHistory(
      jobManager?.metadata?.annotations?.[SAVEPOINT_HISTORY_ANNOTATION],
    );
    if (options.mode !== 'savepoint' || !latest) {
      return plainly(
        `Resuming in upgrade mode ${options.mode}: the job starts ${resumeStart(spec, options.mode)}.`,
      );
    }
    log(
      `Resuming from the newest savepoint ${latest.path} (${latest.trigger}, ${latest.time}).`,
    );
    return startFrom(latest, [], `savepoint at ${latest.path}`);
  }

  const jobsAtRisk = suspending
    ? jobManager !== undefined && !wasSuspended
    : EFFECTS_THAT_RESTART_JOBS.has(plan.jobs.effect);
  const what = suspending ? 'Suspending' : `Upgrade mode ${options.mode}`;
  if (options.mode === 'stateless' || !jobsAtRisk) {
    return plainly(
      `${what}: ${jobsAtRisk ? 'running jobs are not saved' : 'no running job restarts'}, applying.`,
    );
  }
  if (options.mode === 'last-state') {
    // Only Kubernetes HA keeps the latest checkpoint across a JobManager restart by itself.
    if (
      !spec.highAvailability &&
      (suspending || plan.jobs.effect !== 'failover')
    ) {
      throw new InputError(
        'upgradeMode: last-state needs highAvailability (the JobManager finds the latest checkpoint in its HA store); use savepoint for a cluster without it',
      );
    }
    return plainly(`${what}: jobs resume from their latest checkpoint.`);
  }

  const running = (await jobsOf(cluster, spec)).filter(
    j => j.state === 'RUNNING',
  );
  if (running.length === 0) {
    return plainly(`${what}: no job is running, applying.`);
  }
  if (spec.mode === 'application' && spec.highAvailability) {
    // Kubernetes HA remembers the finished job under its fixed ID: started again, the
    // application would not run it. Refused, rather than a job that silently stays done.
    throw new InputError(
      'upgradeMode: savepoint is not supported yet for application clusters with highAvailability; use last-state (the job resumes from its latest checkpoint)',
    );
  }

  const savepoints: SavepointRecord[] = [];
  for (const job of running) {
    options.signal?.throwIfAborted();
    log(
      `Stopping job ${job.name} (${job.jid}) with a savepoint into ${targetDirectory}.`,
    );
    const location = await stopWithSavepoint(cluster, spec, job.jid, {
      ...polling,
      targetDirectory: targetDirectory!,
    });
    const record: SavepointRecord = {
      path: location,
      time: new Date().toISOString(),
      trigger: suspending ? 'suspend' : 'upgrade',
      jobId: job.jid,
      jobName: job.name,
    };
    savepoints.push(record);
    log(`Job ${job.name} stopped; savepoint at ${location}.`);
    await recordSavepoint(cluster, spec, record);
  }
  const stoppedState = `job${savepoints.length > 1 ? 's' : ''} stopped, savepoint${savepoints.length > 1 ? 's' : ''} at ${savepoints.map(s => s.path).join(', ')}`;

  if (suspending || spec.mode === 'session') {
    const result = await applyAfterStop(spec, stoppedState);
    log(
      suspending
        ? `Suspended: no pod runs; ${spec.mode === 'application' ? 'applying the spec with state running in savepoint mode resumes the job from this savepoint' : 'submit the jobs again from their savepoints once resumed'}.`
        : `Applied. Submit the stopped jobs again from their savepoints: ${savepoints.map(s => `${s.jobName} from ${s.path}`).join('; ')}.`,
    );
    return { plan, savepoints, applied: spec, result };
  }
  return startFrom(savepoints[0], savepoints, stoppedState);

  /** Applies; a failure after jobs stopped says so, with where their savepoints are. */
  async function applyAfterStop(
    toApply: ClusterSpec,
    state: string,
  ): Promise<ApplyResult> {
    try {
      options.signal?.throwIfAborted();
      return await apply(toApply);
    } catch (error) {
      throw new ConflictError(
        `Stopped after the savepoint (${state}), before the change was complete: ${(error as Error).message}`,
      );
    }
  }

  /** The application job started from a savepoint, once it runs restored from it. */
  async function startFrom(
    savepoint: SavepointRecord,
    taken: SavepointRecord[],
    state: string,
  ): Promise<UpgradeResult> {
    const applied: ClusterSpec = {
      ...spec,
      job: { ...spec.job!, initialSavepointPath: savepoint.path },
    };
    const result = await applyAfterStop(applied, state);
    log(
      `Applied with job.initialSavepointPath ${savepoint.path}; waiting for the job to run from it.`,
    );
    const resumedJobId = await jobRestoredFrom(
      cluster,
      spec,
      savepoint.path,
      polling,
    ).catch(error => {
      throw new ConflictError(
        `Applied, but the job did not run from its savepoint (${state}): ${(error as Error).message}`,
      );
    });
    log(`Job ${resumedJobId} runs, restored from ${savepoint.path}.`);
    return { plan, savepoints: taken, applied, result, resumedJobId };
  }
}

/** Where a resumed application job starts without a savepoint of the history. */
function resumeStart(spec: ClusterSpec, mode: UpgradeMode): string {
  if (mode === 'last-state' && spec.highAvailability)
    return 'from its latest checkpoint (HA)';
  if (spec.job?.initialSavepointPath)
    return `from its initial savepoint ${spec.job.initialSavepointPath}`;
  return 'from empty state';
}

/**
 * The savepoint directory: given, or configured for the cluster; an input error otherwise.
 *
 * @public
 */
export function savepointDirectoryOf(
  spec: ClusterSpec,
  given: string | undefined,
): string {
  const configured = SAVEPOINT_DIRECTORY_KEYS.map(
    key => spec.flinkConfiguration[key],
  ).find(value => value !== undefined);
  const directory = given ?? configured;
  if (!directory) {
    throw new InputError(
      `upgradeMode: savepoint needs a savepoint directory: set flinkConfiguration['${SAVEPOINT_DIRECTORY_KEYS[0]}'] (or give savepointDirectory)`,
    );
  }
  return String(directory);
}

async function restJson<T>(
  cluster: FlinkKubernetesCluster,
  spec: ClusterSpec,
  request: Parameters<typeof flinkRequest>[3],
): Promise<T> {
  return JSON.parse(
    await flinkRequest(cluster, spec.namespace, spec.name, request),
  ) as T;
}

async function jobsOf(
  cluster: FlinkKubernetesCluster,
  spec: ClusterSpec,
): Promise<RestJob[]> {
  const { jobs } = await restJson<{ jobs: RestJob[] }>(cluster, spec, {
    endpoint: '/jobs/overview',
  });
  return jobs;
}

/**
 * How long, and how often, to wait for Flink.
 *
 * @public
 */
export interface PollOptions {
  signal?: AbortSignal;
  timeoutMs: number;
  pollMs: number;
}

async function poll<T>(
  what: string,
  options: PollOptions,
  check: () => Promise<T | undefined>,
): Promise<T> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    options.signal?.throwIfAborted();
    const found = await check();
    if (found !== undefined) return found;
    if (Date.now() > deadline)
      throw new Error(`${what}: not done after ${options.timeoutMs / 1000} s`);
    await new Promise(resolve => setTimeout(resolve, options.pollMs));
  }
}

/**
 * Flink's stop-with-savepoint: the job takes a savepoint, then finishes. Resolves to the
 * savepoint's location once Flink reports it completed.
 *
 * @public
 */
export async function stopWithSavepoint(
  cluster: FlinkKubernetesCluster,
  spec: Pick<ClusterSpec, 'namespace' | 'name'>,
  jobId: string,
  options: PollOptions & { targetDirectory: string },
): Promise<string> {
  const job = encodeURIComponent(jobId);
  const { 'request-id': trigger } = await restJson<{ 'request-id': string }>(
    cluster,
    spec as ClusterSpec,
    {
      method: 'POST',
      endpoint: `/jobs/${job}/stop`,
      body: { targetDirectory: options.targetDirectory, drain: false },
      signal: options.signal,
    },
  );
  return poll(`the savepoint of job ${jobId}`, options, async () => {
    const answer = await restJson<{
      status: { id: string };
      operation?: {
        location?: string;
        'failure-cause'?: { 'stack-trace'?: string };
      };
    }>(cluster, spec as ClusterSpec, {
      endpoint: `/jobs/${job}/savepoints/${encodeURIComponent(trigger)}`,
    });
    if (answer.status.id !== 'COMPLETED') return undefined;
    if (answer.operation?.location) return answer.operation.location;
    const cause = answer.operation?.['failure-cause']?.['stack-trace'] ?? '';
    throw new Error(
      `the savepoint of job ${jobId} failed (the job keeps running): ${cause.split('\n')[0]}`,
    );
  });
}

/** The ID of the RUNNING job whose latest restore is the given savepoint, once there is one. */
async function jobRestoredFrom(
  cluster: FlinkKubernetesCluster,
  spec: ClusterSpec,
  location: string,
  options: PollOptions,
): Promise<string> {
  return poll(`a job running from ${location}`, options, async () => {
    const jobs = await jobsOf(cluster, spec).catch(() => []);
    for (const job of jobs.filter(j => j.state === 'RUNNING')) {
      const stats = await restJson<{
        latest?: { restored?: { external_path?: string } | null };
      }>(cluster, spec, {
        endpoint: `/jobs/${encodeURIComponent(job.jid)}/checkpoints`,
      }).catch(() => undefined);
      if (sameLocation(stats?.latest?.restored?.external_path, location))
        return job.jid;
    }
    return undefined;
  });
}

/** Flink writes `file:/x` in one place and `file:///x` in another. */
function sameLocation(a: string | undefined, b: string): boolean {
  const normal = (p: string) =>
    p.replace(/^file:\/*/, 'file:/').replace(/\/$/, '');
  return a !== undefined && normal(a) === normal(b);
}
