import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Versions of the binaries that `scripts/build-binaries.sh` builds by default. */
export const DEFAULT_VERSIONS = {
  kubernetes: 'v1.37.2',
  etcd: 'v3.6.16',
  kwok: 'v0.8.0',
} as const;

/** The names of the binaries a control plane needs. */
export type BinaryName =
  | 'etcd'
  | 'kube-apiserver'
  | 'kube-controller-manager'
  | 'kube-scheduler'
  | 'kubectl'
  | 'kwok'
  | 'kubelet';

/** The binaries every control plane needs; a real node's kubelet is resolved when one starts. */
export type PlaneBinaryName = Exclude<BinaryName, 'kubelet'>;

export const BINARY_NAMES: readonly PlaneBinaryName[] = [
  'etcd',
  'kube-apiserver',
  'kube-controller-manager',
  'kube-scheduler',
  'kubectl',
  'kwok',
];

/** The cache folder outside the repo, shared with the root scripts (Node bootstrap). */
export function cacheDir(): string {
  return (
    process.env.FLINK_STANDALONE_CACHE ??
    path.join(
      process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'),
      'flink-standalone',
    )
  );
}

const VERSION_FOLDERS: Record<BinaryName, () => string> = {
  etcd: () => `etcd/${process.env.ETCD_VERSION ?? DEFAULT_VERSIONS.etcd}`,
  kwok: () => `kwok/${process.env.KWOK_VERSION ?? DEFAULT_VERSIONS.kwok}`,
  'kube-apiserver': kubernetesFolder,
  'kube-controller-manager': kubernetesFolder,
  'kube-scheduler': kubernetesFolder,
  kubectl: kubernetesFolder,
  kubelet: kubernetesFolder,
};

/** The build script falls back to this version when the default does not build. */
export const FALLBACK_KUBERNETES_VERSION = 'v1.36.3';

function kubernetesFolder(): string {
  if (process.env.K8S_VERSION) return `k8s/${process.env.K8S_VERSION}`;
  const built = [DEFAULT_VERSIONS.kubernetes, FALLBACK_KUBERNETES_VERSION].find(
    v =>
      fs.existsSync(path.join(cacheDir(), 'k8s', v, 'bin', 'kube-apiserver')),
  );
  return `k8s/${built ?? DEFAULT_VERSIONS.kubernetes}`;
}

function cachedBinary(name: BinaryName): string {
  return path.join(cacheDir(), VERSION_FOLDERS[name](), 'bin', name);
}

/** Files shipped in this package (kwok stages, the Flink classpath pom), from src/ or dist/. */
export function packageFile(...segments: string[]): string {
  // A private dev package, never bundled: its own folder is the right base.
  // eslint-disable-next-line no-restricted-syntax
  return path.resolve(__dirname, '..', ...segments);
}

/** TEST_ASSET_KUBE_APISERVER for kube-apiserver: the envtest convention. */
export function assetVariable(name: BinaryName): string {
  return `TEST_ASSET_${name.toUpperCase().replace(/-/g, '_')}`;
}

/** Where a binary may come from, most specific first. */
export function binaryCandidates(name: BinaryName): string[] {
  const env = process.env;
  return [
    env[assetVariable(name)],
    env.KUBEBUILDER_ASSETS && path.join(env.KUBEBUILDER_ASSETS, name),
    env.FLINK_STANDALONE_BIN_DIR &&
      path.join(env.FLINK_STANDALONE_BIN_DIR, name),
    cachedBinary(name),
  ].filter((p): p is string => Boolean(p));
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Resolves a binary, or throws an error that says how to get it. */
export function resolveBinary(name: BinaryName): string {
  const candidates = binaryCandidates(name);
  const found = candidates.find(isExecutable);
  if (!found) {
    throw new Error(
      `${name} not found (looked in ${candidates.join(', ')}). ` +
        `Build it with "npm run build-binaries -w @flink-standalone/testenv", ` +
        `or point ${assetVariable(name)}, KUBEBUILDER_ASSETS or FLINK_STANDALONE_BIN_DIR at it.`,
    );
  }
  return found;
}

export function resolveBinaries(): Record<PlaneBinaryName, string> {
  return Object.fromEntries(
    BINARY_NAMES.map(name => [name, resolveBinary(name)]),
  ) as Record<PlaneBinaryName, string>;
}

/** Folder of per-run state files, read by `k8s:down` to clean up after a crash. */
export function runStateDir(): string {
  return path.join(cacheDir(), 'run');
}
