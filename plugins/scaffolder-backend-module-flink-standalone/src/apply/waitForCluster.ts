import { setTimeout as sleep } from 'node:timers/promises';
import type { LoggerService } from '@backstage/backend-plugin-api';
import type {
  ClusterConditionType,
  FlinkClusterStatus,
} from '@flink-standalone/plugin-flink-standalone-common';
import {
  ClusterNotReadyError,
  ClusterRegistry,
  FlinkKubernetesCluster,
  FlinkObserver,
  ObservedClusterRef,
  progressSummary,
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
 * READY says the JobManager answers; a new cluster is up when its TaskManager pods are ready
 * and its claims bound too. On simulated (kwok) nodes no Flink answers, so there a cluster is up
 * when its pods are Ready and its claims bound: as far as a simulation goes.
 */
const UP_CONDITIONS: ClusterConditionType[] = [
  'JobManagerReady',
  'TaskManagersReady',
  'VolumesBound',
];

const isUp = (status: FlinkClusterStatus) =>
  UP_CONDITIONS.every(type =>
    status.conditions.some(c => c.type === type && c.status === 'True'),
  );

async function waitUntilUp(
  observer: FlinkObserver,
  ref: ObservedClusterRef,
  options: WaitForClusterOptions,
): Promise<FlinkClusterStatus> {
  const deadline = Date.now() + options.timeoutMs;
  let last = '';
  const report = (summary: string) => {
    if (summary !== last) options.onProgress((last = summary));
  };
  for (;;) {
    const status = await waitForReady(observer, ref, {
      timeoutMs: Math.max(0, deadline - Date.now()),
      signal: options.signal,
      onProgress: p => report(p.summary),
      acceptSimulatedNodes: true,
    });
    if (isUp(status)) return status;
    if (Date.now() > deadline) {
      throw new ClusterNotReadyError(
        `Flink cluster ${ref.namespace}/${ref.name} is READY but not every TaskManager and claim is up within ${Math.round(options.timeoutMs / 1000)} s: ${progressSummary(status)}`,
        status,
      );
    }
    await sleep(500, undefined, { signal: options.signal });
  }
}

/**
 * Waits until the new cluster is READY with every TaskManager and claim up. The observer lives for this wait only and watches the
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
    return await waitUntilUp(
      observer,
      { cluster: cluster.name, ...location },
      options,
    );
  } finally {
    observer.close();
  }
}
