import { readFileSync } from 'node:fs';
import type { KubeConnection } from '../kube/KubeHttp';
import type {
  FlinkClusterAuthStrategy,
  FlinkClusterDetails,
} from './extensions';

/** The CA to trust: `caData` as PEM or base64 PEM, else the `caFile`, else the system's. */
function caOf(cluster: FlinkClusterDetails): string | undefined {
  if (cluster.caData) {
    return cluster.caData.includes('-----BEGIN')
      ? cluster.caData
      : Buffer.from(cluster.caData, 'base64').toString('utf8');
  }
  return cluster.caFile ? readFileSync(cluster.caFile, 'utf8') : undefined;
}

/** A cluster from a supplier, authenticated by its strategy on every request. */
export function kubeConnectionFor(
  cluster: FlinkClusterDetails,
  strategy: FlinkClusterAuthStrategy,
): KubeConnection {
  const ca = caOf(cluster);
  return {
    server: cluster.url,
    async applyToHTTPSOptions(options) {
      const credential = await strategy.getCredential(cluster);
      if (ca) options.ca = ca;
      options.rejectUnauthorized = !cluster.skipTLSVerify;
      if (credential.type === 'bearer token') {
        options.headers = {
          ...options.headers,
          Authorization: `Bearer ${credential.token}`,
        };
      } else if (credential.type === 'x509 client certificate') {
        options.cert = credential.cert;
        options.key = credential.key;
      }
    },
  };
}
