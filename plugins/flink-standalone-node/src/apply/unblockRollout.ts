import { ConflictError } from '@backstage/errors';
import type {
  FlinkClusterStatus,
  RolloutBlock,
  WorkloadStatus,
} from '@flink-standalone/plugin-flink-standalone-common';
import type { FlinkKubernetesCluster } from '../cluster/ClusterRegistry';
import { resourcePath } from '../kube/resources';

/**
 * Deletes a pod only if it is still the pod that was looked at (uid precondition): a pod the
 * controller replaced meanwhile, under the same name, is left alone. `gracePeriodSeconds: 0`
 * is a force delete: the object goes without waiting for the kubelet to confirm.
 */
export async function deletePodAsSeen(
  cluster: FlinkKubernetesCluster,
  namespace: string,
  pod: string,
  options: { gracePeriodSeconds?: number } = {},
): Promise<{ uid: string }> {
  const path = resourcePath('Pod', namespace, pod);
  const live = await cluster.http.json<{ metadata: { uid: string } }>({
    path,
  });
  await cluster.http.json({
    method: 'DELETE',
    path,
    body: {
      kind: 'DeleteOptions',
      apiVersion: 'v1',
      preconditions: { uid: live.metadata.uid },
      ...options,
    },
  });
  return { uid: live.metadata.uid };
}

/**
 * What deleting a rollout's blocking pod did.
 *
 * @public
 */
export interface UnblockRolloutResult {
  /** The deleted pod; the controller recreates it at `updateRevision` on the same claim. */
  pod: string;
  workload: string;
  revision?: string;
  updateRevision: string;
}

/**
 * The rollout block naming `pod` in a status, or a 409 that says why nothing will be deleted:
 * the remedy applies to exactly the pod the observer names, not to any pod.
 *
 * @public
 */
export function rolloutBlockOf(
  status: FlinkClusterStatus,
  pod: string,
): { workload: WorkloadStatus; block: RolloutBlock } {
  for (const workload of [status.jobManager, status.taskManager]) {
    const block = workload?.rolloutBlocked;
    if (block?.pod === pod) return { workload: workload!, block };
  }
  const blocking = [status.jobManager, status.taskManager]
    .map(w => w?.rolloutBlocked?.pod)
    .filter(Boolean);
  const which = blocking.length
    ? `the blocking pod is ${blocking.join(', ')}`
    : 'no rollout is blocked';
  throw new ConflictError(
    `Pod ${pod} does not block a rollout of ${status.namespace}/${status.name} (${which}): nothing was deleted`,
  );
}

/**
 * Deletes the pod that blocks a StatefulSet rollout, gracefully and only if it is still the
 * pod the observer saw. This is the remedy for kubernetes/kubernetes#67250.
 *
 * @public
 */
export async function deleteBlockingPod(
  cluster: FlinkKubernetesCluster,
  status: FlinkClusterStatus,
  pod: string,
): Promise<UnblockRolloutResult> {
  const { workload, block } = rolloutBlockOf(status, pod);
  await deletePodAsSeen(cluster, status.namespace, pod);
  return {
    pod,
    workload: workload.name,
    revision: block.revision,
    updateRevision: block.updateRevision,
  };
}
