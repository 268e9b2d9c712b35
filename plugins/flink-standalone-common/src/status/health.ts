import type {
  ClusterCondition,
  ClusterConditionType,
  FlinkClusterStatus,
} from './types';

/** @public */
export function findCondition(
  status: FlinkClusterStatus,
  type: ClusterConditionType,
): ClusterCondition | undefined {
  return status.conditions.find(c => c.type === type);
}

/**
 * READY, every condition True, and not from a stale cache.
 *
 * @public
 */
export function isHealthy(status: FlinkClusterStatus): boolean {
  return (
    status.jobManagerDeploymentStatus === 'READY' &&
    !status.stale &&
    status.conditions.every(c => c.status === 'True')
  );
}
