import {
  ALL_LOCAL_RECOVERY_KEYS,
  JAVA_DEFAULT_OPTIONS_KEY,
  LOCAL_STATE_DIR_KEYS,
} from './flinkVersions';

/**
 * Flink configuration keys the renderer sets itself. A user value for one of them would either
 * be overwritten or break the wiring (ports the Services expose, the resource id that makes
 * local recovery work), so the spec rejects them and names the field to use instead.
 *
 * @public
 */
export interface OwnedKey {
  key: string;
  /** The spec field that controls what the key would set. */
  useInstead?: string;
  /** When no spec field controls it: why the renderer fixes the value. */
  reason?: string;
  /** Owned only for some specs (e.g. local recovery keys when volumes are managed). */
  ownedWhen?: OwnedWhen;
}

/**
 * The spec conditions under which a conditionally owned key is owned.
 *
 * @public
 */
export type OwnedWhen =
  'taskManagerVolumes' | 'jobParallelism' | 'applicationMode';

const fixedPort = (port: number) => ({
  reason: `the port is fixed at ${port} because the rendered Services and probes use it`,
});

/** @public */
export const OWNED_KEYS: readonly OwnedKey[] = [
  {
    key: 'jobmanager.rpc.address',
    reason: 'it is the JobManager Service, or the pod IP with highAvailability',
  },
  { key: 'jobmanager.rpc.port', ...fixedPort(6123) },
  { key: 'jobmanager.bind-host', reason: 'pods bind to all interfaces' },
  { key: 'taskmanager.rpc.port', ...fixedPort(6122) },
  { key: 'taskmanager.bind-host', reason: 'pods bind to all interfaces' },
  { key: 'taskmanager.host', reason: 'each TaskManager advertises its pod IP' },
  { key: 'blob.server.port', ...fixedPort(6124) },
  { key: 'rest.port', ...fixedPort(8081) },
  { key: 'rest.bind-port', ...fixedPort(8081) },
  { key: 'rest.address', useInstead: 'rest (the REST Service)' },
  { key: 'rest.bind-address', useInstead: 'rest (the REST Service)' },
  {
    key: 'taskmanager.resource-id',
    useInstead:
      'taskManager.localRecovery (the resource id is the pod name, so a restarted TaskManager finds its state)',
  },
  {
    key: 'jobmanager.resource-id',
    useInstead:
      'jobManager.workload StatefulSet with volumeClaimTemplates (the resource id is the pod name, so a restarted JobManager reuses its working dir)',
  },
  { key: 'taskmanager.numberOfTaskSlots', useInstead: 'taskManager.slots' },
  {
    key: 'taskmanager.memory.process.size',
    useInstead: 'taskManager.resources.memory',
  },
  {
    key: 'jobmanager.memory.process.size',
    useInstead: 'jobManager.resources.memory',
  },
  {
    key: 'process.taskmanager.working-dir',
    useInstead:
      'taskManager.volumeClaimTemplates (the working dir is on the first claim)',
  },
  {
    key: 'process.jobmanager.working-dir',
    useInstead:
      'jobManager.volumeClaimTemplates (the working dir is on the first claim)',
  },
  {
    key: 'process.working-dir',
    useInstead:
      'jobManager/taskManager.volumeClaimTemplates (working dirs are on the claims)',
  },
  ...ALL_LOCAL_RECOVERY_KEYS.map((key): OwnedKey => ({
    key,
    useInstead: 'taskManager.localRecovery',
    ownedWhen: 'taskManagerVolumes',
  })),
  ...LOCAL_STATE_DIR_KEYS.map((key): OwnedKey => ({
    key,
    useInstead:
      'taskManager.volumeClaimTemplates (local state stays in the working dir on the first claim, where a restarted TaskManager finds it)',
    ownedWhen: 'taskManagerVolumes',
  })),
  {
    key: 'execution.shutdown-on-application-finish',
    reason:
      'it is false in application mode, so that a JobManager Kubernetes restarts does not run a finished job again',
    ownedWhen: 'applicationMode',
  },
  {
    key: 'execution.submit-failed-job-on-application-error',
    reason:
      'with highAvailability it is true in application mode, so that a job whose main method failed is reported as FAILED instead of being retried by every restart',
    ownedWhen: 'applicationMode',
  },
  {
    key: JAVA_DEFAULT_OPTIONS_KEY,
    useInstead:
      'env.java.opts.all (it adds to the Java 17 module options the renderer puts here)',
  },
  { key: 'high-availability', useInstead: 'highAvailability' },
  { key: 'high-availability.type', useInstead: 'highAvailability' },
  {
    key: 'high-availability.storageDir',
    useInstead: 'highAvailability.storageDir',
  },
  { key: 'high-availability.cluster-id', useInstead: 'name' },
  { key: 'kubernetes.cluster-id', useInstead: 'name' },
  { key: 'kubernetes.namespace', useInstead: 'namespace' },
  {
    key: 'parallelism.default',
    useInstead: 'job.parallelism',
    ownedWhen: 'jobParallelism',
  },
];

export function findOwnedKey(
  key: string,
  active: ReadonlySet<OwnedWhen>,
): OwnedKey | undefined {
  return OWNED_KEYS.find(
    owned =>
      owned.key === key && (!owned.ownedWhen || active.has(owned.ownedWhen)),
  );
}

export function ownedKeyMessage(owned: OwnedKey): string {
  return owned.useInstead
    ? `"${owned.key}" is set by the renderer; use ${owned.useInstead} instead`
    : `"${owned.key}" is set by the renderer: ${owned.reason}`;
}
