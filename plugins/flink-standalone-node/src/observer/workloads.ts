import type {
  V1Deployment,
  V1Pod,
  V1ReplicaSet,
  V1StatefulSet,
} from '@kubernetes/client-node';
import type {
  ClaimRetention,
  FlinkComponent,
  RetentionPolicy,
  RolloutBlock,
  WorkloadStatus,
} from '@flink-standalone/plugin-flink-standalone-common';
import {
  epochMs,
  isPodReady,
  isStatefulSet,
  isTerminating,
  podRevision,
  statefulSetOrdinal,
} from './kube';
import type { Workload } from './types';

/** When a StatefulSet rollout that waits for a pod counts as blocked. */
export interface RolloutClock {
  now: number;
  stuckAfterMs: number;
}

export function summarizeWorkload(
  workload: Workload,
  component: FlinkComponent,
  pods: V1Pod[],
  replicaSets: V1ReplicaSet[] | undefined,
  clock: RolloutClock,
): WorkloadStatus {
  if (!isStatefulSet(workload)) {
    return summarizeDeployment(workload, component, pods, replicaSets);
  }
  const status = summarizeStatefulSet(workload, component);
  const block = status.rolloutComplete
    ? undefined
    : statefulSetRolloutBlock(workload, pods, clock);
  return block ? { ...status, rolloutBlocked: block } : status;
}

/**
 * The pod a StatefulSet rollout waits for in vain. The controller replaces pods from the
 * highest ordinal down and waits for each to be Ready; under `OrderedReady` it also stops at
 * any pod that is not Ready before replacing anything, so a pod of a broken revision stays
 * even after the template is reverted (kubernetes/kubernetes#67250) until someone deletes it.
 */
export function statefulSetRolloutBlock(
  sts: V1StatefulSet,
  pods: V1Pod[],
  clock: RolloutClock,
): RolloutBlock | undefined {
  const updateRevision = sts.status?.updateRevision;
  if (!updateRevision) return undefined;
  const name = sts.metadata?.name ?? '';
  const stuck = waitingForReady(pods)
    .filter(({ since }) => clock.now - since >= clock.stuckAfterMs)
    .sort(
      (a, b) =>
        (statefulSetOrdinal(b.pod, name) ?? -1) -
        (statefulSetOrdinal(a.pod, name) ?? -1),
    );
  if (stuck.length === 0) return undefined;
  const { pod, since } = stuck[0];
  const podName = pod.metadata?.name ?? '';
  const revision = podRevision(pod);
  const minutes = Math.floor((clock.now - since) / 60_000);
  const forMinutes = minutes >= 1 ? ` for ${minutes} min` : '';
  const deleteRequired =
    revision !== updateRevision &&
    (sts.spec?.podManagementPolicy ?? 'OrderedReady') === 'OrderedReady';
  const message = deleteRequired
    ? `pod ${podName} (revision ${revision}) has not been Ready${forMinutes} and the StatefulSet now wants revision ${updateRevision}; under OrderedReady the controller replaces no pod while one is not Ready, so the rollout stays blocked until pod ${podName} is deleted (it comes back at revision ${updateRevision}, on the same claim)`
    : `the rollout waits for pod ${podName} (revision ${revision}) to become Ready, and it has not${forMinutes}; fix what keeps it from starting (see its errors and events) and apply again`;
  return {
    pod: podName,
    revision,
    updateRevision,
    notReadySince: new Date(since).toISOString(),
    deleteRequired,
    message,
  };
}

/**
 * When the clock alone next changes what `statefulSetRolloutBlock` says: a pod waiting to become
 * Ready blocks the rollout `stuckAfterMs` after it stopped being Ready, and from then on the
 * message counts its minutes. Undefined where `summarizeWorkload` looks for no block: not a
 * StatefulSet, or its rollout complete.
 */
export function rolloutBlockChangesAt(
  workload: Workload,
  pods: V1Pod[],
  clock: RolloutClock,
): number | undefined {
  if (
    !isStatefulSet(workload) ||
    !workload.status?.updateRevision ||
    statefulSetRolloutComplete(workload)
  )
    return undefined;
  const times = waitingForReady(pods).map(({ since }) => {
    const blockedAt = since + clock.stuckAfterMs;
    if (clock.now < blockedAt) return blockedAt;
    const minutes = Math.floor((clock.now - since) / 60_000);
    return since + (minutes + 1) * 60_000;
  });
  return times.length > 0 ? Math.min(...times) : undefined;
}

/** Pods a StatefulSet rollout can wait for, with when each stopped being Ready. */
function waitingForReady(pods: V1Pod[]): { pod: V1Pod; since: number }[] {
  return pods
    .filter(pod => !isTerminating(pod) && !isPodReady(pod))
    .map(pod => ({ pod, since: notReadySince(pod) }));
}

/** The Ready condition's last transition, else the pod's creation. */
function notReadySince(pod: V1Pod): number {
  const ready = (pod.status?.conditions ?? []).find(c => c.type === 'Ready');
  return (
    epochMs(ready?.lastTransitionTime) ??
    epochMs(pod.metadata?.creationTimestamp) ??
    0
  );
}

