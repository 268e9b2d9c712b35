import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '@backstage/config';
import { InputError } from '@backstage/errors';
import type {
  FlinkClusterAuthStrategy,
  FlinkClusterCredential,
  FlinkClusterDetails,
  FlinkClusterSupplier,
} from './extensions';

/** Where Kubernetes mounts a pod's ServiceAccount token and the cluster's CA. */
const IN_CLUSTER_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

/**
 * Where the pod's ServiceAccount is mounted; only tests (and unusual mounts) change it.
 *
 * @public
 */
export interface InClusterOptions {
  serviceAccountDir?: string;
}

/** Fields of a cluster entry that are not for the auth strategy. */
const NOT_AUTH_METADATA = new Set([
  'name',
  'url',
  'authProvider',
  'caData',
  'caFile',
  'skipTLSVerify',
]);

function authMetadataOf(entry: Config): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const key of entry.keys()) {
    const value = entry.getOptional(key);
    if (!NOT_AUTH_METADATA.has(key) && typeof value === 'string') {
      metadata[key] = value;
    }
  }
  return metadata;
}

/** One `kubernetes.clusterLocatorMethods[].clusters[]` entry, as the Kubernetes plugin reads it. */
function detailsOf(
  entry: Config,
  serviceAccountDir: string,
): FlinkClusterDetails {
  const authProvider =
    entry.getOptionalString('authProvider') ?? 'serviceAccount';
  const authMetadata = authMetadataOf(entry);
  const caData = entry.getOptionalString('caData');
  let caFile = entry.getOptionalString('caFile');
  // The pod's own ServiceAccount: trust the CA Kubernetes mounts next to its token.
  const inCluster =
    authProvider === 'serviceAccount' && !authMetadata.serviceAccountToken;
  const inClusterCa = join(serviceAccountDir, 'ca.crt');
  if (inCluster && !caData && !caFile && existsSync(inClusterCa)) {
    caFile = inClusterCa;
  }
  return {
    name: entry.getString('name'),
    url: entry.getString('url'),
    authProvider,
    authMetadata,
    caData,
    caFile,
    skipTLSVerify: entry.getOptionalBoolean('skipTLSVerify'),
  };
}

/**
 * The default supplier: the `config` entries of the Backstage Kubernetes plugin's
 * `kubernetes.clusterLocatorMethods`, so an app configured for that plugin needs no second list.
 *
 * @public
 */
export class ConfigClusterSupplier implements FlinkClusterSupplier {
  constructor(
    private readonly config: Config,
    private readonly options: InClusterOptions = {},
  ) {}

  /** Synchronous, for callers that build a registry without a backend. */
  clusters(): FlinkClusterDetails[] {
    return (
      this.config.getOptionalConfigArray('kubernetes.clusterLocatorMethods') ??
      []
    )
      .filter(method => method.getString('type') === 'config')
      .flatMap(method =>
        (method.getOptionalConfigArray('clusters') ?? []).map(entry =>
          detailsOf(entry, this.options.serviceAccountDir ?? IN_CLUSTER_DIR),
        ),
      );
  }

  async getClusters(): Promise<FlinkClusterDetails[]> {
    return this.clusters();
  }
}

/**
 * The built-in `serviceAccount` strategy: the entry's `serviceAccountToken`, else the token of
 * the pod's own ServiceAccount, read per request because Kubernetes rotates it.
 *
 * @public
 */
export class ServiceAccountStrategy implements FlinkClusterAuthStrategy {
  constructor(private readonly options: InClusterOptions = {}) {}

  async getCredential(
    cluster: FlinkClusterDetails,
  ): Promise<FlinkClusterCredential> {
    const configured = cluster.authMetadata?.serviceAccountToken;
    if (configured) return { type: 'bearer token', token: configured };
    const tokenFile = join(
      this.options.serviceAccountDir ?? IN_CLUSTER_DIR,
      'token',
    );
    try {
      const token = (await readFile(tokenFile, 'utf8')).trim();
      return { type: 'bearer token', token };
    } catch {
      throw new InputError(
        `kubernetes cluster "${cluster.name}": no serviceAccountToken is configured and the backend has no ServiceAccount token at ${tokenFile} (it does not run in a cluster)`,
      );
    }
  }
}

/** The strategies every registry has. */
export const BUILT_IN_AUTH_STRATEGIES: ReadonlyMap<
  string,
  FlinkClusterAuthStrategy
> = new Map([['serviceAccount', new ServiceAccountStrategy()]]);
