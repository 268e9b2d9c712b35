import { ALL_LOCAL_RECOVERY_KEYS } from './flinkVersions';

/**
 * Flink configuration keys the renderer sets itself. A user value for one of them would either
 * be overwritten or break the wiring (ports the Services expose, the resource id that makes
 * local recovery work), so the spec rejects them and names the field to use instead.
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

export type OwnedWhen = 'taskManagerVolumes' | 'jobParallelism';

const fixedPort = (port: number) => ({
  reason: `the port is fixed at ${port} because the rendered Services and probes use it`,
});

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
