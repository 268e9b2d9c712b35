import type { LoggerService } from '@backstage/backend-plugin-api';
import type { FlinkClusterStatus } from '@flink-standalone/plugin-flink-standalone-common';
import {
  ClusterRegistry,
  FlinkKubernetesCluster,
  FlinkObserver,
  waitForReady,
} from '@flink-standalone/plugin-flink-standalone-node';

export interface WaitForClusterOptions {
  timeoutMs: number;
  /** One line per observer change: state, pods ready n/m, claims bound n/m. */
  onProgress: (summary: string) => void;
  signal?: AbortSignal;
  logger?: LoggerService;
  /** How long a Flink REST answer is reused; tests shorten it. */
  restMaxAgeMs?: number;
}

/**
 * Waits until the new cluster is READY. The observer lives for this wait only and watches the
 * one namespace, so a template run leaves no watch behind and lists nothing it does not need.
 */
export async function waitForCluster(
  cluster: FlinkKubernetesCluster,
  location: { namespace: string; name: string },
  options: WaitForClusterOptions,
): Promise<FlinkClusterStatus> {
  const observer = new FlinkObserver({
    registry: ClusterRegistry.of([
      { ...cluster, allowedNamespaces: [location.namespace] },
    ]),
    logger: options.logger,
    restMaxAgeMs: options.restMaxAgeMs,
  });
  try {
    return await waitForReady(
      observer,
      { cluster: cluster.name, ...location },
      {
        timeoutMs: options.timeoutMs,
        signal: options.signal,
        onProgress: p => options.onProgress(p.summary),
      },
    );
  } finally {
    observer.close();
  }
}
