import {
  type ChangePlan,
  type ClusterSpec,
  type FlinkClusterStatus,
  type PlannedJobEffect,
  type PlannedObjectChange,
  type PlannedRestart,
  renderCluster,
} from '@flink-standalone/plugin-flink-standalone-common';
import type { KubernetesObject } from '@kubernetes/client-node';
import type { FlinkKubernetesCluster } from '../cluster/ClusterRegistry';
import type { FlinkObserver } from '../service/FlinkObserver';
import { diffCluster, type ObjectDiff } from './diff';

/**
 * What planChange reads: the diff of each object, the objects as rendered, the live status.
 *
 * @public
 */
export interface ChangePlanInput {
  /** diffCluster's answer for `objects`. */
  diffs: readonly ObjectDiff[];
  /** The rendered objects of `spec` (for the workloads' update strategies). */
  objects: readonly KubernetesObject[];
  /** The spec about to be applied. */
  spec: ClusterSpec;
  /** The cluster as the observer sees it now (pods, running jobs). */
  status: FlinkClusterStatus;
}

const WORKLOAD_KINDS = new Set(['StatefulSet', 'Deployment']);
/** At most this many changed paths named per object in the plan's sentences. */
const PATHS_PER_LINE = 4;

/**
 * The change plan of re-applying a spec: which objects change, which pods restart and in what
 * order, and what that does to running jobs. Pure: the diffs come from a server-side dry run
 * (diffCluster), the pods and jobs from the observer.
 *
 * @public
 */
export function planChange(input: ChangePlanInput): ChangePlan {
  const changes: PlannedObjectChange[] = input.diffs
    .filter(d => d.action !== 'unchanged')
    .map(d => ({
      kind: d.kind,
      name: d.name,
      action: d.action as 'create' | 'update',
      paths: d.changes.map(c => c.path),
    }));
  const restarts = input.diffs.flatMap(d => plannedRestart(d, input) ?? []);
  const jobs = jobEffect(input, restarts);
  return {
    changes,
    restarts,
    jobs,
    lines: [
      ...(changes.length
        ? changes.map(describeChange)
        : ['Nothing changes: every object is as the spec renders it.']),
      ...restarts.map(describeRestart),
      jobs.message,
    ],
  };
}

/** A workload update whose pod template changes: every pod of it is replaced. */
function plannedRestart(
  diff: ObjectDiff,
  { objects, status }: ChangePlanInput,
): PlannedRestart | undefined {
  if (!WORKLOAD_KINDS.has(diff.kind) || diff.action !== 'update')
    return undefined;
  const because = diff.changes
    .map(c => c.path)
    .filter(path => path.startsWith('spec.template'));
  if (because.length === 0) return undefined;
  const workload = [status.jobManager, status.taskManager].find(
    w => w?.name === diff.name && w.kind === diff.kind,
  );
  if (!workload) return undefined;
  const kind = diff.kind as PlannedRestart['kind'];
  const pods = status.pods
    .filter(p => p.component === workload.component && !p.deletionTimestamp)
    // A StatefulSet rolls from the highest ordinal down.
    .sort((a, b) => (b.ordinal ?? 0) - (a.ordinal ?? 0))
    .map(p => p.name);
  const rendered = objects.find(
    o => o.kind === diff.kind && o.metadata?.name === diff.name,
  ) as { spec?: { strategy?: { type?: string } } } | undefined;
  return {
    component: workload.component,
    kind,
    workload: diff.name,
    pods,
    order: replacementOrder(kind, rendered?.spec?.strategy?.type),
    because,
  };
}

function replacementOrder(
  kind: PlannedRestart['kind'],
  deploymentStrategy: string | undefined,
): string {
  if (kind === 'StatefulSet') {
    return 'one at a time, highest ordinal first, each after the previous one is Ready, on the same claims';
  }
  return deploymentStrategy === 'Recreate'
    ? 'all stopped first, then the new ones started (Recreate)'
    : 'a new pod started before an old one stops (RollingUpdate)';
}

