import type {
  AuditorService,
  BackstageCredentials,
  LoggerService,
} from '@backstage/backend-plugin-api';
import { Entity, stringifyEntityRef } from '@backstage/catalog-model';
import { InputError, NotAllowedError, NotFoundError } from '@backstage/errors';
import type { CatalogService } from '@backstage/plugin-catalog-node';
import {
  AuthorizeResult,
  ResourcePermission,
} from '@backstage/plugin-permission-common';
import type { PermissionsService } from '@backstage/backend-plugin-api';
import {
  ANNOTATION_FLINK_UI_URL,
  ChangePlan,
  DeleteResponse,
  EntityFlinkStatusResponse,
  FlinkClusterLocation,
  FlinkClusterStatus,
  ForceDeletePodResponse,
  ScaleResponse,
  UnblockRolloutResponse,
  flinkStandaloneApplyPermission,
  flinkStandaloneDeletePermission,
  flinkStandalonePodForceDeletePermission,
  flinkStandaloneRolloutUnblockPermission,
  flinkStandaloneScalePermission,
  flinkStandaloneStatusReadPermission,
  getFlinkClusterLocation,
  parseClusterSpec,
} from '@flink-standalone/plugin-flink-standalone-common';
import {
  FlinkKubernetesCluster,
  FlinkStandaloneClusterService,
  JsonParts,
  deleteBlockingPod,
  deleteCluster,
  forceDeleteLostPod,
  planClusterChange,
  scaleTaskManagers,
} from '@flink-standalone/plugin-flink-standalone-node';

import type { StatusReadAccess } from './StatusReadAccess';

const CLOSING_BRACE = Buffer.from('}');

/** 404: the entity is not in the catalog, or the caller may not see it. */
const notInCatalog = (entityRef: string) =>
  new NotFoundError(`Entity ${entityRef} is not in the catalog`);

/** 403: the caller may see the entity but not do this to it. */
const notAllowed = (permission: { name: string }, entityRef: string) =>
  new NotAllowedError(`Not allowed to ${permission.name} on ${entityRef}`);

export interface EntityRefParts {
  kind: string;
  namespace: string;
  name: string;
}

export interface FlinkStandaloneServiceOptions {
  /** The backend's cluster service, shared with the scaffolder module. */
  clusters: FlinkStandaloneClusterService;
  catalog: CatalogService;
  permissions: PermissionsService;
  logger: LoggerService;
  /** Records the remedies that delete pods (who, which pod, why). */
  auditor?: AuditorService;
  /** Status reads from reused decisions and entities; absent: every read asks both. */
  statusReads?: StatusReadAccess;
}

/**
 * What the routes do, apart from HTTP: find the caller's entity in the catalog (with the
 * caller's credentials), authorize the caller for it, and act on its Flink cluster.
 */
export class FlinkStandaloneService {
  constructor(private readonly options: FlinkStandaloneServiceOptions) {}

  /** The entity, as the caller may see it (404 otherwise), after the caller is authorized (403). */
  private async authorizedEntity(
    ref: EntityRefParts,
    permission: ResourcePermission<'catalog-entity'>,
    credentials: BackstageCredentials,
  ): Promise<{
    entity: Entity;
    location: FlinkClusterLocation;
    cluster: FlinkKubernetesCluster;
  }> {
    const entityRef = stringifyEntityRef(ref);
    const entity = await this.options.catalog.getEntityByRef(entityRef, {
      credentials,
    });
    if (!entity) throw notInCatalog(entityRef);
    const [decision] = await this.options.permissions.authorize(
      [{ permission, resourceRef: entityRef }],
      {
        credentials,
      },
    );
    if (decision.result !== AuthorizeResult.ALLOW)
      throw notAllowed(permission, entityRef);
    return this.locate(entity, entityRef);
  }

