/**
 * A real Kubernetes control plane and a real Flink session cluster on 127.0.0.1, for tests and
 * local development.
 *
 * @packageDocumentation
 */
export {
  isAllowed,
  serviceAccountSubject,
  untilAllowed,
} from './accessReviews';
export type { AccessSubject, ResourceAction } from './accessReviews';
export {
  issueClientCertificate,
  selfSignedCertificate,
} from './clientCertificates';
export { startControlPlane } from './controlPlane';
export type {
  AdminCredentials,
  ControlPlane,
  ControlPlaneOptions,
} from './controlPlane';
export { Faults, NO_VOLUME_LABEL, STUCK_FINALIZER } from './faults';
export type { PodFailure } from './faults';
export {
  DEFAULT_FLINK_VERSION,
  ensureFlinkClasspath,
  FLINK_VERSIONS,
  resolveFlinkVersion,
  startFlinkSession,
} from './flink';
export type { FlinkSession, FlinkSessionOptions } from './flink';
export { KubeApiError, KubeClient } from './kubeClient';
export type {
  KubeCredentials,
  KubeList,
  KubeObject,
  PatchType,
} from './kubeClient';
export { parseKubeconfig, renderKubeconfig } from './kubeconfig';
export { defaultNodes, isNodeReady, ZONE_LABEL } from './nodes';
export type { FakeNodeSpec } from './nodes';
export {
  BINARY_NAMES,
  cacheDir,
  DEFAULT_VERSIONS,
  resolveBinaries,
  resolveBinary,
} from './paths';
export type { BinaryName } from './paths';
export {
  FatalError,
  ManagedProcess,
  removeWorkDir,
  waitFor,
} from './processes';
export type { ProcessSpec } from './processes';
export { freePorts } from './ports';
export {
  IMMEDIATE_STORAGE_CLASS,
  RETAIN_STORAGE_CLASS,
  POOL_LABEL,
  WAIT_FOR_FIRST_CONSUMER_STORAGE_CLASS,
} from './storage';
export type { VolumePoolOptions } from './storage';
export {
  connectSharedControlPlane,
  createRealNodeNamespace,
  createTestNamespace,
  SHARED_PLANE_ENV,
  useControlPlane,
} from './shared';
export type { RealNodeInfo, SharedControlPlane } from './shared';
export {
  DEFAULT_NODE_FLINK_VERSIONS,
  PAUSE_IMAGE,
  REAL_NODE_LABEL,
  REAL_NODE_TAINT,
  realNodeNamespaceAnnotations,
} from './realNode';
export type { RealNode, RealNodeOptions } from './realNode';
export { cleanUpStaleRuns } from './cleanup';
export {
  createReadyPod,
  headlessService,
  holds,
  isPodReady,
  simplePod,
} from './testHelpers';
export {
  credentialLeaks,
  installServiceAccount,
  serviceAccountToken,
  tokenKubeconfig,
} from './serviceAccounts';
export type {
  InstalledServiceAccount,
  RbacManifestObject,
  RbacRule,
  ServiceAccountOptions,
} from './serviceAccounts';
export { startCountingApiProxy } from './countingProxy';
export type { CountingApiProxy, ProxiedRequest } from './countingProxy';
export { stopTestBackend, testDatabaseServiceFactory } from './testDatabases';
