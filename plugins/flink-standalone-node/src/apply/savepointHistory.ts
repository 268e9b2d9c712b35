import {
  parseSavepointHistory,
  SAVEPOINT_HISTORY_ANNOTATION,
  SAVEPOINT_HISTORY_LIMIT,
  SavepointRecord,
} from '@flink-standalone/plugin-flink-standalone-common';
import type { FlinkKubernetesCluster } from '../cluster/ClusterRegistry';
import { serverSideApply } from './applyCluster';
import { FlinkClusterRef, findJobManagerWorkload } from './clusterOperations';

export type { SavepointRecord };

/**
 * The field manager of the savepoint history annotation only, so that applying the spec never
 * takes it away.
 *
 * @public
 */
export const SAVEPOINT_FIELD_MANAGER = 'flink-standalone-savepoints';

/**
 * Adds a savepoint to the cluster's history, on its JobManager workload (newest first, the
 * latest `SAVEPOINT_HISTORY_LIMIT` kept).
 *
 * @public
 */
export async function recordSavepoint(
  cluster: FlinkKubernetesCluster,
  ref: FlinkClusterRef,
  record: SavepointRecord,
): Promise<SavepointRecord[]> {
  const workload = await findJobManagerWorkload(cluster, ref);
  const history = [
    record,
    ...parseSavepointHistory(
      workload.metadata?.annotations?.[SAVEPOINT_HISTORY_ANNOTATION],
    ),
  ].slice(0, SAVEPOINT_HISTORY_LIMIT);
  await serverSideApply(
    cluster,
    {
      apiVersion: workload.apiVersion,
      kind: workload.kind,
      metadata: {
        name: workload.metadata!.name,
        namespace: ref.namespace,
        annotations: {
          [SAVEPOINT_HISTORY_ANNOTATION]: JSON.stringify(history),
        },
      },
    },
    { fieldManager: SAVEPOINT_FIELD_MANAGER, force: true },
  );
  return history;
}
