/**
 * The counting proxy in front of the API server, in a worker thread of its own: the benchmark's
 * backend reaches Kubernetes through it, and copying the peer's list answers must not cost the
 * measured event loop anything. Answers `counts` messages with the requests so far by kind.
 * It stands for the network between the backend and the API server, which in production is not
 * on the backend's cores: it tells its thread's id, which the benchmark gives the simulated
 * cluster's priority.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { startCountingApiProxy } from '@flink-standalone/testenv';
import { callingThreadId } from './cpuUsage';

/** What a request to the API server is: a watch, a list, a get, a write or a service proxy. */
export type ApiRequestKind =
  'watch' | 'list' | 'get' | 'write' | 'proxy' | 'discovery';

export function apiRequestKind(method: string, url: string): ApiRequestKind {
  const { pathname, searchParams } = new URL(url, 'http://api');
  const parts = pathname.split('/').filter(Boolean);
  if (parts.includes('proxy')) return 'proxy';
  if (method !== 'GET') return 'write';
  if (['true', '1'].includes(searchParams.get('watch') ?? '')) return 'watch';
  // /api/v1/…, /apis/<group>/<version>/…, then an optional namespaces/<ns>/.
  const versionEnd = { api: 2, apis: 3 }[parts[0]];
  let rest = versionEnd ? parts.slice(versionEnd) : [];
  if (rest.length === 0) return 'discovery';
  if (rest[0] === 'namespaces' && rest.length >= 3) rest = rest.slice(2);
  return rest.length === 1 ? 'list' : 'get';
}

export type ApiCounts = Record<ApiRequestKind, number>;

if (parentPort) {
  const port = parentPort;
  (async () => {
    const proxy = await startCountingApiProxy(workerData.plane);
    const counts: ApiCounts = {
      watch: 0,
      list: 0,
      get: 0,
      write: 0,
      proxy: 0,
      discovery: 0,
    };
    let counted = 0;
    const count = () => {
      for (; counted < proxy.requests.length; counted++) {
        const { method, url } = proxy.requests[counted];
        counts[apiRequestKind(method, url)]++;
      }
      return { ...counts };
    };
    port.on('message', (message: 'counts' | 'close') => {
      if (message === 'counts') port.postMessage(count());
      else void proxy.close().then(() => port.postMessage('closed'));
    });
    port.postMessage({ url: proxy.url, threadId: callingThreadId() });
  })();
}
