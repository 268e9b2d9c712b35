export { observeCluster } from './observeCluster';
export { DEFAULT_OBSERVE_OPTIONS } from './types';
export type {
  ClusterSnapshot,
  FlinkRestObservation,
  ObserveOptions,
  Workload,
} from './types';