  /** Where the entity's Flink cluster is, refused when its Kubernetes cluster or namespace is not allowed. */
  private async locate(
    entity: Entity,
    entityRef: string,
  ): Promise<{
    entity: Entity;
    location: FlinkClusterLocation;
    cluster: FlinkKubernetesCluster;
  }> {
    const location = getFlinkClusterLocation(entity);
    const registry = await this.options.clusters.getClusters();
    if (!registry.list().some(c => c.name === location.kubernetesCluster)) {
      throw new InputError(
        `Entity ${entityRef} names Kubernetes cluster "${location.kubernetesCluster}", which is not configured`,
      );
    }
    // Refuses a namespace outside the cluster's allowed list before any Kubernetes call.
    const cluster = registry.authorize(
      location.kubernetesCluster,
      location.namespace,
    );
    return { entity, location, cluster };
  }

  /**
   * `authorizedEntity` for a status read, from the decisions and entities `statusReads` keeps
   * where they are definitive (the polled route; see StatusReadAccess).
   */
  private async readableEntity(
    ref: EntityRefParts,
    credentials: BackstageCredentials,
  ) {
    const entityRef = stringifyEntityRef(ref);
    const answer = await this.options.statusReads?.read(entityRef, credentials);
    if (!answer) {
      return this.authorizedEntity(
        ref,
        flinkStandaloneStatusReadPermission,
        credentials,
      );
    }
    if (answer.result === 'not-found') throw notInCatalog(entityRef);
    if (answer.result === 'denied')
      throw notAllowed(flinkStandaloneStatusReadPermission, entityRef);
    return this.locate(answer.entity, entityRef);
  }

  /**
   * The `EntityFlinkStatusResponse`, as UTF-8 JSON in parts to be written in order: the
   * observer serializes and compresses a status once per change, and this only wraps it
   * (status requests are the polled ones).
   */
  async getStatusJson(
    ref: EntityRefParts,
    credentials: BackstageCredentials,
  ): Promise<JsonParts> {
    const { entity, location, cluster } = await this.readableEntity(
      ref,
      credentials,
    );
    const observer = await this.options.clusters.getObserver();
    const status = await observer.getStatusJson({
      cluster: location.kubernetesCluster,
      namespace: location.namespace,
      name: location.name,
    });
    const around: Omit<EntityFlinkStatusResponse, 'status'> = {
      location,
      flinkUiUrl: this.options.clusters.flinkUiUrl(
        cluster,
        location,
        entity.metadata.annotations?.[ANNOTATION_FLINK_UI_URL],
      ),
    };
    return [
      Buffer.from(`${JSON.stringify(around).slice(0, -1)},"status":`),
      ...status,
      CLOSING_BRACE,
    ];
  }

  async scale(
    ref: EntityRefParts,
    taskManagers: number,
    credentials: BackstageCredentials,
  ): Promise<ScaleResponse> {
    const { location, cluster } = await this.authorizedEntity(
      ref,
      flinkStandaloneScalePermission,
      credentials,
    );
    const result = await scaleTaskManagers(cluster, location, taskManagers);
    this.options.logger.info(
      `Scaled ${location.namespace}/${result.name} on ${cluster.name} from ${result.previousReplicas} to ${result.replicas} TaskManagers for ${stringifyEntityRef(ref)}`,
    );
    return result;
  }

  /**
   * What applying `specInput` to the entity's cluster would do (a server-side dry run: nothing
   * changes). Needs the apply permission: a plan is the first step of a change. The spec must
   * name the entity's cluster (400 otherwise).
   */
  async planChange(
    ref: EntityRefParts,
    specInput: unknown,
    credentials: BackstageCredentials,
  ): Promise<ChangePlan> {
    const { location, cluster } = await this.authorizedEntity(
      ref,
      flinkStandaloneApplyPermission,
      credentials,
    );
    const spec = parseClusterSpec(specInput);
    for (const field of ['name', 'namespace'] as const) {
      if (spec[field] !== location[field]) {
        throw new InputError(
          `spec.${field}: must be the entity's cluster ${field} "${location[field]}", not "${spec[field]}"`,
        );
      }
    }
    return planClusterChange(
      cluster,
      await this.options.clusters.getObserver(),
      spec,
    );
  }

