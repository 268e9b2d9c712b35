import { InputError, NotFoundError } from '@backstage/errors';
import type { KubernetesObject, V1StatefulSet } from '@kubernetes/client-node';
import {
  TYPE_FLINK_STANDALONE,
  clusterObjectNames,
} from '@flink-standalone/plugin-flink-standalone-common';
import type { FlinkKubernetesCluster } from '../cluster/ClusterRegistry';
import { isNotFound } from '../kube/errors';
import { ObjectRef, refOf, resourcePath } from '../kube/resources';
import { SCALE_FIELD_MANAGER } from './applyCluster';

/**
 * A Flink cluster: its Kubernetes cluster, namespace and name (spec.name).
 *
 * @public
 */
export interface FlinkClusterRef {
  namespace: string;
  name: string;
}

/** @public */
export const clusterSelector = (name: string) =>
  `app=${name},type=${TYPE_FLINK_STANDALONE}`;

/**
 * The ConfigMaps Flink's Kubernetes HA keeps for a cluster (leader, job graphs, checkpoint
 * pointers): Flink labels them with the cluster id, which is the cluster's name, and gives
 * them no owner, so they outlive the cluster's other objects.
 */
export const highAvailabilitySelector = (name: string) =>
  `app=${name},configmap-type=high-availability`;

