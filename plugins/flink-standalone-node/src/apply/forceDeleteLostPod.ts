import { ConflictError } from '@backstage/errors';
import type {
  FlinkClusterStatus,
  ForceDeletePodResponse,
  PodStatus,
} from '@flink-standalone/plugin-flink-standalone-common';
import type { FlinkKubernetesCluster } from '../cluster/ClusterRegistry';
import { deletePodAsSeen } from './unblockRollout';

/**
 * The pod named `pod` if the status shows it stuck Terminating on a NotReady node, or a 409 that
 * says why nothing will be deleted: a force delete is only for a pod whose node cannot confirm
 * its end, never a way to hurry a pod on a healthy node.
 *
 * @public
 */
export function lostPodOf(status: FlinkClusterStatus, pod: string): PodStatus {
  const lost = status.pods.filter(p => p.stuck && p.nodeReady === false);
  const found = lost.find(p => p.name === pod);
  if (found) return found;
  const which = lost.length
    ? `pods stuck on a NotReady node: ${lost.map(p => p.name).join(', ')}`
    : 'no pod is stuck Terminating on a NotReady node';
  throw new ConflictError(
    `Pod ${pod} of ${status.namespace}/${status.name} is not stuck Terminating on a NotReady node (${which}): nothing was deleted`,
  );
}

/**
 * Force-deletes (grace period 0) a pod stuck Terminating on a NotReady node, if it is still the
 * pod that is stuck (uid precondition). Its StatefulSet then creates the ordinal again, with the
 * same claim. What `kubectl delete pod --grace-period=0 --force` does, guarded by the status.
 *
 * @public
 */
export async function forceDeleteLostPod(
  cluster: FlinkKubernetesCluster,
  status: FlinkClusterStatus,
  pod: string,
): Promise<ForceDeletePodResponse> {
  const lost = lostPodOf(status, pod);
  await deletePodAsSeen(cluster, status.namespace, pod, {
    gracePeriodSeconds: 0,
  });
  return {
    pod,
    node: lost.node ?? '',
    terminatingSince: lost.terminatingSince,
  };
}
