/**
 * Node.js library of the Flink Standalone plugins: Kubernetes cluster access, the server-side
 * apply engine, the watch cache, the observer and the Flink REST client. Used by the backend
 * plugin and the scaffolder module.
 *
 * @packageDocumentation
 */
export {
  flinkStandaloneClusterServiceRef,
  FlinkStandaloneClusters,
} from './service/FlinkStandaloneClusterService';
export type {
  FlinkStandaloneClusterService,
  FlinkStandaloneClustersOptions,
} from './service/FlinkStandaloneClusterService';
export {
  flinkStandaloneAuthStrategyExtensionPoint,
  flinkStandaloneClusterSupplierExtensionPoint,
} from './cluster/extensions';
export type {
  FlinkClusterAuthStrategy,
  FlinkClusterCredential,
  FlinkClusterDetails,
  FlinkClusterSupplier,
  FlinkClusterSupplierRegistration,
  FlinkStandaloneAuthStrategyExtensionPoint,
  FlinkStandaloneClusterExtensions,
  FlinkStandaloneClusterSupplierExtensionPoint,
} from './cluster/extensions';
export {
  ConfigClusterSupplier,
  ServiceAccountStrategy,
} from './cluster/configClusters';
export type { InClusterOptions } from './cluster/configClusters';
export { flinkUiUrlFor } from './cluster/flinkUiUrl';
export { ClusterRegistry } from './cluster/ClusterRegistry';
export type {
  ClusterInfo,
  ClusterRegistryOptions,
  FlinkKubernetesCluster,
  FlinkRestAccess,
} from './cluster/ClusterRegistry';
export { KubeHttp, kubeConnectionOf } from './kube/KubeHttp';
export type { KubeConnection, KubeRequest } from './kube/KubeHttp';
export { KubernetesApiError } from './kube/errors';
export { resourcePath, describeRef } from './kube/resources';
export type { ObjectRef } from './kube/resources';
export {
  applyCluster,
  applyReportOf,
  serverSideApply,
  sortForApply,
  FieldConflictError,
  ImmutableFieldError,
  FIELD_MANAGER,
  SCALE_FIELD_MANAGER,
} from './apply/applyCluster';
export type {
  ApplyAction,
  ApplyOptions,
  ApplyProgress,
  ApplyReport,
  ApplyResult,
  AppliedObject,
  FieldConflict,
} from './apply/applyCluster';
export type { ImmutableChange, ImmutableField } from './apply/immutable';
export { diffCluster, jsonDiff } from './apply/diff';
export { planChange, planClusterChange } from './apply/changePlan';
export {
  upgradeCluster,
  savepointDirectoryOf,
  stopWithSavepoint,
} from './apply/upgradeCluster';
export type {
  PollOptions,
  UpgradeOptions,
  UpgradeResult,
} from './apply/upgradeCluster';
export {
  recordSavepoint,
  SAVEPOINT_FIELD_MANAGER,
} from './apply/savepointHistory';
export type { ChangePlanInput } from './apply/changePlan';
export type { FieldChange, ObjectDiff } from './apply/diff';
export {
  clusterSelector,
  deleteCluster,
  findJobManagerWorkload,
  findTaskManagerWorkload,
  scaleTaskManagers,
} from './apply/clusterOperations';
export type {
  DeleteOptions,
  DeleteResult,
  FlinkClusterRef,
} from './apply/clusterOperations';
export { deleteBlockingPod, rolloutBlockOf } from './apply/unblockRollout';
export type { UnblockRolloutResult } from './apply/unblockRollout';
export { forceDeleteLostPod, lostPodOf } from './apply/forceDeleteLostPod';
export {
  waitForReady,
  isReadyAsSimulated,
  progressSummary,
  ClusterNotReadyError,
} from './apply/waitForReady';
export type { WaitOptions, WaitProgress } from './apply/waitForReady';
export { ClusterWatchCache } from './watch/ClusterWatchCache';
export type {
  SnapshotSources,
  WatchCacheOptions,
} from './watch/ClusterWatchCache';
export {
  FLINK_REST_REFRESH_DEFAULTS,
  FlinkRestClient,
} from './rest/FlinkRestClient';
export { directBaseUrl, flinkRequest } from './rest/flinkRequest';
export type { FlinkRequest } from './rest/flinkRequest';
export type { FlinkRestClientOptions } from './rest/FlinkRestClient';
export type { SharedRestAnswers } from './rest/sharedRestAnswers';
export { FlinkObserver } from './service/FlinkObserver';
export type {
  FlinkObserverOptions,
  ObservedClusterRef,
  RecomputeCause,
} from './service/FlinkObserver';
export { jsonBody, precompressJson } from './service/precompressedJson';
export type { JsonParts, PrecompressedJson } from './service/precompressedJson';
export { observeCluster } from './observer/observeCluster';
export type {
  ClusterSnapshot,
  FlinkRestObservation,
  ObserveOptions,
  Workload,
} from './observer/types';
