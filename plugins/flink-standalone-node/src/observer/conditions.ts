import type {
  ClaimStatus,
  ClusterCondition,
  ClusterConditionType,
  ConditionStatus,
  FlinkRestSummary,
  PodStatus,
  WorkloadStatus,
} from '@flink-standalone/plugin-flink-standalone-common';
import { restMessage } from './flink';
import { COMPONENT_TITLE } from './kube';

export interface ConditionInputs {
  jobManager?: WorkloadStatus;
  taskManager?: WorkloadStatus;
  pods: PodStatus[];
  claims: ClaimStatus[];
  flink: FlinkRestSummary;
}

/** Every condition, in the order of CLUSTER_CONDITION_TYPES. */
export function clusterConditions(inputs: ConditionInputs): ClusterCondition[] {
  return [
    jobManagerReady(inputs),
    taskManagersReady(inputs),
    taskManagersRegistered(inputs),
    volumesBound(inputs),
    rolloutComplete(inputs),
    noStuckPods(inputs),
    flinkRestReachable(inputs),
  ];
}

function condition(
  type: ClusterConditionType,
  status: ConditionStatus | boolean,
  reason: string,
  message: string,
): ClusterCondition {
  return { type, status: conditionStatus(status), reason, message };
}

function conditionStatus(status: ConditionStatus | boolean): ConditionStatus {
  if (typeof status !== 'boolean') return status;
  return status ? 'True' : 'False';
}

const MAX_NAMES = 5;

/** "a, b, c and 7 more": a 50-TaskManager cluster must not produce a wall of names. */
function listNames(names: string[]): string {
  if (names.length <= MAX_NAMES) return names.join(', ');
  return `${names.slice(0, MAX_NAMES).join(', ')} and ${names.length - MAX_NAMES} more`;
}

const livePods = (pods: PodStatus[], component: PodStatus['component']) =>
  pods.filter(p => p.component === component && !p.deletionTimestamp);

/** One Ready JobManager serves the cluster; with HA the others are standbys. */
function jobManagerReady({ jobManager, pods }: ConditionInputs) {
  const type = 'JobManagerReady';
  if (!jobManager) {
    return condition(type, false, 'WorkloadMissing', 'no JobManager workload');
  }
  const ready = livePods(pods, 'jobmanager').filter(p => p.ready).length;
  const message = `${ready}/${jobManager.replicas.desired} JobManager pods ready`;
  return ready > 0
    ? condition(type, true, 'PodReady', message)
    : condition(type, false, 'NoPodReady', message);
}

function taskManagersReady({ taskManager, pods }: ConditionInputs) {
  const type = 'TaskManagersReady';
  if (!taskManager) {
    return condition(type, false, 'WorkloadMissing', 'no TaskManager workload');
  }
  const { ready, desired } = taskManager.replicas;
  const message = `${ready}/${desired} TaskManagers ready`;
  if (ready >= desired) return condition(type, true, 'AllReady', message);
  const notReady = livePods(pods, 'taskmanager')
    .filter(p => !p.ready)
    .map(p => p.name);
  return condition(
    type,
    false,
    'NotAllReady',
    notReady.length > 0
      ? `${message}; not ready: ${listNames(notReady)}`
      : message,
  );
}

/** What Flink itself knows: a TaskManager pod may be Ready before it registers. */
function taskManagersRegistered({ taskManager, flink }: ConditionInputs) {
  const type = 'TaskManagersRegistered';
  if (!flink.reachable) {
    return condition(type, 'Unknown', 'RestUnavailable', restMessage(flink));
  }
  const registered = flink.taskManagersRegistered;
  if (registered === undefined) {
    return condition(
      type,
      'Unknown',
      'NotReported',
      'the REST API did not report TaskManagers',
    );
  }
  // Until the TaskManager workload is seen, "0 of 0 registered" would read as healthy.
  if (!taskManager) {
    return condition(
      type,
      false,
      'NoTaskManagerWorkload',
      `${registered} TaskManagers registered, no TaskManager workload`,
    );
  }
  const desired = taskManager.replicas.desired;
  const message = `${registered}/${desired} TaskManagers registered with the JobManager`;
  return registered >= desired
    ? condition(type, true, 'AllRegistered', message)
    : condition(type, false, 'MissingRegistrations', message);
}

