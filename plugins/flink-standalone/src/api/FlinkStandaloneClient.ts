import type { CompoundEntityRef } from '@backstage/catalog-model';
import type { DiscoveryApi, FetchApi } from '@backstage/core-plugin-api';
import { ResponseError } from '@backstage/errors';
import type {
  ClustersResponse,
  DeleteResponse,
  EntityFlinkStatusResponse,
  ForceDeletePodResponse,
  ScaleRequest,
  ScaleResponse,
  UnblockRolloutResponse,
} from '@flink-standalone/plugin-flink-standalone-common';
import type { FlinkStandaloneApi } from './FlinkStandaloneApi';

/**
 * Talks to the flink-standalone backend plugin over HTTP.
 *
 * @public
 */
export class FlinkStandaloneClient implements FlinkStandaloneApi {
  private readonly discoveryApi: DiscoveryApi;
  private readonly fetchApi: FetchApi;

  constructor(options: { discoveryApi: DiscoveryApi; fetchApi: FetchApi }) {
    this.discoveryApi = options.discoveryApi;
    this.fetchApi = options.fetchApi;
  }

  getEntityStatus(entity: CompoundEntityRef) {
    return this.request<EntityFlinkStatusResponse>(
      `${entityPath(entity)}/status`,
    );
  }

  scaleTaskManagers(entity: CompoundEntityRef, taskManagers: number) {
    const body: ScaleRequest = { taskManagers };
    return this.request<ScaleResponse>(`${entityPath(entity)}/scale`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  }

  deleteCluster(entity: CompoundEntityRef, options: { deleteClaims: boolean }) {
    return this.request<DeleteResponse>(
      `${entityPath(entity)}?deleteClaims=${options.deleteClaims}`,
      { method: 'DELETE' },
    );
  }

  unblockRollout(entity: CompoundEntityRef, pod: string) {
    return this.request<UnblockRolloutResponse>(
      `${entityPath(entity)}/unblock-rollout`,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ pod }),
      },
    );
  }

  forceDeletePod(entity: CompoundEntityRef, pod: string) {
    return this.request<ForceDeletePodResponse>(
      `${entityPath(entity)}/force-delete-pod`,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ pod }),
      },
    );
  }

  getClusters() {
    return this.request<ClustersResponse>('/clusters');
  }

  private async request<T>(path: string, init?: RequestInit): Promise<T> {
    const baseUrl = await this.discoveryApi.getBaseUrl('flink-standalone');
    const response = await this.fetchApi.fetch(`${baseUrl}${path}`, init);
    if (!response.ok) {
      // Keeps the backend's error body, so ResponseErrorPanel can show it.
      throw await ResponseError.fromResponse(response);
    }
    return (await response.json()) as T;
  }
}

/** Entity refs are case-insensitive; the backend's routes spell the kind in lower case. */
function entityPath({ namespace, kind, name }: CompoundEntityRef): string {
  const segments = [namespace, kind.toLocaleLowerCase('en-US'), name];
  return `/entities/${segments.map(encodeURIComponent).join('/')}`;
}
