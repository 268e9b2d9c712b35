import type { ConfigMap, Service } from 'kubernetes-types/core/v1';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1';
import type { ClusterSpec } from '../spec';
import { configHash, renderConfigMap } from './configMap';
import { RbacObject, renderRbac } from './rbac';
import { renderServices } from './services';
import {
  FlinkWorkload,
  renderPodDisruptionBudget,
  renderWorkload,
} from './workloads';

/** @public */
export type FlinkClusterObject =
  RbacObject | ConfigMap | Service | FlinkWorkload | PodDisruptionBudget;

/**
 * Renders a full spec (see `parseClusterSpec`) into the cluster's Kubernetes objects, in the
 * order they must be applied: RBAC, ConfigMap, Services, JobManager, TaskManagers, budget.
 * Pure: the same spec always gives the same objects.
 *
 * @public
 */
export function renderCluster(spec: ClusterSpec): FlinkClusterObject[] {
  const configMap = renderConfigMap(spec);
  const hash = configHash(configMap);
  const budget = renderPodDisruptionBudget(spec);
  return [
    ...renderRbac(spec),
    configMap,
    ...renderServices(spec),
    renderWorkload(spec, 'jobmanager', hash),
    renderWorkload(spec, 'taskmanager', hash),
    ...(budget ? [budget] : []),
  ];
}
