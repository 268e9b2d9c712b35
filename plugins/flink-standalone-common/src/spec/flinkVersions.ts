/** What differs between the Flink versions this product renders for. */

export const FLINK_VERSIONS = [
  '1.19',
  '1.20',
  '2.0',
  '2.1',
  '2.2',
  '2.3',
] as const;

export type FlinkVersion = (typeof FLINK_VERSIONS)[number];

export function isFlink1(version: FlinkVersion): boolean {
  return version.startsWith('1.');
}

/**
 * Flink 2.x reads only `config.yaml` (standard YAML); 1.x reads the legacy flat
 * `flink-conf.yaml`, which is not YAML-parsed (`key: value` per line).
 */
export function configFileName(version: FlinkVersion): string {
  return isFlink1(version) ? 'flink-conf.yaml' : 'config.yaml';
}

/**
 * The keys that turn on local recovery: 1.20 split the old switch into "write a local copy"
 * and "restore from it", and 2.x removed the old one.
 */
export function localRecoveryKeys(version: FlinkVersion): string[] {
  return version === '1.19'
    ? ['state.backend.local-recovery']
    : [
        'execution.state-recovery.from-local',
        'execution.checkpointing.local-backup.enabled',
      ];
}

/** Every local-recovery key of any version, so users cannot set one behind the spec's back. */
export const ALL_LOCAL_RECOVERY_KEYS = [
  'state.backend.local-recovery',
  'execution.state-recovery.from-local',
  'execution.checkpointing.local-backup.enabled',
  'taskmanager.state.local.root-dirs',
];

/** The official image for a version, used when the spec names none. */
export function defaultImage(version: FlinkVersion): string {
  return `flink:${version}`;
}
