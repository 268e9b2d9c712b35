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
  WorkloadStatus,
} from '@flink-standalone/plugin-flink-standalone-common';
import { isStatefulSet, isTerminating, podRevision } from './kube';
import type { Workload } from './types';

export function summarizeWorkload(
  workload: Workload,
  component: FlinkComponent,
  pods: V1Pod[],
  replicaSets: V1ReplicaSet[] | undefined,
): WorkloadStatus {
  return isStatefulSet(workload)
    ? summarizeStatefulSet(workload, component)
    : summarizeDeployment(workload, component, pods, replicaSets);
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
  // As `kubectl rollout status`: the controller only moves currentRevision to updateRevision
  // once every replica is updated and ready.
  const rolloutComplete =
    generationObserved(sts) &&
    replicas.updated >= replicas.desired &&
    replicas.ready >= replicas.desired &&
    (updateRevision === undefined || currentRevision === updateRevision);
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
