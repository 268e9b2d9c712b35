export { renderCluster } from './cluster';
export type { FlinkClusterObject } from './cluster';
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
export type { RbacObject } from './rbac';
export { toYaml, fromYaml } from './yaml';
export { renderClusterYaml } from './fromSpecYaml';
