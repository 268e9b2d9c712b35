import { asRecord } from './guards';

/**
 * Object-store file systems are Flink plugins: a distribution keeps them in /opt/flink/opt, and
 * only those under /opt/flink/plugins are loaded. The official image enables none by default,
 * so `s3://` fails with "no file system for scheme" unless something puts the plugin in place.
 */

/** The official image's switch: jar file names, by exact name (`flink-s3-fs-hadoop-2.1.0.jar`). */
export const ENV_ENABLE_BUILT_IN_PLUGINS = 'ENABLE_BUILT_IN_PLUGINS';

/** The built-in plugin that serves a URI scheme. */
const PLUGIN_BY_SCHEME: Record<string, string> = {
  s3: 'flink-s3-fs-hadoop',
  s3a: 'flink-s3-fs-hadoop',
  s3p: 'flink-s3-fs-presto',
  gs: 'flink-gs-fs-hadoop',
  abfs: 'flink-azure-fs-hadoop',
  abfss: 'flink-azure-fs-hadoop',
  wasb: 'flink-azure-fs-hadoop',
  wasbs: 'flink-azure-fs-hadoop',
  oss: 'flink-oss-fs-hadoop',
};

/** A URI in the spec, and the spec path it was written at. */
export interface SpecUri {
  path: (string | number)[];
  uri: string;
}

/**
 * The URIs Flink opens through its file systems: the HA storage dir, the initial savepoint and
 * every configuration value that is a URI (checkpoint and savepoint dirs, archive dirs, …).
 * Reads raw input too (the rules run before the fields are known to be valid).
 */
export function specUris(spec: unknown): SpecUri[] {
  const fields = asRecord(spec);
  const candidates: [SpecUri['path'], unknown][] = [
    [
      ['highAvailability', 'storageDir'],
      asRecord(fields.highAvailability).storageDir,
    ],
    [
      ['job', 'initialSavepointPath'],
      asRecord(fields.job).initialSavepointPath,
    ],
    ...Object.entries(asRecord(fields.flinkConfiguration)).map(
      ([key, value]): [SpecUri['path'], unknown] => [
        ['flinkConfiguration', key],
        value,
      ],
    ),
  ];
  return candidates.flatMap(([path, uri]) =>
    typeof uri === 'string' ? [{ path, uri }] : [],
  );
}

/** The plugin a URI needs, if its scheme is one of the object stores. */
export function pluginForUri(uri: string): string | undefined {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(uri)?.[1]?.toLowerCase();
  return scheme ? PLUGIN_BY_SCHEME[scheme] : undefined;
}

/** Every plugin some URI needs, each once, in a stable order. */
export function requiredPlugins(uris: readonly SpecUri[]): string[] {
  const plugins = uris.flatMap(u => pluginForUri(u.uri) ?? []);
  return [...new Set(plugins)].sort();
}

/** The repositories of the official image (Docker Hub's library image and Apache's own). */
const OFFICIAL_REPOSITORIES = [
  'flink',
  'library/flink',
  'docker.io/flink',
  'docker.io/library/flink',
  'index.docker.io/library/flink',
  'apache/flink',
  'docker.io/apache/flink',
];

/**
 * Whether an image is the official Flink image, whose /opt/flink/opt holds the built-in
 * plugins. Other images are trusted to bring the plugins they need in /opt/flink/plugins.
 */
export function isOfficialImage(image: string): boolean {
  const withoutDigest = image.split('@')[0];
  const colon = withoutDigest.lastIndexOf(':');
  const repository =
    colon > withoutDigest.lastIndexOf('/')
      ? withoutDigest.slice(0, colon)
      : withoutDigest;
  return OFFICIAL_REPOSITORIES.includes(repository);
}

/** Whether an `ENABLE_BUILT_IN_PLUGINS` value names some version of a plugin. */
export function enablesPlugin(value: string, plugin: string): boolean {
  return value
    .split(';')
    .map(jar => jar.trim())
    .some(jar => jar.startsWith(`${plugin}-`) && jar.endsWith('.jar'));
}
