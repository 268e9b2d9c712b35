import type {
  ClusterError,
  FlinkRestSummary,
  JobManagerDeploymentStatus,
  PodStatus,
  WorkloadStatus,
} from '@flink-standalone/plugin-flink-standalone-common';
import { restMessage } from './flink';

export interface DeploymentState {
  status: JobManagerDeploymentStatus;
  reason: string;
  message: string;
}

export interface DeploymentInputs {
  /** Where to look for it, for the MISSING message. */
  location: string;
  jobManager?: WorkloadStatus;
  taskManager?: WorkloadStatus;
  /** JobManager pods in display order. */
  jobManagerPods: PodStatus[];
  errors: ClusterError[];
  flink: FlinkRestSummary;
}

const NOT_READY_REASONS = {
  SimulatedNodes: 'SimulatedNodes',
  NotRunning: 'RestNotRunning',
  Error: 'RestUnreachable',
  NotQueried: 'RestNotQueried',
} as const;

/** The state machine of JobManagerDeploymentStatus: the first rule that applies wins. */
export function deploymentState(inputs: DeploymentInputs): DeploymentState {
  const { jobManager, jobManagerPods, errors, flink } = inputs;
  if (!jobManager) {
    return {
      status: 'MISSING',
      reason: 'JobManagerMissing',
      message: `no JobManager workload ${inputs.location}`,
    };
  }
  const [error, ...more] = errors;
  if (error) {
    return {
      status: 'ERROR',
      reason: error.reason,
      message:
        more.length > 0
          ? `${error.message} (and ${more.length} more errors)`
          : error.message,
    };
  }
  const live = jobManagerPods.filter(p => !p.deletionTimestamp);
  const ready = live.find(p => p.ready);
  if (!ready) {
    return {
      status: 'DEPLOYING',
      ...startingProgress(jobManager, jobManagerPods),
    };
  }
  if (flink.reachable) {
    return {
      status: 'READY',
      reason: 'RestReachable',
      message: readyMessage(inputs),
    };
  }
  return {
    status: 'DEPLOYED_NOT_READY',
    reason: NOT_READY_REASONS[flink.unreachableReason ?? 'NotQueried'],
    message: `${restMessage(flink)} (JobManager pod ${ready.name} is Ready)`,
  };
}

/** How far the first JobManager pod got, in the order a pod gets there. */
function startingProgress(jobManager: WorkloadStatus, pods: PodStatus[]) {
  const workload = `JobManager ${jobManager.kind} ${jobManager.name}`;
  if (jobManager.replicas.desired === 0) {
    return {
      reason: 'ScaledToZero',
      message: `${workload} is scaled to 0 replicas`,
    };
  }
  const pod = pods.find(p => !p.deletionTimestamp) ?? pods[0];
  if (!pod) {
    return { reason: 'NoPods', message: `${workload} has no pods yet` };
  }
  if (pod.deletionTimestamp) {
    return {
      reason: 'PodTerminating',
      message: `JobManager pod ${pod.name} is terminating, no replacement yet`,
    };
  }
  if (pod.unschedulable) {
    return {
      reason: 'Unschedulable',
      message: `JobManager pod ${pod.name} cannot be scheduled: ${pod.unschedulable}`,
    };
  }
  if (pod.phase === 'Pending') {
    return {
      reason: 'PodPending',
      message: `JobManager pod ${pod.name} is Pending${pod.waitingReason ? ` (${pod.waitingReason})` : ''}`,
    };
  }
  return {
    reason: 'PodNotReady',
    message: `JobManager pod ${pod.name} is ${pod.phase} but not Ready`,
  };
}

function readyMessage({ taskManager, flink }: DeploymentInputs): string {
  const jobs = Object.entries(flink.jobsByState)
    .map(([state, count]) => `${count} ${state}`)
    .join(', ');
  return [
    restMessage(flink),
    `${flink.taskManagersRegistered ?? '?'}/${taskManager?.replicas.desired ?? 0} TaskManagers registered`,
    `${flink.slotsFree ?? '?'}/${flink.slotsTotal ?? '?'} slots free`,
    jobs ? `jobs: ${jobs}` : 'no jobs',
  ].join('; ');
}
