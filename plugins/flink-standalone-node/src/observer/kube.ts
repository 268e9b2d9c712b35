import type {
  V1ContainerStatus,
  V1Node,
  V1ObjectMeta,
  V1Pod,
  V1StatefulSet,
} from '@kubernetes/client-node';
import {
  FlinkComponent,
  LABEL_COMPONENT,
} from '@flink-standalone/plugin-flink-standalone-common';
import type { Workload } from './types';

/** Small readers of Kubernetes objects, shared by the observer's parts. */

/** The typed client says Date; objects read raw from a watch carry RFC 3339 strings. */
type Timestamp = Date | string | undefined;

export function epochMs(value: Timestamp): number | undefined {
  if (value === undefined) return undefined;
  const ms = typeof value === 'string' ? Date.parse(value) : value.getTime();
  return Number.isNaN(ms) ? undefined : ms;
}

export function isoTime(value: Timestamp): string | undefined {
  const ms = epochMs(value);
  return ms === undefined ? undefined : new Date(ms).toISOString();
}

export function objectRef(kind: string | undefined, name: string | undefined) {
  return `${kind ?? 'Object'}/${name ?? ''}`;
}

/** List items come without `kind`; a defaulted StatefulSet always has these spec fields. */
export function isStatefulSet(workload: Workload): workload is V1StatefulSet {
  if (workload.kind) return workload.kind === 'StatefulSet';
  const spec = (workload.spec ?? {}) as object;
  return (
    'podManagementPolicy' in spec ||
    'updateStrategy' in spec ||
    'serviceName' in spec
  );
}

export function workloadKind(workload: Workload) {
  return isStatefulSet(workload) ? 'StatefulSet' : 'Deployment';
}

export function componentLabel(
  meta: V1ObjectMeta | undefined,
): FlinkComponent | undefined {
  const value = meta?.labels?.[LABEL_COMPONENT];
  return value === 'jobmanager' || value === 'taskmanager' ? value : undefined;
}

export const COMPONENT_TITLE: Record<FlinkComponent, string> = {
  jobmanager: 'JobManager',
  taskmanager: 'TaskManager',
};

export function isTerminating(pod: V1Pod): boolean {
  return pod.metadata?.deletionTimestamp !== undefined;
}

export function isPodReady(pod: V1Pod): boolean {
  return (pod.status?.conditions ?? []).some(
    c => c.type === 'Ready' && c.status === 'True',
  );
}

/**
 * Init containers first: they run (and fail) first. The pod's own list when it has no init
 * containers (most pods): read it, never change it.
 */
export function containerStatuses(pod: V1Pod): readonly V1ContainerStatus[] {
  const init = pod.status?.initContainerStatuses;
  const main = pod.status?.containerStatuses ?? [];
  return init?.length ? [...init, ...main] : main;
}

/** The StatefulSet controller's revision label, or the ReplicaSet's template hash. */
export function podRevision(pod: V1Pod): string | undefined {
  const labels = pod.metadata?.labels ?? {};
  return labels['controller-revision-hash'] ?? labels['pod-template-hash'];
}

const POD_INDEX_LABEL = 'apps.kubernetes.io/pod-index';

/** A StatefulSet pod's ordinal: the controller's label (Kubernetes 1.28+), else the name's suffix. */
export function statefulSetOrdinal(
  pod: V1Pod,
  statefulSetName: string,
): number | null {
  const label = pod.metadata?.labels?.[POD_INDEX_LABEL];
  if (label !== undefined && /^\d+$/.test(label)) return Number(label);
  return ordinalSuffix(pod.metadata?.name ?? '', statefulSetName);
}

/** `<prefix>-<n>` → n */
function ordinalSuffix(name: string, prefix: string): number | null {
  const split = splitOrdinal(name);
  return split?.head === prefix ? split.ordinal : null;
}

/**
 * `<head>-<n>` → head and n, as the StatefulSet controller names pods and claims (string
 * operations, not a pattern built per name: statuses are computed on every change).
 */
export function splitOrdinal(
  name: string,
): { head: string; ordinal: number } | undefined {
  const dash = name.lastIndexOf('-');
  const digits = name.slice(dash + 1);
  if (dash < 0 || !/^\d+$/.test(digits)) return undefined;
  return { head: name.slice(0, dash), ordinal: Number(digits) };
}

export function isNodeReady(node: V1Node): boolean {
  return (node.status?.conditions ?? []).some(
    c => c.type === 'Ready' && c.status === 'True',
  );
}

/** kwok's fake nodes (as the test environment creates them): pods there run no process. */
export function isSimulatedNode(node: V1Node): boolean {
  return (
    node.metadata?.labels?.type === 'kwok' ||
    node.metadata?.annotations?.['kwok.x-k8s.io/node'] === 'fake'
  );
}

/** Names of the claims a pod mounts: its PVC volumes and its generic ephemeral volumes. */
export function podClaimNames(pod: V1Pod): string[] {
  const claims: string[] = [];
  for (const volume of pod.spec?.volumes ?? []) {
    if (volume.persistentVolumeClaim)
      claims.push(volume.persistentVolumeClaim.claimName);
    // Kubernetes names an ephemeral volume's claim <pod>-<volume>.
    else if (volume.ephemeral)
      claims.push(`${pod.metadata?.name ?? ''}-${volume.name}`);
  }
  return claims;
}
