import { ResponseError } from '@backstage/errors';
import type {
  ClaimRetention,
  ClaimStatus,
  FlinkClusterStatus,
  FlinkRestSummary,
  WorkloadStatus,
} from '@flink-standalone/plugin-flink-standalone-common';

/** "45 s", "3 min", "2 h", "4 d": the way kubectl shows ages. */
export function formatDuration(milliseconds: number): string {
  const seconds = Math.max(0, Math.floor(milliseconds / 1000));
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 120) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h`;
  return `${Math.floor(hours / 24)} d`;
}

/** The time from `since` to `now`, or a dash when `since` is not known. */
export function formatAge(since: string | undefined, now: Date): string {
  if (!since) return '—';
  return formatDuration(now.getTime() - new Date(since).getTime());
}

export function formatAgo(since: string, now: Date): string {
  return `${formatAge(since, now)} ago`;
}

/** "1 RUNNING, 2 FINISHED", or "none". */
export function formatJobs(jobsByState: Record<string, number>): string {
  const entries = Object.entries(jobsByState).filter(([, count]) => count > 0);
  if (entries.length === 0) return 'none';
  return entries.map(([state, count]) => `${count} ${state}`).join(', ');
}

export function formatRetention(retention: ClaimStatus['retention']): string {
  if (!retention) return '—';
  if (retention === 'Ephemeral') return 'Ephemeral (deleted with its pod)';
  return formatClaimRetention(retention);
}

export function formatClaimRetention(retention: ClaimRetention): string {
  return `whenDeleted: ${retention.whenDeleted}, whenScaled: ${retention.whenScaled}`;
}

/** One plain sentence on the Flink REST API, above all when it does not answer. */
export function describeRest(flink: FlinkRestSummary): string {
  if (flink.reachable) {
    return `REST API answers (Flink ${flink.version ?? 'version unknown'})`;
  }
  switch (flink.unreachableReason) {
    case 'SimulatedNodes':
      return 'REST not reachable: pods run on simulated nodes, no Flink process runs in them';
    case 'NotRunning':
      return 'REST not reachable: no JobManager pod is Ready';
    case 'Error':
      return `REST not reachable: ${flink.error ?? 'the request failed'}`;
    default:
      return 'REST not queried yet';
  }
}

export interface ClaimCounts {
  bound: number;
  total: number;
}

export function countClaims(claims: ClaimStatus[]): ClaimCounts {
  return {
    bound: claims.filter(c => c.phase === 'Bound').length,
    total: claims.length,
  };
}

/** "complete", or how many pods run the update revision, and why the rollout stopped. */
export function describeRollout(workload: WorkloadStatus | undefined): string {
  if (!workload) return '—';
  if (workload.rolloutStalled) return `stalled: ${workload.rolloutStalled}`;
  if (workload.rolloutBlocked)
    return `blocked: ${workload.rolloutBlocked.message}`;
  if (workload.rolloutComplete) return 'complete';
  const { updated, desired } = workload.replicas;
  return `${updated}/${desired} updated`;
}

export function describeTaskManagers(status: FlinkClusterStatus): string {
  const replicas = status.taskManager?.replicas;
  const ready = replicas
    ? `${replicas.ready}/${replicas.desired} ready`
    : 'no workload';
  const registered = status.flink.taskManagersRegistered;
  return registered === undefined
    ? `${ready}, registration unknown`
    : `${ready}, ${registered} registered in Flink`;
}

export function describeSlots(flink: FlinkRestSummary): string {
  if (flink.slotsTotal === undefined) return '—';
  return `${flink.slotsFree ?? '?'}/${flink.slotsTotal} free`;
}

/** The backend's own words first: a ResponseError's message only names the HTTP status. */
export function describeError(error: Error): string {
  if (error instanceof ResponseError) {
    return `${error.cause.message} (${error.message})`;
  }
  return error.message;
}