function replicaCounts(workload: Workload) {
  const status = workload.status;
  return {
    desired: workload.spec?.replicas ?? 1,
    current: status?.replicas ?? 0,
    ready: status?.readyReplicas ?? 0,
    updated: status?.updatedReplicas ?? 0,
    available: status?.availableReplicas ?? 0,
  };
}

function generationObserved(workload: Workload): boolean {
  return (
    (workload.status?.observedGeneration ?? 0) >=
    (workload.metadata?.generation ?? 0)
  );
}

export function claimRetention(sts: V1StatefulSet): ClaimRetention {
  const policy = sts.spec?.persistentVolumeClaimRetentionPolicy;
  // Kubernetes' defaults when the policy is unset.
  return {
    whenDeleted: (policy?.whenDeleted ?? 'Retain') as RetentionPolicy,
    whenScaled: (policy?.whenScaled ?? 'Retain') as RetentionPolicy,
  };
}

function summarizeStatefulSet(
  sts: V1StatefulSet,
  component: FlinkComponent,
): WorkloadStatus {
  const replicas = replicaCounts(sts);
  const { currentRevision, updateRevision } = sts.status ?? {};
  const rolloutComplete = statefulSetRolloutComplete(sts);
  return {
    kind: 'StatefulSet',
    name: sts.metadata?.name ?? '',
    component,
    replicas,
    generation: sts.metadata?.generation,
    observedGeneration: sts.status?.observedGeneration,
    currentRevision,
    updateRevision,
    rolloutComplete,
    podManagementPolicy: sts.spec?.podManagementPolicy ?? 'OrderedReady',
    retention: claimRetention(sts),
  };
}

/**
 * As `kubectl rollout status`: the controller only moves currentRevision to updateRevision once
 * every replica is updated and ready.
 */
function statefulSetRolloutComplete(sts: V1StatefulSet): boolean {
  const replicas = replicaCounts(sts);
  const { currentRevision, updateRevision } = sts.status ?? {};
  return (
    generationObserved(sts) &&
    replicas.updated >= replicas.desired &&
    replicas.ready >= replicas.desired &&
    (updateRevision === undefined || currentRevision === updateRevision)
  );
}

const REVISION_ANNOTATION = 'deployment.kubernetes.io/revision';

function summarizeDeployment(
  deployment: V1Deployment,
  component: FlinkComponent,
  pods: V1Pod[],
  replicaSets: V1ReplicaSet[] | undefined,
): WorkloadStatus {
  const replicas = replicaCounts(deployment);
  // As `kubectl rollout status`: all updated, no old replica left, all updated available.
  const rolloutComplete =
    generationObserved(deployment) &&
    replicas.updated >= replicas.desired &&
    replicas.current === replicas.updated &&
    replicas.available >= replicas.updated;
  const revisions = replicaSets
    ? revisionsFromReplicaSets(deployment, replicaSets)
    : revisionsFromPods(rolloutComplete, pods);
  return {
    kind: 'Deployment',
    name: deployment.metadata?.name ?? '',
    component,
    replicas,
    generation: deployment.metadata?.generation,
    observedGeneration: deployment.status?.observedGeneration,
    ...revisions,
    rolloutComplete,
    rolloutStalled: progressDeadlineExceeded(deployment),
  };
}

function progressDeadlineExceeded(deployment: V1Deployment) {
  const progressing = (deployment.status?.conditions ?? []).find(
    c => c.type === 'Progressing',
  );
  return progressing?.reason === 'ProgressDeadlineExceeded'
    ? (progressing.message ?? progressing.reason)
    : undefined;
}

/** The new ReplicaSet carries the Deployment's revision; the current one is the largest old one. */
function revisionsFromReplicaSets(
  deployment: V1Deployment,
  replicaSets: V1ReplicaSet[],
) {
  const owned = replicaSets.filter(rs =>
    (rs.metadata?.ownerReferences ?? []).some(
      o => o.kind === 'Deployment' && o.name === deployment.metadata?.name,
    ),
  );
  const revision = deployment.metadata?.annotations?.[REVISION_ANNOTATION];
  const hash = (rs?: V1ReplicaSet) =>
    rs?.metadata?.labels?.['pod-template-hash'];
  const newest = owned.find(
    rs => rs.metadata?.annotations?.[REVISION_ANNOTATION] === revision,
  );
  const largestOld = owned
    .filter(rs => rs !== newest && (rs.status?.replicas ?? 0) > 0)
    .sort((a, b) => (b.status?.replicas ?? 0) - (a.status?.replicas ?? 0))[0];
  const updateRevision = hash(newest);
  return {
    updateRevision,
    currentRevision: hash(largestOld) ?? updateRevision,
  };
}

/** Without ReplicaSets the update revision is only certain once every pod runs it. */
function revisionsFromPods(rolloutComplete: boolean, pods: V1Pod[]) {
  const revisions = new Set(
    pods.filter(p => !isTerminating(p)).map(podRevision),
  );
  if (!rolloutComplete || revisions.size !== 1) return {};
  const [revision] = [...revisions];
  return { currentRevision: revision, updateRevision: revision };
}
