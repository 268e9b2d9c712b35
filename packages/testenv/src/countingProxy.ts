import http from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { SharedControlPlane } from './shared';

/** One request that reached the API server through the proxy. */
export interface ProxiedRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  /** The API server's status code, once it answered. */
  status?: number;
}

/** A plain-HTTP proxy in front of the plane's API server that records every request. */
export interface CountingApiProxy {
  /** `http://127.0.0.1:<port>`: give it to the code under test as the cluster's URL. */
  url: string;
  /** Every request so far, in arrival order. */
  readonly requests: readonly ProxiedRequest[];
  close(): Promise<void>;
}

/**
 * Starts a proxy that forwards every request (watch streams included) to the plane's API server
 * unchanged, credentials included, and records it on arrival: a test can assert that code made
 * no Kubernetes request at all, whatever client it uses. Plain HTTP on loopback towards the code
 * under test; HTTPS with the plane's CA towards the API server.
 */
export async function startCountingApiProxy(
  plane: Pick<SharedControlPlane, 'server' | 'admin'>,
): Promise<CountingApiProxy> {
  const requests: ProxiedRequest[] = [];
  const upstream = new URL(plane.server);
  const agent = new https.Agent({ ca: plane.admin.ca, keepAlive: true });
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const recorded: ProxiedRequest = {
      method: req.method ?? 'GET',
      url: req.url ?? '/',
    };
    requests.push(recorded);
    const forwarded = https.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: upstream.host },
        agent,
      },
      answer => {
        recorded.status = answer.statusCode;
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on('error', error => {
      if (!res.headersSent) res.writeHead(502);
      res.end(String(error));
    });
    // A client that goes away (a stopped watch) ends the upstream request too.
    res.on('close', () => forwarded.destroy());
    req.pipe(forwarded);
  });
  server.on('connection', socket => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      agent.destroy();
      await new Promise<void>(resolve => server.close(() => resolve()));
    },
  };
}
