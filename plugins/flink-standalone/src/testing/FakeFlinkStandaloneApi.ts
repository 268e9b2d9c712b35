import type { CompoundEntityRef } from '@backstage/catalog-model';
import { ConflictError, NotFoundError } from '@backstage/errors';
import type {
  ClustersResponse,
  DeleteResponse,
  EntityFlinkStatusResponse,
  ForceDeletePodResponse,
  ScaleResponse,
  UnblockRolloutResponse,
} from '@flink-standalone/plugin-flink-standalone-common';
import type { FlinkStandaloneApi } from '../api';

/**
 * An in-memory FlinkStandaloneApi for the dev harness and tests: answers a fixed response per
 * entity name; scaling changes the desired TaskManagers, deleting forgets the cluster.
 */
export class FakeFlinkStandaloneApi implements FlinkStandaloneApi {
  private readonly responses: Map<string, EntityFlinkStatusResponse>;

  constructor(responses: Record<string, EntityFlinkStatusResponse>) {
    this.responses = new Map(Object.entries(responses));
  }

  async getEntityStatus(entity: CompoundEntityRef) {
    return this.find(entity);
  }

  async scaleTaskManagers(entity: CompoundEntityRef, taskManagers: number) {
    const response = this.find(entity);
    const taskManager = response.status.taskManager;
    if (!taskManager) throw new NotFoundError('no TaskManager workload');
    const scaled: ScaleResponse = {
      kind: taskManager.kind,
      name: taskManager.name,
      previousReplicas: taskManager.replicas.desired,
      replicas: taskManagers,
    };
    this.responses.set(entity.name, {
      ...response,
      status: {
        ...response.status,
        taskManager: {
          ...taskManager,
          replicas: { ...taskManager.replicas, desired: taskManagers },
        },
      },
    });
    return scaled;
  }

  async deleteCluster(
    entity: CompoundEntityRef,
    options: { deleteClaims: boolean },
  ): Promise<DeleteResponse> {
    const { status } = this.find(entity);
    this.responses.delete(entity.name);
    const claims = status.claims.map(c => c.name);
    return {
      deleted: [status.jobManager, status.taskManager].flatMap(w =>
        w ? [{ kind: w.kind, name: w.name }] : [],
      ),
      claimsDeleted: options.deleteClaims ? claims : [],
      claimsKept: options.deleteClaims ? [] : claims,
    };
  }

  async unblockRollout(
    entity: CompoundEntityRef,
    pod: string,
  ): Promise<UnblockRolloutResponse> {
    const { status } = this.find(entity);
    const workload = [status.jobManager, status.taskManager].find(
      w => w?.rolloutBlocked?.pod === pod,
    );
    if (!workload)
      throw new ConflictError(`Pod ${pod} does not block a rollout`);
    return {
      pod,
      workload: workload.name,
      revision: workload.rolloutBlocked!.revision,
      updateRevision: workload.rolloutBlocked!.updateRevision,
    };
  }

  async forceDeletePod(
    entity: CompoundEntityRef,
    pod: string,
  ): Promise<ForceDeletePodResponse> {
    const { status } = this.find(entity);
    const lost = status.pods.find(
      p => p.name === pod && p.stuck && p.nodeReady === false,
    );
    if (!lost)
      throw new ConflictError(
        `Pod ${pod} is not stuck Terminating on a NotReady node`,
      );
    return {
      pod,
      node: lost.node ?? '',
      terminatingSince: lost.terminatingSince,
    };
  }

  async getClusters(): Promise<ClustersResponse> {
    const names = new Set(
      [...this.responses.values()].map(r => r.location.kubernetesCluster),
    );
    return { clusters: [...names].map(name => ({ name })) };
  }

  private find(entity: CompoundEntityRef): EntityFlinkStatusResponse {
    const response = this.responses.get(entity.name);
    if (!response)
      throw new NotFoundError(`no Flink cluster for ${entity.name}`);
    return response;
  }
}
