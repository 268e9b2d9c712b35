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

/** A Flink cluster: its Kubernetes cluster, namespace and name (spec.name). */
export interface FlinkClusterRef {
  namespace: string;
  name: string;
}

export const clusterSelector = (name: string) =>
  `app=${name},type=${TYPE_FLINK_STANDALONE}`;

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

/** The TaskManager workload, whichever kind it is. */
export async function findTaskManagerWorkload(
  cluster: FlinkKubernetesCluster,
  { namespace, name }: FlinkClusterRef,
): Promise<KubernetesObject> {
  const workloadName = clusterObjectNames(name).taskManager;
  for (const kind of ['StatefulSet', 'Deployment']) {
    const found = await readOptional<KubernetesObject>(
      cluster,
      resourcePath(kind, namespace, workloadName),
    );
    if (found) return { ...found, kind };
  }
  throw new NotFoundError(
    `Flink cluster ${namespace}/${name} has no TaskManager workload (${workloadName})`,
  );
}

/**
 * Sets the TaskManager count through the workload's scale subresource. The replicas field is
 * then owned by our scale manager, which the next apply of the spec takes back.
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

export interface DeleteOptions {
  /**
   * true: delete every claim of the cluster. false: keep every claim, even where the retention
   * policy says Delete. Undefined: the StatefulSets' retention policy decides.
   */
  deleteClaims?: boolean;
  dryRun?: boolean;
}

export interface DeleteResult {
  deleted: ObjectRef[];
  claimsDeleted: string[];
  claimsKept: string[];
}

async function listByLabel(
  cluster: FlinkKubernetesCluster,
  kind: string,
  namespace: string,
  name: string,
) {
  const list = await cluster.http.json<{ items: KubernetesObject[] }>({
    path: resourcePath(kind, namespace),
    query: { labelSelector: clusterSelector(name) },
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

/** Deletes a Flink cluster's objects, and its claims as asked (or as its retention policy says). */
export async function deleteCluster(
  cluster: FlinkKubernetesCluster,
  ref: FlinkClusterRef,
  options: DeleteOptions = {},
): Promise<DeleteResult> {
  const deleted: ObjectRef[] = [];
  const claims = await listByLabel(
    cluster,
    'PersistentVolumeClaim',
    ref.namespace,
    ref.name,
  );
  for (const kind of DELETE_ORDER) {
    for (const object of await listByLabel(
      cluster,
      kind,
      ref.namespace,
      ref.name,
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
          ref.name,
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
  const claimNames = claims.map(c => c.metadata!.name!);
  if (options.deleteClaims) {
    for (const claim of claims)
      await deleteObject(cluster, refOf(claim), 'Background', options.dryRun);
    return { deleted, claimsDeleted: claimNames, claimsKept: [] };
  }
  if (options.deleteClaims === false)
    return { deleted, claimsDeleted: [], claimsKept: claimNames };
  // The retention policy decides: claims owned by a deleted StatefulSet go with it.
  const owned = (claim: KubernetesObject) =>
    claim.metadata?.ownerReferences?.some(
      o => o.kind === 'StatefulSet' || o.kind === 'Pod',
    );
  return {
    deleted,
    claimsDeleted: claims.filter(owned).map(c => c.metadata!.name!),
    claimsKept: claims.filter(c => !owned(c)).map(c => c.metadata!.name!),
  };
}
