import { clusterObjectNames } from '@flink-standalone/plugin-flink-standalone-common';
import type { FlinkKubernetesCluster } from '../cluster/ClusterRegistry';
import type { FlinkRestObservation } from '../observer/types';

/** The endpoints the observer reads, fetched together. */
const ENDPOINTS = ['/overview', '/taskmanagers', '/jobs/overview'] as const;

export interface FlinkRestClientOptions {
  /** How long an answer is served before it is fetched again (default 5 s). */
  maxAgeMs?: number;
  now?: () => Date;
}

/** The REST base of a Flink cluster for `direct` access. */
export function directBaseUrl(
  template: string,
  namespace: string,
  name: string,
): string {
  return template
    .replace(/\{namespace\}/g, namespace)
    .replace(/\{name\}/g, name)
    .replace(/\/$/, '');
}

/**
 * Reads the Flink REST API of clusters, through the API server's service proxy (works wherever
 * the backend reaches the API server) or a direct URL. Answers are cached briefly and fetched
 * once for concurrent readers; `peek` never waits, so a status request never blocks on Flink.
 */
export class FlinkRestClient {
  private readonly cache = new Map<string, FlinkRestObservation>();
  private readonly inFlight = new Map<string, Promise<FlinkRestObservation>>();
  private readonly maxAgeMs: number;
  private readonly now: () => Date;

  constructor(options: FlinkRestClientOptions = {}) {
    this.maxAgeMs = options.maxAgeMs ?? 5000;
    this.now = options.now ?? (() => new Date());
  }

  /** The latest answer (maybe none yet), and a refresh in the background when it is old. */
  peek(
    cluster: FlinkKubernetesCluster,
    namespace: string,
    name: string,
  ): FlinkRestObservation | undefined {
    const key = `${cluster.name}/${namespace}/${name}`;
    const cached = this.cache.get(key);
    const age = cached
      ? this.now().getTime() - Date.parse(cached.fetchedAt)
      : Infinity;
    if (age > this.maxAgeMs) void this.fetch(cluster, namespace, name);
    return cached;
  }

  /** Fetches now (or joins the fetch in flight). */
  fetch(
    cluster: FlinkKubernetesCluster,
    namespace: string,
    name: string,
  ): Promise<FlinkRestObservation> {
    const key = `${cluster.name}/${namespace}/${name}`;
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.observe(cluster, namespace, name).then(observation => {
        this.cache.set(key, observation);
        this.inFlight.delete(key);
        return observation;
      });
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  forget(cluster: string, namespace: string, name: string): void {
    this.cache.delete(`${cluster}/${namespace}/${name}`);
  }

  private async observe(
    cluster: FlinkKubernetesCluster,
    namespace: string,
    name: string,
  ): Promise<FlinkRestObservation> {
    const fetchedAt = this.now().toISOString();
    try {
      const [overview, taskManagers, jobs] = await Promise.all(
        ENDPOINTS.map(e => this.get(cluster, namespace, name, e)),
      );
      return {
        reachable: true,
        fetchedAt,
        overview: {
          flinkVersion: overview['flink-version'],
          taskmanagers: overview.taskmanagers,
          slotsTotal: overview['slots-total'],
          slotsAvailable: overview['slots-available'],
          jobsRunning: overview['jobs-running'],
          jobsFinished: overview['jobs-finished'],
          jobsCancelled: overview['jobs-cancelled'],
          jobsFailed: overview['jobs-failed'],
        },
        taskManagers: (taskManagers.taskmanagers ?? []).map((tm: any) => ({
          id: tm.id,
          path: tm.path,
          slotsNumber: tm.slotsNumber,
          freeSlots: tm.freeSlots,
          timeSinceLastHeartbeat: tm.timeSinceLastHeartbeat,
        })),
        jobs: (jobs.jobs ?? []).map((job: any) => ({
          jid: job.jid,
          name: job.name,
          state: job.state,
          startTime: job['start-time'],
        })),
      };
    } catch (error) {
      return {
        reachable: false,
        fetchedAt,
        unreachableReason: 'Error',
        error: (error as Error).message,
      };
    }
  }

  private async get(
    cluster: FlinkKubernetesCluster,
    namespace: string,
    name: string,
    endpoint: string,
  ): Promise<any> {
    const { mode, baseUrl, timeoutMs } = cluster.flinkRest;
    if (mode === 'direct') {
      const response = await fetch(
        `${directBaseUrl(baseUrl!, namespace, name)}${endpoint}`,
        {
          signal: AbortSignal.timeout(timeoutMs),
        },
      );
      if (!response.ok)
        throw new Error(`HTTP ${response.status} from ${endpoint}`);
      return response.json();
    }
    const service = `${clusterObjectNames(name).restService}:rest`;
    const { status, body } = await cluster.http.raw({
      path: `/api/v1/namespaces/${encodeURIComponent(namespace)}/services/${service}/proxy${endpoint}`,
      timeoutMs,
    });
    if (status >= 400) {
      // The API server says why it could not reach the Service (no endpoints, refused, …).
      let message = body.slice(0, 200);
      try {
        message = JSON.parse(body).message ?? message;
      } catch {
        // A plain-text answer from Flink or the proxy.
      }
      throw new Error(
        `HTTP ${status} from ${endpoint} through the service proxy: ${message}`,
      );
    }
    return JSON.parse(body);
  }
}
