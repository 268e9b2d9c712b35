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
