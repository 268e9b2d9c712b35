/**
 * A refusal from the API server, with its Status object (reason, causes) kept for callers.
 *
 * @public
 */
export class KubernetesApiError extends Error {
  constructor(
    message: string,
    readonly statusCode: number,
    readonly reason: string | undefined,
    readonly causes: { reason?: string; message?: string; field?: string }[],
  ) {
    super(message);
    this.name = 'KubernetesApiError';
  }

  // Only the request line is needed: typed here, not as KubeRequest, so that this module does
  // not import KubeHttp, which imports it (no import cycle).
  static fromResponse(
    request: { method?: string; path: string },
    statusCode: number,
    body: string,
  ): KubernetesApiError {
    let status: {
      message?: string;
      reason?: string;
      details?: { causes?: any[] };
    } = {};
    try {
      status = JSON.parse(body);
    } catch {
      // Not a Status object (a proxy or load balancer answered).
    }
    const what = `${request.method ?? 'GET'} ${request.path}`;
    return new KubernetesApiError(
      `${what}: ${statusCode} ${status.reason ?? ''} ${status.message ?? body.slice(0, 300)}`
        .replace(/\s+/g, ' ')
        .trim(),
      statusCode,
      status.reason,
      status.details?.causes ?? [],
    );
  }
}

export const isNotFound = (error: unknown) =>
  error instanceof KubernetesApiError && error.statusCode === 404;
export const isGone = (error: unknown) =>
  error instanceof KubernetesApiError && error.statusCode === 410;