  /**
   * The remedy for a blocked StatefulSet rollout: deletes the pod the observer names, asked
   * afresh (409 when it no longer blocks), and records who did it in the audit log.
   */
  async unblockRollout(
    ref: EntityRefParts,
    pod: string,
    credentials: BackstageCredentials,
  ): Promise<UnblockRolloutResponse> {
    return this.podRemedy(ref, pod, credentials, {
      permission: flinkStandaloneRolloutUnblockPermission,
      eventId: 'rollout-unblock',
      severityLevel: 'medium',
      remedy: deleteBlockingPod,
      done: result =>
        `Deleted pod ${pod} to unblock the rollout of ${result.workload} (revision ${result.revision} → ${result.updateRevision})`,
    });
  }

  /**
   * The remedy for a pod stuck Terminating on a lost node: force-deletes it when the observer,
   * asked afresh, shows it stuck on a NotReady node (409 otherwise); audited at high severity.
   */
  async forceDeletePod(
    ref: EntityRefParts,
    pod: string,
    credentials: BackstageCredentials,
  ): Promise<ForceDeletePodResponse> {
    return this.podRemedy(ref, pod, credentials, {
      permission: flinkStandalonePodForceDeletePermission,
      eventId: 'pod-force-delete',
      severityLevel: 'high',
      remedy: forceDeleteLostPod,
      done: result =>
        `Force-deleted pod ${pod}, stuck Terminating on NotReady node ${result.node}`,
    });
  }

  /**
   * One remedy on one pod: authorized for the entity, judged against a fresh status, logged with
   * who asked, and an audit event whatever the outcome.
   */
  private async podRemedy<T extends object>(
    ref: EntityRefParts,
    pod: string,
    credentials: BackstageCredentials,
    how: {
      permission: ResourcePermission<'catalog-entity'>;
      eventId: string;
      severityLevel: 'medium' | 'high';
      remedy: (
        cluster: FlinkKubernetesCluster,
        status: FlinkClusterStatus,
        pod: string,
      ) => Promise<T>;
      done: (result: T) => string;
    },
  ): Promise<T> {
    const { location, cluster } = await this.authorizedEntity(
      ref,
      how.permission,
      credentials,
    );
    const entityRef = stringifyEntityRef(ref);
    const audit = await this.options.auditor?.createEvent({
      eventId: how.eventId,
      severityLevel: how.severityLevel,
      meta: {
        entityRef,
        cluster: cluster.name,
        namespace: location.namespace,
        pod,
      },
    });
    try {
      const observer = await this.options.clusters.getObserver();
      const status = await observer.getStatus({
        cluster: location.kubernetesCluster,
        namespace: location.namespace,
        name: location.name,
      });
      const result = await how.remedy(cluster, status, pod);
      this.options.logger.info(
        `${how.done(result)} in ${location.namespace} on ${cluster.name} for ${entityRef}`,
      );
      await audit?.success({ meta: { ...result } });
      return result;
    } catch (error) {
      await audit?.fail({ error: error as Error });
      throw error;
    }
  }

  async delete(
    ref: EntityRefParts,
    options: { deleteClaims?: boolean; deleteHighAvailabilityData?: boolean },
    credentials: BackstageCredentials,
  ): Promise<DeleteResponse> {
    const { location, cluster } = await this.authorizedEntity(
      ref,
      flinkStandaloneDeletePermission,
      credentials,
    );
    const result = await deleteCluster(cluster, location, options);
    this.options.logger.info(
      `Deleted Flink cluster ${location.namespace}/${location.name} on ${cluster.name} for ${stringifyEntityRef(ref)} (claims deleted: ${result.claimsDeleted.length}, kept: ${result.claimsKept.length})`,
    );
    return {
      deleted: result.deleted.map(({ kind, name }) => ({ kind, name })),
      claimsDeleted: result.claimsDeleted,
      claimsKept: result.claimsKept,
      highAvailabilityConfigMapsDeleted:
        result.highAvailabilityConfigMapsDeleted,
      highAvailabilityConfigMapsKept: result.highAvailabilityConfigMapsKept,
    };
  }
}
