import { clusterObjectNames } from '@flink-standalone/plugin-flink-standalone-common';
import type { FlinkKubernetesCluster } from '../cluster/ClusterRegistry';

/** @public */
export interface FlinkRequest {
  method?: 'GET' | 'POST' | 'PATCH';
  /** A path of Flink's REST API, e.g. `/jobs/overview`. */
  endpoint: string;
  body?: unknown;
  signal?: AbortSignal;
}

/**
 * The base of a Flink cluster's REST API for `direct` access.
 *
 * @public
 */
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
 * One request to a Flink cluster's REST API: through the API server's service proxy (works
 * wherever the backend reaches the API server, with its credentials) or a direct URL, as the
 * cluster's `flinkRest` says. Resolves to the body; an error answer throws with Flink's or the
 * proxy's reason.
 *
 * @public
 */
export async function flinkRequest(
  cluster: FlinkKubernetesCluster,
  namespace: string,
  name: string,
  request: FlinkRequest,
): Promise<string> {
  const { mode, baseUrl, timeoutMs } = cluster.flinkRest;
  const { endpoint, method = 'GET', body } = request;
  if (mode === 'direct') {
    const response = await fetch(
      `${directBaseUrl(baseUrl!, namespace, name)}${endpoint}`,
      {
        method,
        body: body === undefined ? undefined : JSON.stringify(body),
        headers:
          body === undefined
            ? undefined
            : { 'content-type': 'application/json' },
        signal: request.signal
          ? AbortSignal.any([request.signal, AbortSignal.timeout(timeoutMs)])
          : AbortSignal.timeout(timeoutMs),
      },
    );
    const text = await response.text();
    if (!response.ok)
      throw new Error(
        `HTTP ${response.status} from ${endpoint}: ${reasonOf(text)}`,
      );
    return text;
  }
  const service = `${clusterObjectNames(name).restService}:rest`;
  const answer = await cluster.http.raw({
    method,
    path: `/api/v1/namespaces/${encodeURIComponent(namespace)}/services/${service}/proxy${endpoint}`,
    body,
    timeoutMs,
    signal: request.signal,
  });
  if (answer.status >= 400) {
    // The API server says why it could not reach the Service (no endpoints, refused, …), or
    // Flink says why it refused.
    throw new Error(
      `HTTP ${answer.status} from ${endpoint} through the service proxy: ${reasonOf(answer.body)}`,
    );
  }
  return answer.body;
}

/** The reason in an error answer: a Kubernetes Status message, Flink's `errors`, or the text. */
function reasonOf(body: string): string {
  try {
    const parsed = JSON.parse(body);
    if (typeof parsed.message === 'string') return parsed.message;
    if (Array.isArray(parsed.errors))
      return parsed.errors.join('; ').slice(0, 500);
  } catch {
    // A plain-text answer from Flink or the proxy.
  }
  return body.slice(0, 200);
}
