import { directBaseUrl } from '../rest/flinkRequest';
import type { FlinkKubernetesCluster } from './ClusterRegistry';

/**
 * Where people open the Flink UI of a cluster: the caller's own URL (an entity annotation, a
 * template input), else the cluster's configured `flinkUiUrl` pattern, else the direct REST URL
 * (the REST endpoint serves the UI). Undefined in proxy mode without a pattern: the API server's
 * service proxy is no place to send a browser.
 *
 * @public
 */
export function flinkUiUrlFor(
  cluster: Pick<FlinkKubernetesCluster, 'flinkRest' | 'flinkUiUrl'>,
  location: { namespace: string; name: string },
  preferred?: string,
): string | undefined {
  if (preferred) return preferred;
  if (cluster.flinkUiUrl) {
    return directBaseUrl(cluster.flinkUiUrl, location.namespace, location.name);
  }
  const { mode, baseUrl } = cluster.flinkRest;
  return mode === 'direct' && baseUrl
    ? directBaseUrl(baseUrl, location.namespace, location.name)
    : undefined;
}
