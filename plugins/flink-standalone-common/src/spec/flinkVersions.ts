/**
 * What differs between the Flink versions this product renders for.
 *
 * @public
 */
export const FLINK_VERSIONS = [
  '1.19',
  '1.20',
  '2.0',
  '2.1',
  '2.2',
  '2.3',
] as const;

/** @public */
export type FlinkVersion = (typeof FLINK_VERSIONS)[number];

export function isFlink1(version: FlinkVersion): boolean {
  return version.startsWith('1.');
}

/**
 * Flink 2.x reads only `config.yaml` (standard YAML); 1.x reads the legacy flat
 * `flink-conf.yaml`, which is not YAML-parsed (`key: value` per line).
 *
 * @public
 */
export function configFileName(version: FlinkVersion): string {
  return isFlink1(version) ? 'flink-conf.yaml' : 'config.yaml';
}

/**
 * The keys that turn on local recovery: 1.20 split the old switch into "write a local copy"
 * and "restore from it", and 2.x removed the old one.
 *
 * @public
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
];

/**
 * Where TaskManagers keep the local copy of their state: 1.19 reads the first, 1.20 and 2.x the
 * second (with the first as a deprecated fallback). Unset, the copy lives in the working dir,
 * which the renderer puts on the TaskManager's claim; a user value could move it off the claim.
 */
export const LOCAL_STATE_DIR_KEYS = [
  'taskmanager.state.local.root-dirs',
  'execution.checkpointing.local-backup.dirs',
];

/**
 * The JVM options Flink needs on Java 17+ (the official images run Java 17), as the
 * distribution's default config file carries them. The renderer replaces /opt/flink/conf and
 * with it that file, so it must carry them itself. Read from flink-dist's config.yaml: the
 * 1.19/1.20 and the 2.x files ship this same list (Java 21+ also needs
 * -Djava.security.manager=allow, which bin/config.sh adds by itself).
 */
export const JAVA_17_MODULE_OPTIONS = [
  '--add-exports=java.base/sun.net.util=ALL-UNNAMED',
  '--add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED',
  '--add-exports=jdk.compiler/com.sun.tools.javac.api=ALL-UNNAMED',
  '--add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED',
  '--add-exports=jdk.compiler/com.sun.tools.javac.parser=ALL-UNNAMED',
  '--add-exports=jdk.compiler/com.sun.tools.javac.tree=ALL-UNNAMED',
  '--add-exports=jdk.compiler/com.sun.tools.javac.util=ALL-UNNAMED',
  '--add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED',
  '--add-opens=java.base/java.lang=ALL-UNNAMED',
  '--add-opens=java.base/java.net=ALL-UNNAMED',
  '--add-opens=java.base/java.io=ALL-UNNAMED',
  '--add-opens=java.base/java.nio=ALL-UNNAMED',
  '--add-opens=java.base/sun.nio.ch=ALL-UNNAMED',
  '--add-opens=java.base/java.lang.reflect=ALL-UNNAMED',
  '--add-opens=java.base/java.text=ALL-UNNAMED',
  '--add-opens=java.base/java.time=ALL-UNNAMED',
  '--add-opens=java.base/java.util=ALL-UNNAMED',
  '--add-opens=java.base/java.util.concurrent=ALL-UNNAMED',
  '--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED',
  '--add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED',
];

/**
 * The key the renderer puts the Java 17 options in, for every supported version. Flink 1.19
 * added `env.java.default-opts.all`, which bin/config.sh puts before `env.java.opts.all`: meant
 * for platform defaults, it leaves `env.java.opts.*` to the user, whose options then add to ours
 * instead of replacing them (a 1.18, which lacks it, would need `env.java.opts.all`).
 */
export const JAVA_DEFAULT_OPTIONS_KEY = 'env.java.default-opts.all';

/** The official image for a version, used when the spec names none. */
export function defaultImage(version: FlinkVersion): string {
  return `flink:${version}`;
}
