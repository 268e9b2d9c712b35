import type { V1Pod } from '@kubernetes/client-node';
import {
  clusterObjectNames,
  FlinkClusterStatus,
  FlinkComponent,
  JobRestore,
  PodStatus,
  WorkloadStatus,
  parseSavepointHistory,
  SAVEPOINT_HISTORY_ANNOTATION,
} from '@flink-standalone/plugin-flink-standalone-common';
import { summarizeClaim } from './claims';
import { clusterConditions } from './conditions';
import { deploymentState } from './deploymentState';
import { componentErrors } from './errors';
import { recentEvents } from './events';
import { jobManagerFacts, summarizeRest } from './flink';
import { componentLabel } from './kube';
import { PodContext, stuckTerminatingAt, summarizePod } from './pods';
import {
  ClusterSnapshot,
  DEFAULT_OBSERVE_OPTIONS,
  FlinkRestObservation,
  ObserveOptions,
  Workload,
} from './types';
import { rolloutBlockChangesAt, summarizeWorkload } from './workloads';

interface ComponentView {
  component: FlinkComponent;
  name: string;
  workload?: Workload;
  status?: WorkloadStatus;
  /** Raw and summarized, in display order (by ordinal, then name). */
  pods: { raw: V1Pod; status: PodStatus }[];
}

/**
 * The status of one Flink cluster from a watch-cache snapshot and the latest Flink REST
 * answers. Pure: the same inputs (and `now`) always give the same status.
 *
 * @public
 */
export function observeCluster(
  snapshot: ClusterSnapshot,
  rest: FlinkRestObservation | undefined,
  options: ObserveOptions,
): FlinkClusterStatus {
  const nodes = new Map(
    snapshot.nodes.map(n => [n.metadata?.name ?? '', n] as const),
  );
  const names = clusterObjectNames(snapshot.name);
  const environment: PodEnvironment = { nodes, ...clockOf(options) };
  const components = [
    componentView(
      snapshot,
      'jobmanager',
      names.jobManager,
      snapshot.jobManager,
      environment,
    ),
    componentView(
      snapshot,
      'taskmanager',
      names.taskManager,
      snapshot.taskManager,
      environment,
    ),
  ];
  const [jm, tm] = components;
  const flink = summarizeRest(rest, jobManagerFacts(snapshot));
  const pods = components.flatMap(c =>
    c.pods.map(p => withRestoreSource(p.status, flink.lastRestore)),
  );
  const claims = snapshot.claims
    .map(claim => summarizeClaim(claim, { workloads: components, pods }))
    .sort((a, b) => a.name.localeCompare(b.name));
  const errors = components.flatMap(c =>
    componentErrors(
      {
        component: c.component,
        workload: c.workload,
        pods: c.pods.map(p => p.raw),
      },
      snapshot.events,
    ),
  );
  const state = deploymentState({
    location: `${snapshot.namespace}/${names.jobManager} in cluster ${snapshot.cluster}`,
    jobManager: jm.status,
    taskManager: tm.status,
    jobManagerPods: jm.pods.map(p => p.status),
    errors,
    flink,
  });
  return {
    cluster: snapshot.cluster,
    namespace: snapshot.namespace,
    name: snapshot.name,
    jobManagerDeploymentStatus: state.status,
    reason: state.reason,
    message: snapshot.stale
      ? `${state.message} ${staleNote(snapshot.lastSyncedAt)}`
      : state.message,
    error: errors[0],
    errors,
    conditions: clusterConditions({
      jobManager: jm.status,
      taskManager: tm.status,
      pods,
      claims,
      flink,
    }),
    jobManager: jm.status,
    taskManager: tm.status,
    pods,
    claims,
    flink,
    events: recentEvents(
      snapshot.events,
      options.maxEvents ?? DEFAULT_OBSERVE_OPTIONS.maxEvents,
    ),
    savepoints: parseSavepointHistory(
      snapshot.jobManager?.metadata?.annotations?.[
        SAVEPOINT_HISTORY_ANNOTATION
      ],
    ),
    observedAt: options.now.toISOString(),
    stale: snapshot.stale,
    lastSyncedAt: snapshot.lastSyncedAt,
  };
}