/** A Lost claim lost its volume's data: it is worse than a Pending one. */
function volumesBound({ claims }: ConditionInputs) {
  const type = 'VolumesBound';
  if (claims.length === 0)
    return condition(type, true, 'NoClaims', 'no claims');
  const named = (phase: string) =>
    claims.filter(c => c.phase === phase).map(c => c.name);
  const bound = named('Bound').length;
  const message = `${bound}/${claims.length} claims bound`;
  const lost = named('Lost');
  if (lost.length > 0) {
    return condition(
      type,
      false,
      'ClaimLost',
      `${message}; Lost: ${listNames(lost)}`,
    );
  }
  const pending = named('Pending');
  if (pending.length > 0) {
    return condition(
      type,
      false,
      'ClaimPending',
      `${message}; Pending: ${listNames(pending)}`,
    );
  }
  return condition(type, true, 'AllBound', message);
}

function rolloutComplete({ jobManager, taskManager }: ConditionInputs) {
  const type = 'RolloutComplete';
  const workloads = [jobManager, taskManager].filter(
    (w): w is WorkloadStatus => w !== undefined,
  );
  if (workloads.length < 2) {
    return condition(type, false, 'WorkloadMissing', 'a workload is missing');
  }
  const blocked = workloads.filter(w => w.rolloutBlocked);
  if (blocked.length > 0) {
    return condition(
      type,
      false,
      'RolloutBlocked',
      blocked
        .map(w => `${workloadTitle(w)}: ${w.rolloutBlocked!.message}`)
        .join('; '),
    );
  }
  const stalled = workloads.filter(w => w.rolloutStalled);
  if (stalled.length > 0) {
    return condition(
      type,
      false,
      'ProgressDeadlineExceeded',
      stalled.map(w => `${workloadTitle(w)}: ${w.rolloutStalled}`).join('; '),
    );
  }
  const rolling = workloads.filter(w => !w.rolloutComplete);
  if (rolling.length === 0) {
    return condition(
      type,
      true,
      'Complete',
      'every pod runs the latest revision',
    );
  }
  return condition(
    type,
    false,
    'RolloutInProgress',
    rolling.map(rolloutProgress).join('; '),
  );
}

function workloadTitle(w: WorkloadStatus) {
  return `${COMPONENT_TITLE[w.component]} ${w.kind} ${w.name}`;
}

function rolloutProgress(w: WorkloadStatus): string {
  if ((w.observedGeneration ?? 0) < (w.generation ?? 0)) {
    return `${workloadTitle(w)}: the controller has not yet seen generation ${w.generation}`;
  }
  const { updated, ready, desired } = w.replicas;
  const revisions =
    w.updateRevision && w.currentRevision !== w.updateRevision
      ? ` (from ${w.currentRevision ?? 'unknown'} to ${w.updateRevision})`
      : '';
  return `${workloadTitle(w)}: ${updated}/${desired} pods updated, ${ready}/${desired} ready${revisions}`;
}

function noStuckPods({ pods }: ConditionInputs) {
  const type = 'NoStuckPods';
  const stuck = pods.filter(p => p.stuck);
  if (stuck.length === 0) {
    const terminating = pods.filter(p => p.deletionTimestamp).length;
    return condition(
      type,
      true,
      'NoneStuck',
      terminating > 0
        ? `${terminating} pods terminating, within the threshold`
        : 'no pod is terminating',
    );
  }
  return condition(
    type,
    false,
    'PodStuckTerminating',
    stuck.map(p => `pod ${p.name}: ${p.stuckMessage}`).join('; '),
  );
}

function flinkRestReachable({ flink }: ConditionInputs) {
  const type = 'FlinkRestReachable';
  const message = restMessage(flink);
  if (flink.reachable) return condition(type, true, 'Reachable', message);
  if (!flink.unreachableReason) {
    return condition(type, 'Unknown', 'NotQueried', message);
  }
  return condition(type, false, flink.unreachableReason, message);
}
