import { stringify } from 'yaml';
import {
  JAVA_17_MODULE_OPTIONS,
  JAVA_DEFAULT_OPTIONS_KEY,
  isFlink1,
  localRecoveryKeys,
} from '../spec/flinkVersions';
import { toFlinkMemorySize } from '../spec/quantity';
import type { ClusterSpec, FlinkVersion } from '../spec';
import { PORTS, clusterObjectNames } from './names';

/** @public */
export type FlinkConfigValue = string | number | boolean;
/** @public */
export type FlinkConfig = Record<string, FlinkConfigValue>;

/**
 * A restarted TaskManager re-offers its slots with their allocations, and the local state of a
 * slot lives only as long as its allocation. Flink frees a slot nobody claims within 10 s
 * (`taskmanager.slot.timeout`), shorter than a pod restart on a busy node: the state is deleted
 * and the subtask restores from remote storage (seen in bench:recovery). Milliseconds, which
 * every supported Flink version parses for both keys; the user's configuration overrides them.
 */
const LOCAL_RECOVERY_SLOT_TIMEOUTS = {
  'taskmanager.slot.timeout': 60_000,
  'slot.idle.timeout': 120_000,
};

/**
 * The cluster's Flink configuration: the keys the renderer owns (ports, addresses, memory,
 * working dirs, local recovery, HA), then the user's keys in sorted order.
 *
 * @public
 */
export function flinkConfiguration(spec: ClusterSpec): FlinkConfig {
  const names = clusterObjectNames(spec.name);
  const { jobManager, taskManager } = spec;
  const tmWorkingDir = taskManager.volumeClaimTemplates[0]?.mountPath;
  const jmWorkingDir = jobManager.volumeClaimTemplates[0]?.mountPath;
  const owned: FlinkConfig = {
    // With HA the JobManager advertises its pod IP (set per pod in its args).
    ...(!spec.highAvailability && {
      'jobmanager.rpc.address': names.jobManagerService,
    }),
    'jobmanager.rpc.port': PORTS.jobManagerRpc,
    'jobmanager.bind-host': '0.0.0.0',
    'jobmanager.memory.process.size': toFlinkMemorySize(
      jobManager.resources.memory,
    ),
    'blob.server.port': PORTS.blobServer,
    'rest.port': PORTS.rest,
    'rest.address': names.restService,
    'rest.bind-address': '0.0.0.0',
    'taskmanager.rpc.port': PORTS.taskManagerRpc,
    'taskmanager.bind-host': '0.0.0.0',
    'taskmanager.memory.process.size': toFlinkMemorySize(
      taskManager.resources.memory,
    ),
    'taskmanager.numberOfTaskSlots': taskManager.slots,
    // Flink keeps local state under <working-dir>/tm_<resource-id>; with the resource id
    // being the pod name and the dir on the pod's own claim, a restarted TaskManager finds it.
    ...(tmWorkingDir && { 'process.taskmanager.working-dir': tmWorkingDir }),
    ...(jmWorkingDir && { 'process.jobmanager.working-dir': jmWorkingDir }),
    ...(taskManager.localRecovery && {
      ...Object.fromEntries(
        localRecoveryKeys(spec.flinkVersion).map(key => [key, true]),
      ),
      ...LOCAL_RECOVERY_SLOT_TIMEOUTS,
    }),
    ...(spec.highAvailability && {
      'high-availability.type': 'kubernetes',
      'high-availability.storageDir': spec.highAvailability.storageDir,
      // Flink keeps HA files under <storageDir>/<cluster-id>: without it every cluster sharing
      // a storage dir writes under "default" and reads the others' job graphs and checkpoints.
      'high-availability.cluster-id': spec.name,
      'kubernetes.cluster-id': spec.name,
      'kubernetes.namespace': spec.namespace,
    }),
    ...(spec.mode === 'application' && applicationModeKeys(spec)),
    ...(spec.job?.parallelism !== undefined && {
      'parallelism.default': spec.job.parallelism,
    }),
    // The renderer's ConfigMap replaces the image's default config file, and with it these.
    [JAVA_DEFAULT_OPTIONS_KEY]: JAVA_17_MODULE_OPTIONS.join(' '),
  };
  const user = Object.keys(spec.flinkConfiguration)
    .sort()
    .map(key => [key, spec.flinkConfiguration[key]] as const);
  return { ...owned, ...Object.fromEntries(user) };
}

/**
 * A JobManager in a Deployment or StatefulSet is restarted whatever its exit: by default an
 * application cluster exits when its job ends, and the restart would run the job again (from
 * the initial savepoint, or from scratch). Kept running, it reports the job's final state.
 * Submitting a failed job on an error in main() needs the single-job mode Flink enforces only
 * with HA; without HA Flink refuses the application when the key is set.
 */
function applicationModeKeys(spec: ClusterSpec): FlinkConfig {
  return {
    'execution.shutdown-on-application-finish': false,
    ...(spec.highAvailability && {
      'execution.submit-failed-job-on-application-error': true,
    }),
  };
}

/**
 * The configuration file's text in the format the version reads.
 *
 * @public
 */
export function formatFlinkConfig(
  version: FlinkVersion,
  config: FlinkConfig,
): string {
  return isFlink1(version)
    ? formatFlatConfig(config)
    : formatNestedConfig(config);
}

/** flink-conf.yaml: one `key: value` per line, read literally (no YAML quoting). */
function formatFlatConfig(config: FlinkConfig): string {
  return Object.entries(config)
    .map(([key, value]) => `${key}: ${value}\n`)
    .join('');
}

interface KeyNode {
  value?: FlinkConfigValue;
  children: Map<string, KeyNode>;
}
type YamlMap = { [key: string]: YamlMap | FlinkConfigValue };

/**
 * config.yaml: standard nested YAML. A key that is both a value and a prefix of other keys
 * (`state.backend` and `state.backend.incremental`) cannot nest: the value stays at its name
 * and the longer keys stay dotted beside it, which Flink flattens to the same keys.
 */
function formatNestedConfig(config: FlinkConfig): string {
  const root: KeyNode = { children: new Map() };
  for (const [key, value] of Object.entries(config)) {
    let node = root;
    for (const segment of key.split('.')) {
      let child = node.children.get(segment);
      if (!child) {
        child = { children: new Map() };
        node.children.set(segment, child);
      }
      node = child;
    }
    node.value = value;
  }
  return stringify(toYamlMap(root), { lineWidth: 0 });
}

function toYamlMap(node: KeyNode): YamlMap {
  const out: YamlMap = {};
  for (const [segment, child] of node.children) {
    if (child.value === undefined) {
      out[segment] = toYamlMap(child);
    } else {
      out[segment] = child.value;
      for (const [key, value] of flattenKeys(child, segment)) out[key] = value;
    }
  }
  return out;
}

function flattenKeys(
  node: KeyNode,
  prefix: string,
): [string, FlinkConfigValue][] {
  return [...node.children].flatMap(([segment, child]) => {
    const key = `${prefix}.${segment}`;
    const own: [string, FlinkConfigValue][] =
      child.value === undefined ? [] : [[key, child.value]];
    return [...own, ...flattenKeys(child, key)];
  });
}
