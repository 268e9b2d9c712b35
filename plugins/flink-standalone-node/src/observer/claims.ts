import type { V1PersistentVolumeClaim } from '@kubernetes/client-node';
import type {
  ClaimPhase,
  ClaimStatus,
  FlinkComponent,
  PodStatus,
  WorkloadStatus,
} from '@flink-standalone/plugin-flink-standalone-common';
import { componentLabel, splitOrdinal } from './kube';

export interface ClaimContext {
  workloads: {
    component: FlinkComponent;
    name: string;
    status?: WorkloadStatus;
  }[];
  pods: PodStatus[];
}

/** Where a claim comes from: an ephemeral volume of a pod, or a StatefulSet claim template. */
interface ClaimOrigin {
  component?: FlinkComponent;
  ordinal: number | null;
  template?: string;
  retention?: ClaimStatus['retention'];
  pod?: string;
}

export function summarizeClaim(
  claim: V1PersistentVolumeClaim,
  ctx: ClaimContext,
): ClaimStatus {
  const origin = ephemeralOrigin(claim, ctx) ??
    statefulSetOrigin(claim, ctx) ?? { ordinal: null };
  return {
    name: claim.metadata?.name ?? '',
    component: componentLabel(claim.metadata) ?? origin.component,
    ordinal: origin.ordinal,
    template: origin.template,
    phase: (claim.status?.phase ?? 'Pending') as ClaimPhase,
    capacity: claim.status?.capacity?.storage,
    requested: claim.spec?.resources?.requests?.storage,
    storageClass: claim.spec?.storageClassName,
    volumeName: claim.spec?.volumeName,
    accessModes: claim.status?.accessModes ?? claim.spec?.accessModes ?? [],
    retention: origin.retention,
    pod: origin.pod,
  };
}

/** Kubernetes makes an ephemeral volume's claim owned by its pod, named <pod>-<volume>. */
function ephemeralOrigin(
  claim: V1PersistentVolumeClaim,
  ctx: ClaimContext,
): ClaimOrigin | undefined {
  const owner = (claim.metadata?.ownerReferences ?? []).find(
    o => o.kind === 'Pod',
  );
  if (!owner) return undefined;
  const pod = ctx.pods.find(p => p.name === owner.name);
  const name = claim.metadata?.name ?? '';
  return {
    component: pod?.component,
    ordinal: pod?.ordinal ?? null,
    template: name.startsWith(`${owner.name}-`)
      ? name.slice(owner.name.length + 1)
      : undefined,
    retention: 'Ephemeral',
    pod: owner.name,
  };
}

/**
 * The StatefulSet controller names claims <template>-<statefulset>-<ordinal>. Matching on the
 * name also places claims a StatefulSet left behind (deleted with its claims orphaned, or
 * replaced by a Deployment of the same name).
 */
function statefulSetOrigin(
  claim: V1PersistentVolumeClaim,
  ctx: ClaimContext,
): ClaimOrigin | undefined {
  const split = splitOrdinal(claim.metadata?.name ?? '');
  if (!split) return undefined;
  const { head, ordinal } = split;
  for (const workload of ctx.workloads) {
    // <template>-<workload>, read in place: no name built per claim and workload.
    const dash = head.length - workload.name.length - 1;
    if (dash < 1 || head[dash] !== '-' || !head.endsWith(workload.name))
      continue;
    const template = head.slice(0, dash);
    const podName = `${workload.name}-${ordinal}`;
    return {
      component: workload.component,
      ordinal,
      template,
      retention: workload.status?.retention,
      pod: ctx.pods.some(p => p.name === podName) ? podName : undefined,
    };
  }
  return undefined;
}