async function readOptional<T>(
  cluster: FlinkKubernetesCluster,
  path: string,
): Promise<T | undefined> {
  try {
    return await cluster.http.json<T>({ path });
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

/**
 * The TaskManager workload, whichever kind it is.
 *
 * @public
 */
export function findTaskManagerWorkload(
  cluster: FlinkKubernetesCluster,
  ref: FlinkClusterRef,
): Promise<KubernetesObject> {
  return findWorkload(cluster, ref, 'TaskManager');
}

/**
 * The JobManager workload, whichever kind it is.
 *
 * @public
 */
export function findJobManagerWorkload(
  cluster: FlinkKubernetesCluster,
  ref: FlinkClusterRef,
): Promise<KubernetesObject> {
  return findWorkload(cluster, ref, 'JobManager');
}

async function findWorkload(
  cluster: FlinkKubernetesCluster,
  { namespace, name }: FlinkClusterRef,
  component: 'JobManager' | 'TaskManager',
): Promise<KubernetesObject> {
  const names = clusterObjectNames(name);
  const workloadName =
    component === 'JobManager' ? names.jobManager : names.taskManager;
  for (const kind of ['StatefulSet', 'Deployment']) {
    const found = await readOptional<KubernetesObject>(
      cluster,
      resourcePath(kind, namespace, workloadName),
    );
    if (found) return { ...found, kind };
  }
  throw new NotFoundError(
    `Flink cluster ${namespace}/${name} has no ${component} workload (${workloadName})`,
  );
}

/**
 * Sets the TaskManager count through the workload's scale subresource. The replicas field is
 * then owned by our scale manager, which the next apply of the spec takes back.
 *
 * @public
 */
export async function scaleTaskManagers(
  cluster: FlinkKubernetesCluster,
  ref: FlinkClusterRef,
  replicas: number,
  options: { dryRun?: boolean } = {},
): Promise<{
  kind: string;
  name: string;
  previousReplicas: number;
  replicas: number;
}> {
  if (!Number.isInteger(replicas) || replicas < 0 || replicas > 1000) {
    throw new InputError(
      `replicas must be a whole number from 0 to 1000, not ${replicas}`,
    );
  }
  const workload = await findTaskManagerWorkload(cluster, ref);
  const path = `${resourcePath(workload.kind!, ref.namespace, workload.metadata!.name)}/scale`;
  const before = await cluster.http.json<{ spec: { replicas?: number } }>({
    path,
  });
  await cluster.http.json({
    method: 'PATCH',
    path,
    query: {
      fieldManager: SCALE_FIELD_MANAGER,
      dryRun: options.dryRun ? 'All' : undefined,
    },
    contentType: 'application/merge-patch+json',
    body: { spec: { replicas } },
  });
  return {
    kind: workload.kind!,
    name: workload.metadata!.name!,
    previousReplicas: before.spec.replicas ?? 0,
    replicas,
  };
}

/** Kinds a Flink cluster consists of, deleted workloads first so nothing restarts mid-way. */
const DELETE_ORDER = [
  'StatefulSet',
  'Deployment',
  'PodDisruptionBudget',
  'Service',
  'ConfigMap',
  'RoleBinding',
  'Role',
  'ServiceAccount',
];

/** @public */
export interface DeleteOptions {
  /**
   * true: delete every claim of the cluster. false: keep every claim, even where the retention
   * policy says Delete. Undefined: the StatefulSets' retention policy decides.
   */
  deleteClaims?: boolean;
  /**
   * true: also delete the HA ConfigMaps Flink created (once the pods are gone, so no
   * JobManager writes them again). Default false: kept, so a cluster created again under the
   * same name resumes its jobs from their latest checkpoints; deleting them is irreversible.
   */
  deleteHighAvailabilityData?: boolean;
  dryRun?: boolean;
}

/** @public */
export interface DeleteResult {
  deleted: ObjectRef[];
  claimsDeleted: string[];
  claimsKept: string[];
  highAvailabilityConfigMapsDeleted: string[];
  highAvailabilityConfigMapsKept: string[];
}

async function listByLabel(
  cluster: FlinkKubernetesCluster,
  kind: string,
  namespace: string,
  labelSelector: string,
) {
  const list = await cluster.http.json<{ items: KubernetesObject[] }>({
    path: resourcePath(kind, namespace),
    query: { labelSelector },
  });
  return list.items.map(item => ({ ...item, kind }));
}

async function deleteObject(
  cluster: FlinkKubernetesCluster,
  ref: ObjectRef,
  propagationPolicy: 'Background' | 'Orphan',
  dryRun?: boolean,
) {
  try {
    await cluster.http.json({
      method: 'DELETE',
      path: resourcePath(ref.kind, ref.namespace, ref.name),
      query: { dryRun: dryRun ? 'All' : undefined },
      body: { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy },
    });
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
}

/**
 * Deletes a Flink cluster's objects, and its claims as asked (or as its retention policy says).
 *
 * @public
 */
export async function deleteCluster(
  cluster: FlinkKubernetesCluster,
  ref: FlinkClusterRef,
  options: DeleteOptions = {},
): Promise<DeleteResult> {
  const deleted: ObjectRef[] = [];
  const selector = clusterSelector(ref.name);
  const claims = await listByLabel(
    cluster,
    'PersistentVolumeClaim',
    ref.namespace,
    selector,
  );
  for (const kind of DELETE_ORDER) {
    for (const object of await listByLabel(
      cluster,
      kind,
      ref.namespace,
      selector,
    )) {
      const objectRef = refOf(object);
      const claimsWouldGo =
        (object as V1StatefulSet).spec?.persistentVolumeClaimRetentionPolicy
          ?.whenDeleted === 'Delete';
      if (
        kind === 'StatefulSet' &&
        options.deleteClaims === false &&
        claimsWouldGo
      ) {
        // Orphaning strips the StatefulSet's owner references from its claims (keeping them);
        // the pods, orphaned too, are deleted next.
        await deleteObject(cluster, objectRef, 'Orphan', options.dryRun);
        for (const pod of await listByLabel(
          cluster,
          'Pod',
          ref.namespace,
          selector,
        )) {
          const owner = pod.metadata?.ownerReferences?.[0];
          if (!owner || owner.uid === object.metadata?.uid) {
            await deleteObject(
              cluster,
              refOf(pod),
              'Background',
              options.dryRun,
            );
          }
        }
      } else {
        await deleteObject(cluster, objectRef, 'Background', options.dryRun);
      }
      deleted.push(objectRef);
    }
  }
  return {
    deleted,
    ...(await settleClaims(cluster, claims, options)),
    ...(await settleHighAvailabilityData(cluster, ref, options)),
  };
}

/** Deletes the claims when asked; otherwise reports what the retention policy does with them. */
async function settleClaims(
  cluster: FlinkKubernetesCluster,
  claims: KubernetesObject[],
  options: DeleteOptions,
): Promise<Pick<DeleteResult, 'claimsDeleted' | 'claimsKept'>> {
  const claimNames = claims.map(c => c.metadata!.name!);
  if (options.deleteClaims) {
    for (const claim of claims)
      await deleteObject(cluster, refOf(claim), 'Background', options.dryRun);
    return { claimsDeleted: claimNames, claimsKept: [] };
  }
  if (options.deleteClaims === false)
    return { claimsDeleted: [], claimsKept: claimNames };
  // The retention policy decides: claims owned by a deleted StatefulSet go with it.
  const owned = (claim: KubernetesObject) =>
    claim.metadata?.ownerReferences?.some(
      o => o.kind === 'StatefulSet' || o.kind === 'Pod',
    );
  return {
    claimsDeleted: claims.filter(owned).map(c => c.metadata!.name!),
    claimsKept: claims.filter(c => !owned(c)).map(c => c.metadata!.name!),
  };
}

/** How long a delete waits for the pods to go (their grace period and Flink's shutdown). */
const PODS_GONE_TIMEOUT_MS = 120_000;

async function waitForPodsGone(
  cluster: FlinkKubernetesCluster,
  ref: FlinkClusterRef,
) {
  const deadline = Date.now() + PODS_GONE_TIMEOUT_MS;
  const selector = clusterSelector(ref.name);
  while (
    (await listByLabel(cluster, 'Pod', ref.namespace, selector)).length > 0
  ) {
    if (Date.now() > deadline) {
      throw new Error(
        `The pods of Flink cluster ${ref.namespace}/${ref.name} still exist ${PODS_GONE_TIMEOUT_MS / 1000} s after the delete, so its HA ConfigMaps were kept (a JobManager still running would write them again): delete again once the pods are gone`,
      );
    }
    await new Promise(resolve => setTimeout(resolve, 250));
  }
}

/**
 * The HA ConfigMaps: reported as kept, or deleted when asked. Deleted only after the pods are
 * gone, since a JobManager still shutting down renews its leader ConfigMap (creating it again).
 */
async function settleHighAvailabilityData(
  cluster: FlinkKubernetesCluster,
  ref: FlinkClusterRef,
  options: DeleteOptions,
): Promise<
  Pick<
    DeleteResult,
    'highAvailabilityConfigMapsDeleted' | 'highAvailabilityConfigMapsKept'
  >
> {
  const list = () =>
    listByLabel(
      cluster,
      'ConfigMap',
      ref.namespace,
      highAvailabilitySelector(ref.name),
    );
  if (!options.deleteHighAvailabilityData) {
    const kept = (await list()).map(c => c.metadata!.name!);
    return {
      highAvailabilityConfigMapsDeleted: [],
      highAvailabilityConfigMapsKept: kept,
    };
  }
  if (!options.dryRun) await waitForPodsGone(cluster, ref);
  const configMaps = await list();
  for (const configMap of configMaps)
    await deleteObject(cluster, refOf(configMap), 'Background', options.dryRun);
  return {
    highAvailabilityConfigMapsDeleted: configMaps.map(c => c.metadata!.name!),
    highAvailabilityConfigMapsKept: [],
  };
}
