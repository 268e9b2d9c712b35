import { ResponseError } from '@backstage/errors';
import { mockApis } from '@backstage/test-utils';
import { statusResponse } from '../testing/fixtures';
import { FlinkStandaloneClient } from './FlinkStandaloneClient';

const entity = {
  kind: 'Component',
  namespace: 'default',
  name: 'orders-analytics',
};
const BASE = 'http://backstage.test/api/flink-standalone';

function jsonResponse(status: number, body: unknown) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

function clientAnswering(response: Response) {
  const fetch = jest.fn(async (_url: string, _init?: RequestInit) => response);
  const client = new FlinkStandaloneClient({
    discoveryApi: mockApis.discovery({ baseUrl: 'http://backstage.test' }),
    fetchApi: { fetch } as any,
  });
  return { client, fetch };
}

describe('FlinkStandaloneClient', () => {
  it('gets the status of an entity by namespace, lower-case kind and name', async () => {
    const { client, fetch } = clientAnswering(
      jsonResponse(200, statusResponse()),
    );
    await expect(client.getEntityStatus(entity)).resolves.toEqual(
      statusResponse(),
    );
    expect(fetch).toHaveBeenCalledWith(
      `${BASE}/entities/default/component/orders-analytics/status`,
      undefined,
    );
  });

  it('posts the number of TaskManagers to scale to', async () => {
    const scaled = {
      kind: 'StatefulSet',
      name: 'orders-taskmanager',
      previousReplicas: 2,
      replicas: 4,
    };
    const { client, fetch } = clientAnswering(jsonResponse(200, scaled));
    await expect(client.scaleTaskManagers(entity, 4)).resolves.toEqual(scaled);
    const [url, init] = fetch.mock.calls[0];
    expect(url).toBe(
      `${BASE}/entities/default/component/orders-analytics/scale`,
    );
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({ taskManagers: 4 });
  });

  it('deletes with or without the claims', async () => {
    const deleted = { deleted: [], claimsDeleted: [], claimsKept: [] };
    const { client, fetch } = clientAnswering(jsonResponse(200, deleted));
    await client.deleteCluster(entity, { deleteClaims: true });
    expect(fetch).toHaveBeenCalledWith(
      `${BASE}/entities/default/component/orders-analytics?deleteClaims=true`,
      { method: 'DELETE' },
    );
  });

  it('encodes the parts of the entity ref', async () => {
    const { client, fetch } = clientAnswering(
      jsonResponse(200, statusResponse()),
    );
    await client.getEntityStatus({
      kind: 'Component',
      namespace: 'team a',
      name: 'x/y',
    });
    expect(fetch.mock.calls[0][0]).toBe(
      `${BASE}/entities/team%20a/component/x%2Fy/status`,
    );
  });

  it('turns an error body into a ResponseError with its details', async () => {
    const { client } = clientAnswering(
      jsonResponse(403, {
        error: { name: 'NotAllowedError', message: 'not allowed' },
        response: { statusCode: 403 },
      }),
    );
    const error = await client.getEntityStatus(entity).catch(e => e);
    expect(error).toBeInstanceOf(ResponseError);
    expect(error.response.status).toBe(403);
    expect(error.cause).toMatchObject({
      name: 'NotAllowedError',
      message: 'not allowed',
    });
  });
});
