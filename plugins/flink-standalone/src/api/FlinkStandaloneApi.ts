import { createApiRef } from '@backstage/core-plugin-api';
import type { CompoundEntityRef } from '@backstage/catalog-model';
import type {
  ClustersResponse,
  DeleteResponse,
  EntityFlinkStatusResponse,
  ForceDeletePodResponse,
  ScaleResponse,
  UnblockRolloutResponse,
} from '@flink-standalone/plugin-flink-standalone-common';

/**
 * The flink-standalone backend, as the card and tab use it.
 *
 * @public
 */
export interface FlinkStandaloneApi {
  /** The observed state of the entity's Flink cluster. */
  getEntityStatus(
    entity: CompoundEntityRef,
  ): Promise<EntityFlinkStatusResponse>;
  /** Sets the number of TaskManagers of the entity's cluster. */
  scaleTaskManagers(
    entity: CompoundEntityRef,
    taskManagers: number,
  ): Promise<ScaleResponse>;
  /** Deletes the entity's cluster; its claims too when `deleteClaims` is set. */
  deleteCluster(
    entity: CompoundEntityRef,
    options: { deleteClaims: boolean },
  ): Promise<DeleteResponse>;
  /** Deletes the pod the status names as blocking a StatefulSet rollout (409 for any other). */
  unblockRollout(
    entity: CompoundEntityRef,
    pod: string,
  ): Promise<UnblockRolloutResponse>;
  /** Force-deletes a pod the status shows stuck Terminating on a NotReady node (409 for any other). */
  forceDeletePod(
    entity: CompoundEntityRef,
    pod: string,
  ): Promise<ForceDeletePodResponse>;
  /** The Kubernetes clusters the backend can reach. */
  getClusters(): Promise<ClustersResponse>;
}

/** @public */
export const flinkStandaloneApiRef = createApiRef<FlinkStandaloneApi>({
  id: 'plugin.flink-standalone.service',
});