/**
 * The first instant after `options.now` at which the clock alone changes what `observeCluster`
 * says of `snapshot`: a terminating pod turns stuck, a StatefulSet rollout turns blocked or its
 * message counts another minute. Undefined: only new inputs change it. Until then a status can
 * be reused as is.
 */
export function statusChangesAt(
  snapshot: ClusterSnapshot,
  options: ObserveOptions,
): number | undefined {
  const clock = clockOf(options);
  const times = snapshot.pods.map(pod =>
    stuckTerminatingAt(pod, clock.stuckAfterMs),
  );
  for (const [component, workload] of [
    ['jobmanager', snapshot.jobManager],
    ['taskmanager', snapshot.taskManager],
  ] as const) {
    if (workload)
      times.push(
        rolloutBlockChangesAt(workload, podsOf(snapshot, component), {
          now: clock.now,
          stuckAfterMs: clock.stuckRolloutAfterMs,
        }),
      );
  }
  const future = times.filter(
    (time): time is number => time !== undefined && time > clock.now,
  );
  return future.length > 0 ? Math.min(...future) : undefined;
}

/** The time and thresholds every summary is judged by. */
function clockOf(options: ObserveOptions) {
  return {
    now: options.now.getTime(),
    stuckAfterMs:
      (options.stuckTerminatingAfterSeconds ??
        DEFAULT_OBSERVE_OPTIONS.stuckTerminatingAfterSeconds) * 1000,
    stuckRolloutAfterMs:
      (options.stuckRolloutAfterSeconds ??
        DEFAULT_OBSERVE_OPTIONS.stuckRolloutAfterSeconds) * 1000,
  };
}

function podsOf(snapshot: ClusterSnapshot, component: FlinkComponent) {
  return snapshot.pods.filter(p => componentLabel(p.metadata) === component);
}

/** A TaskManager's resource id is its pod name (the renderer sets it so). */
function withRestoreSource(
  pod: PodStatus,
  restore: JobRestore | undefined,
): PodStatus {
  const source =
    pod.component === 'taskmanager'
      ? restore?.taskManagers[pod.name]
      : undefined;
  return source ? { ...pod, restoredFrom: source } : pod;
}

function staleNote(lastSyncedAt: string | undefined): string {
  return `(stale: the watch is disconnected; state as of ${lastSyncedAt ?? 'an unknown time'})`;
}

/** What every pod summary needs besides its component. */
type PodEnvironment = Pick<PodContext, 'nodes' | 'now' | 'stuckAfterMs'> & {
  stuckRolloutAfterMs: number;
};

function componentView(
  snapshot: ClusterSnapshot,
  component: FlinkComponent,
  name: string,
  workload: Workload | undefined,
  environment: PodEnvironment,
): ComponentView {
  const raw = podsOf(snapshot, component);
  const status = workload
    ? summarizeWorkload(workload, component, raw, snapshot.replicaSets, {
        now: environment.now,
        stuckAfterMs: environment.stuckRolloutAfterMs,
      })
    : undefined;
  const context: PodContext = {
    nodes: environment.nodes,
    now: environment.now,
    stuckAfterMs: environment.stuckAfterMs,
    component,
    workloadName: name,
    workload: status,
  };
  const pods = raw
    .map(pod => ({ raw: pod, status: summarizePod(pod, context) }))
    .sort((a, b) => byOrdinalThenName(a.status, b.status));
  return { component, name, workload, status, pods };
}

/** Null ordinals (Deployment pods) after numbered ones. */
function byOrdinalThenName(a: PodStatus, b: PodStatus): number {
  const ordinal = (p: PodStatus) => p.ordinal ?? Number.MAX_SAFE_INTEGER;
  return ordinal(a) - ordinal(b) || a.name.localeCompare(b.name);
}
