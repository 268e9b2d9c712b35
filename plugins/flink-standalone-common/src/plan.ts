import type { FlinkComponent } from './render/labels';

/**
 * What re-applying a cluster's spec would do, before it is done: the objects that change, the
 * pods that restart and in what order, and what happens to running jobs.
 *
 * @public
 */
export interface ChangePlan {
  /** Objects created or updated, with the fields that change (unchanged objects are left out). */
  changes: PlannedObjectChange[];
  /** Workloads whose pods are replaced, in the order their controllers replace them. */
  restarts: PlannedRestart[];
  jobs: PlannedJobEffect;
  /** The plan in sentences, for a task log or a dialog. */
  lines: string[];
}

/** @public */
export interface PlannedObjectChange {
  kind: string;
  name: string;
  action: 'create' | 'update';
  /** JSON paths of the changed fields, e.g. `spec.template.spec.containers[0].image`. */
  paths: string[];
}

/** @public */
export interface PlannedRestart {
  component: FlinkComponent;
  kind: 'StatefulSet' | 'Deployment';
  workload: string;
  /** The pods that exist now, in the order they are replaced. */
  pods: string[];
  /** How the controller replaces them. */
  order: string;
  /** The pod template fields that change. */
  because: string[];
}

/**
 * What the change does to the cluster's running jobs:
 * - `none`: no pod of the cluster restarts (or nothing runs);
 * - `new-cluster`: the cluster does not exist yet;
 * - `failover`: TaskManagers restart; each restart fails running jobs over once, from their
 *   latest checkpoint;
 * - `restore-from-checkpoint`: the JobManager restarts with Kubernetes HA; jobs resume from
 *   their latest checkpoint;
 * - `restart-from-savepoint`: a non-HA application cluster's JobManager restarts; its job starts
 *   again from the initial savepoint, and the progress since it is lost;
 * - `lost`: a non-HA JobManager restarts; session jobs are gone (submit them again), an
 *   application job without an initial savepoint starts from empty state.
 *
 * @public
 */
export interface PlannedJobEffect {
  effect:
    | 'none'
    | 'new-cluster'
    | 'failover'
    | 'restore-from-checkpoint'
    | 'restart-from-savepoint'
    | 'lost';
  /** RUNNING jobs now, as Flink's REST API last said; undefined when it did not answer. */
  runningJobs?: number;
  message: string;
}

/**
 * How a change treats running jobs, in the Flink operator's words:
 * - `stateless`: apply; jobs live with what the plan says;
 * - `last-state`: jobs resume from their latest checkpoint (needs Kubernetes HA when the
 *   JobManager restarts);
 * - `savepoint`: stop running jobs with a savepoint first, then start from it.
 *
 * @public
 */
export const UPGRADE_MODES = ['stateless', 'last-state', 'savepoint'] as const;

/** @public */
export type UpgradeMode = (typeof UPGRADE_MODES)[number];

/**
 * A savepoint a Flink cluster's jobs were stopped with, in the cluster's savepoint history.
 *
 * @public
 */
export interface SavepointRecord {
  /** Where Flink wrote it, e.g. `s3://bucket/savepoints/savepoint-4a1b2c-0123456789ab`. */
  path: string;
  /** When it completed (ISO 8601). */
  time: string;
  /** What took it: an upgrade, a suspend. */
  trigger: 'upgrade' | 'suspend';
  jobId: string;
  jobName?: string;
}

/**
 * The annotation on a cluster's JobManager workload that keeps its savepoint history (newest
 * first): it lives and goes with the cluster, survives backend restarts, and the watch cache
 * reads it with the workload.
 *
 * @public
 */
export const SAVEPOINT_HISTORY_ANNOTATION =
  'flink-standalone.backstage.io/savepoints';

/** @public */
export const SAVEPOINT_HISTORY_LIMIT = 20;

/**
 * The savepoint history an annotation holds; what does not parse is left out.
 *
 * @public
 */
export function parseSavepointHistory(
  annotation: string | undefined,
): SavepointRecord[] {
  if (!annotation) return [];
  try {
    const parsed = JSON.parse(annotation);
    return Array.isArray(parsed)
      ? parsed.filter(
          (r): r is SavepointRecord =>
            typeof r?.path === 'string' &&
            typeof r?.time === 'string' &&
            typeof r?.jobId === 'string',
        )
      : [];
  } catch {
    return [];
  }
}
