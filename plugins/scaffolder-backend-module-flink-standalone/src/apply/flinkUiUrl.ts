import type { Config } from '@backstage/config';
import {
  FlinkKubernetesCluster,
  directBaseUrl,
} from '@flink-standalone/plugin-flink-standalone-node';

/**
 * Where people open the Flink UI of a new cluster: the template's own URL, the cluster's
 * configured `flinkUiUrl` pattern, or the direct REST URL (the REST endpoint serves the UI).
 */
export function flinkUiUrlFor(
  config: Config,
  cluster: FlinkKubernetesCluster,
  location: { namespace: string; name: string },
  explicit?: string,
): string | undefined {
  if (explicit) return explicit;
  const pattern = (
    config.getOptionalConfigArray('flinkStandalone.clusters') ?? []
  )
    .find(c => c.getString('name') === cluster.name)
    ?.getOptionalString('flinkUiUrl');
  if (pattern) return directBaseUrl(pattern, location.namespace, location.name);
  const { mode, baseUrl } = cluster.flinkRest;
  return mode === 'direct' && baseUrl
    ? directBaseUrl(baseUrl, location.namespace, location.name)
    : undefined;
}
