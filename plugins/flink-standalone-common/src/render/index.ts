import type {
  V1ConfigMap,
  V1PodDisruptionBudget,
  V1Service,
} from '@kubernetes/client-node';
import type { ClusterSpec } from '../spec';
import { configHash, renderConfigMap } from './configMap';
import { RbacObject, renderRbac } from './rbac';
import { renderServices } from './services';
import {
  FlinkWorkload,
  renderPodDisruptionBudget,
  renderWorkload,
} from './workloads';

export type FlinkClusterObject =
  RbacObject | V1ConfigMap | V1Service | FlinkWorkload | V1PodDisruptionBudget;

/**
 * Renders a full spec (see `parseClusterSpec`) into the cluster's Kubernetes objects, in the
 * order they must be applied: RBAC, ConfigMap, Services, JobManager, TaskManagers, budget.
 * Pure: the same spec always gives the same objects.
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

export {
  clusterObjectNames,
  CONFIG_HASH_ANNOTATION,
  ANNOTATION_PREFIX,
  MAIN_CONTAINER,
  PORTS,
} from './names';
export type { ClusterObjectNames } from './names';
export { clusterLabels, selectorLabels, claimLabels } from './labels';
export type { FlinkComponent } from './labels';
export { flinkConfiguration, formatFlinkConfig } from './flinkConfig';
export type { FlinkConfig, FlinkConfigValue } from './flinkConfig';
export type { FlinkWorkload } from './workloads';
export { toYaml, fromYaml } from './yaml';
export { renderClusterYaml } from './fromSpecYaml';