function jobEffect(
  { spec, status }: ChangePlanInput,
  restarts: PlannedRestart[],
): PlannedJobEffect {
  const runningJobs = status.flink.reachable
    ? (status.flink.jobsByState.RUNNING ?? 0)
    : undefined;
  const effect = (
    kind: PlannedJobEffect['effect'],
    message: string,
  ): PlannedJobEffect => ({ effect: kind, runningJobs, message });
  if (!status.jobManager) {
    return effect('new-cluster', 'A new cluster: no job runs yet.');
  }
  const jobManager = restarts.find(r => r.component === 'jobmanager');
  const taskManagers = restarts.find(r => r.component === 'taskmanager');
  if (!jobManager && !taskManagers) {
    return effect('none', 'No pod restarts: running jobs are not affected.');
  }
  if (spec.mode === 'session' && runningJobs === 0) {
    return effect('none', 'No job runs now: nothing to fail over or lose.');
  }
  const jobs =
    runningJobs === undefined
      ? 'running jobs (Flink did not answer: how many is not known)'
      : `${runningJobs} running job${runningJobs === 1 ? '' : 's'}`;
  if (jobManager) {
    if (spec.highAvailability) {
      return effect(
        'restore-from-checkpoint',
        `The JobManager restarts; with Kubernetes HA, ${jobs} resume from their latest checkpoint.`,
      );
    }
    if (spec.mode === 'application' && spec.job?.initialSavepointPath) {
      return effect(
        'restart-from-savepoint',
        `The JobManager restarts without HA: the application job starts again from its initial savepoint ${spec.job.initialSavepointPath}, and its progress since that savepoint is lost. To keep it, stop the job with a savepoint and set that as the initial savepoint.`,
      );
    }
    return effect(
      'lost',
      spec.mode === 'application'
        ? 'The JobManager restarts without HA: the application job starts again from empty state (no initial savepoint). To keep its state, stop it with a savepoint and set that as the initial savepoint.'
        : `The JobManager restarts without HA: ${jobs} are gone and must be submitted again (from a savepoint to keep their state).`,
    );
  }
  const restartsCount = taskManagers!.pods.length;
  return effect(
    'failover',
    `${jobs[0].toUpperCase()}${jobs.slice(1)} fail over ${restartsCount} time${restartsCount === 1 ? '' : 's'} (once per TaskManager replaced), each time from the latest checkpoint${spec.taskManager.localRecovery && taskManagers!.kind === 'StatefulSet' ? ', with local state where the TaskManager kept its claim' : ''}.`,
  );
}

function describeChange(change: PlannedObjectChange): string {
  if (change.action === 'create')
    return `${change.kind}/${change.name}: created`;
  const named = change.paths.slice(0, PATHS_PER_LINE).join(', ');
  const more = change.paths.length - PATHS_PER_LINE;
  return `${change.kind}/${change.name}: updated (${named}${more > 0 ? ` and ${more} more` : ''})`;
}

function describeRestart(restart: PlannedRestart): string {
  return `${restart.kind} ${restart.workload}: ${restart.pods.length} pod${restart.pods.length === 1 ? '' : 's'} replaced ${restart.order}: ${restart.pods.join(', ') || 'none yet'}`;
}

/**
 * The change plan of applying `spec` to the cluster now: a server-side dry run of every
 * rendered object (no change is made) and the observer's status of the cluster.
 *
 * @public
 */
export async function planClusterChange(
  cluster: FlinkKubernetesCluster,
  observer: Pick<FlinkObserver, 'getStatus'>,
  spec: ClusterSpec,
): Promise<ChangePlan> {
  const objects = renderCluster(spec) as KubernetesObject[];
  const [diffs, status] = await Promise.all([
    diffCluster(cluster, objects),
    observer.getStatus({
      cluster: cluster.name,
      namespace: spec.namespace,
      name: spec.name,
    }),
  ]);
  return planChange({ diffs, objects, spec, status });
}
