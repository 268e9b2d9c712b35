import { setTimeout as sleep } from 'node:timers/promises';
import type {
  ClusterConditionType,
  FlinkClusterStatus,
} from '@flink-standalone/plugin-flink-standalone-common';
import type {
  FlinkObserver,
  ObservedClusterRef,
} from '../service/FlinkObserver';

/** @public */
export interface WaitProgress {
  status: FlinkClusterStatus;
  /** One line for a task log: state, pods ready n/m, claims bound n/m. */
  summary: string;
}

/** @public */
export interface WaitOptions {
  timeoutMs: number;
  /** Called when the summary changes. */
  onProgress?: (progress: WaitProgress) => void;
  signal?: AbortSignal;
  pollMs?: number;
  /**
   * Also end, without an error, when the JobManager pod is Ready on simulated (kwok) nodes: no
   * Flink process runs there, so READY never comes. The caller decides what else must be up.
   */
  acceptSimulatedNodes?: boolean;
  /**
   * Also wait until these conditions are True. READY says the JobManager answers; a new cluster
   * is up when e.g. `TaskManagersReady` and `VolumesBound` hold too.
   */
  requireConditions?: ClusterConditionType[];
}

/**
 * A Flink cluster that did not become READY: the observer's reason, and its last status.
 *
 * @public
 */
export class ClusterNotReadyError extends Error {
  constructor(
    message: string,
    readonly status: FlinkClusterStatus,
  ) {
    super(message);
    this.name = 'ClusterNotReadyError';
  }
}

/** @public */
export function progressSummary(status: FlinkClusterStatus): string {
  const tm = status.taskManager?.replicas;
  const jm = status.jobManager?.replicas;
  const bound = status.claims.filter(c => c.phase === 'Bound').length;
  const parts = [
    status.jobManagerDeploymentStatus,
    `JobManager pods ready ${jm?.ready ?? 0}/${jm?.desired ?? 0}`,
    `TaskManager pods ready ${tm?.ready ?? 0}/${tm?.desired ?? 0}`,
    `claims bound ${bound}/${status.claims.length}`,
  ];
  if (status.flink.taskManagersRegistered !== undefined) {
    parts.push(
      `TaskManagers registered ${status.flink.taskManagersRegistered}`,
    );
  }
  return `${parts.join(', ')}: ${status.message}`;
}

/**
 * A JobManager pod is Ready, Flink REST was asked and did not answer, and the pods are
 * simulated. (Not asked yet is no answer: a direct REST URL may reach a real Flink.)
 *
 * @public
 */
export const isReadyAsSimulated = (status: FlinkClusterStatus) =>
  status.jobManagerDeploymentStatus === 'DEPLOYED_NOT_READY' &&
  status.flink.unreachableReason === 'SimulatedNodes' &&
  status.flink.fetchedAt !== undefined;

/** The required conditions of a status that are not True. */
const unmetConditions = (
  status: FlinkClusterStatus,
  required: ClusterConditionType[] = [],
) =>
  required.filter(
    type =>
      !status.conditions.some(c => c.type === type && c.status === 'True'),
  );

/**
 * Waits until the observer says READY (or, if accepted, Ready on simulated nodes) and every
 * required condition holds; fails with the observer's reason on ERROR or at the timeout.
 *
 * @public
 */
export async function waitForReady(
  observer: FlinkObserver,
  ref: ObservedClusterRef,
  options: WaitOptions,
): Promise<FlinkClusterStatus> {
  const deadline = Date.now() + options.timeoutMs;
  let lastSummary = '';
  for (;;) {
    options.signal?.throwIfAborted();
    const status = await observer.getStatus(ref);
    const summary = progressSummary(status);
    if (summary !== lastSummary) {
      lastSummary = summary;
      options.onProgress?.({ status, summary });
    }
    const ready =
      status.jobManagerDeploymentStatus === 'READY' ||
      (options.acceptSimulatedNodes && isReadyAsSimulated(status));
    const unmet = unmetConditions(status, options.requireConditions);
    if (ready && unmet.length === 0) return status;
    if (status.jobManagerDeploymentStatus === 'ERROR') {
      throw new ClusterNotReadyError(
        `Flink cluster ${ref.namespace}/${ref.name} failed: ${status.reason}: ${status.message}`,
        status,
      );
    }
    if (Date.now() > deadline) {
      const seconds = Math.round(options.timeoutMs / 1000);
      throw new ClusterNotReadyError(
        ready
          ? `Flink cluster ${ref.namespace}/${ref.name} is ${status.jobManagerDeploymentStatus} but not ${unmet.join(', ')} within ${seconds} s: ${summary}`
          : `Flink cluster ${ref.namespace}/${ref.name} was not READY within ${seconds} s: ${summary}`,
        status,
      );
    }
    // Once a JobManager is up, ask Flink now rather than at the next background refresh.
    if (status.jobManagerDeploymentStatus === 'DEPLOYED_NOT_READY')
      await observer.refreshRest(ref);
    await sleep(options.pollMs ?? 500, undefined, { signal: options.signal });
  }
}
