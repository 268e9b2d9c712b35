import type { V1ContainerStatus, V1Node, V1Pod } from '@kubernetes/client-node';
import type {
  FlinkComponent,
  PodStatus,
  WorkloadStatus,
} from '@flink-standalone/plugin-flink-standalone-common';
import {
  containerStatuses,
  epochMs,
  isNodeReady,
  isoTime,
  isPodReady,
  podClaimNames,
  podRevision,
  statefulSetOrdinal,
} from './kube';

export interface PodContext {
  component: FlinkComponent;
  /** The workload's name, as the renderer gives it (the workload itself may be gone). */
  workloadName: string;
  workload?: WorkloadStatus;
  nodes: ReadonlyMap<string, V1Node>;
  now: number;
  stuckAfterMs: number;
}

export function summarizePod(pod: V1Pod, ctx: PodContext): PodStatus {
  const name = pod.metadata?.name ?? '';
  // Deployment pods have random names and no identity to keep.
  const ordinal =
    ctx.workload?.kind === 'Deployment'
      ? null
      : statefulSetOrdinal(pod, ctx.workloadName);
  const revision = podRevision(pod);
  const updateRevision = ctx.workload?.updateRevision;
  const nodeName = pod.spec?.nodeName;
  const node = nodeName ? ctx.nodes.get(nodeName) : undefined;
  const nodeReady = node ? isNodeReady(node) : null;
  const termination = terminationTimes(pod);
  const stuck =
    termination !== undefined &&
    ctx.now >= stuckAt(termination, ctx.stuckAfterMs);
  const statuses = containerStatuses(pod);
  return {
    name,
    component: ctx.component,
    ordinal,
    phase: pod.status?.phase ?? 'Unknown',
    ready: isPodReady(pod),
    restarts: (pod.status?.containerStatuses ?? []).reduce(
      (sum, c) => sum + (c.restartCount ?? 0),
      0,
    ),
    revision,
    updated:
      updateRevision === undefined || revision === undefined
        ? null
        : revision === updateRevision,
    unschedulable: unschedulableMessage(pod),
    node: nodeName,
    nodeReady,
    startTime: isoTime(pod.status?.startTime),
    waitingReason: statuses.find(c => c.state?.waiting?.reason)?.state?.waiting
      ?.reason,
    terminatedReason: terminatedReason(statuses),
    deletionTimestamp: isoTime(pod.metadata?.deletionTimestamp),
    terminatingSince: termination && new Date(termination.since).toISOString(),
    stuck,
    stuckMessage: stuck
      ? stuckMessage(pod, nodeName, nodeReady, ctx, ordinal)
      : undefined,
    claims: podClaimNames(pod),
  };
}

/** The first termination reason that says something: `Completed` (an init container's work done) is no news. */
function terminatedReason(
  statuses: readonly V1ContainerStatus[],
): string | undefined {
  for (const c of statuses) {
    const reason =
      c.state?.terminated?.reason ?? c.lastState?.terminated?.reason;
    if (reason !== undefined && reason !== 'Completed') return reason;
  }
  return undefined;
}

function unschedulableMessage(pod: V1Pod): string | undefined {
  const scheduled = (pod.status?.conditions ?? []).find(
    c => c.type === 'PodScheduled',
  );
  return scheduled?.status === 'False' && scheduled.reason === 'Unschedulable'
    ? (scheduled.message ?? scheduled.reason)
    : undefined;
}

/**
 * The API server sets deletionTimestamp to the request time plus the grace period: that is
 * the deadline, and the request was made a grace period before it.
 */
function terminationTimes(
  pod: V1Pod,
): { since: number; deadline: number } | undefined {
  const deadline = epochMs(pod.metadata?.deletionTimestamp);
  if (deadline === undefined) return undefined;
  const grace = (pod.metadata?.deletionGracePeriodSeconds ?? 0) * 1000;
  return { since: deadline - grace, deadline };
}

/**
 * When a terminating pod counts as stuck: `stuckAfterMs` after the deletion request, and not
 * before its grace period is over. Undefined for a pod not terminating.
 */
export function stuckTerminatingAt(
  pod: V1Pod,
  stuckAfterMs: number,
): number | undefined {
  const termination = terminationTimes(pod);
  return termination && stuckAt(termination, stuckAfterMs);
}

function stuckAt(
  termination: { since: number; deadline: number },
  stuckAfterMs: number,
): number {
  return Math.max(termination.since + stuckAfterMs, termination.deadline);
}

const FORCE_DELETE = 'kubectl delete pod --grace-period=0 --force';

/** Why the pod cannot finish terminating, and what an operator can do about it. */
function stuckMessage(
  pod: V1Pod,
  nodeName: string | undefined,
  nodeReady: boolean | null,
  ctx: PodContext,
  ordinal: number | null,
): string {
  const name = pod.metadata?.name ?? '';
  // The StatefulSet keeps an ordinal's identity: no replacement until the old pod is gone.
  const consequence =
    ctx.workload?.kind === 'Deployment'
      ? 'its claims stay in use until then'
      : `the StatefulSet will not recreate ordinal ${ordinal ?? '?'} until then`;
  const finalizers = pod.metadata?.finalizers ?? [];
  if (nodeReady === false) {
    return (
      `node ${nodeName} is NotReady: the pod cannot finish terminating; if the node is gone, ` +
      `delete the Node object or force-delete the pod (${FORCE_DELETE} ${name}) — ${consequence}`
    );
  }
  if (finalizers.length > 0) {
    return (
      `finalizers ${finalizers.join(', ')} hold the pod: whatever owns them has not released it; ` +
      `once that is safe, remove them (kubectl patch pod ${name} --type=merge -p '{"metadata":{"finalizers":null}}') — ${consequence}`
    );
  }
  return `${whereItHangs(nodeName, nodeReady)}; check the node, or force-delete the pod (${FORCE_DELETE} ${name}) — ${consequence}`;
}

function whereItHangs(nodeName: string | undefined, nodeReady: boolean | null) {
  if (!nodeName) return 'the pod was never scheduled';
  if (nodeReady === null) return `node ${nodeName} is unknown to the cluster`;
  return `the kubelet on node ${nodeName} has not confirmed the containers stopped`;
}
