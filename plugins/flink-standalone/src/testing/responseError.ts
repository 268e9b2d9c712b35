import { ResponseError } from '@backstage/errors';

/** A ResponseError as the client makes it from one of the backend's standard error bodies. */
export function responseError(status: number, name: string, message: string) {
  const body = JSON.stringify({
    error: { name, message },
    request: {
      method: 'GET',
      url: '/api/flink-standalone/entities/default/component/orders-analytics/status',
    },
    response: { statusCode: status },
  });
  return ResponseError.fromResponse({
    ok: false,
    status,
    statusText: name,
    headers: new Headers({ 'content-type': 'application/json' }),
    redirected: false,
    type: 'basic',
    url: 'http://localhost/api/flink-standalone/entities/default/component/orders-analytics/status',
    text: async () => body,
  } as Response);
}
