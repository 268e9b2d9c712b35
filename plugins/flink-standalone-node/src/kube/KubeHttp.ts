import { KeyObject } from 'node:crypto';
import * as http from 'node:http';
import * as https from 'node:https';
import type { Socket } from 'node:net';
import * as tls from 'node:tls';
import { KubeConfig } from '@kubernetes/client-node';
import { KubernetesApiError } from './errors';

/**
 * An API server and how to authenticate to it. A `KubeConfig` is one (through
 * `kubeConnectionOf`); an auth strategy makes another.
 *
 * @public
 */
export interface KubeConnection {
  /** The API server URL. */
  server: string;
  /** Adds credentials and TLS trust to the options of one request. */
  applyToHTTPSOptions(options: https.RequestOptions): Promise<void>;
}

/**
 * The current context of a kubeconfig as a connection.
 *
 * @public
 */
export function kubeConnectionOf(kubeConfig: KubeConfig): KubeConnection {
  const cluster = kubeConfig.getCurrentCluster();
  if (!cluster) throw new Error('The kubeconfig has no current cluster');
  return {
    server: cluster.server,
    applyToHTTPSOptions: options => kubeConfig.applyToHTTPSOptions(options),
  };
}

/** @public */
export interface KubeRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  contentType?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * The one way this library talks to an API server: JSON requests and line-delimited watch
 * streams over node:https, with credentials applied by a connection: a KubeConfig (tokens, client
 * certificates, exec plugins) or an auth strategy. Credentials stay in this object.
 *
 * @public
 */
export class KubeHttp {
  private readonly server: URL;
  /**
   * Keep-alive connections (a TLS handshake per request would cost more than the request), for
   * the TLS identity they were opened with.
   */
  private pool?: { identity: TlsIdentity; agent: https.Agent };
  /** Counts requests, so benchmarks and tests can prove a status read made none. */
  requestCount = 0;

  private readonly connection: KubeConnection;

  constructor(connection: KubeConnection | KubeConfig) {
    this.connection =
      connection instanceof KubeConfig
        ? kubeConnectionOf(connection)
        : connection;
    this.server = new URL(this.connection.server);
  }

  get serverUrl(): string {
    return this.server.origin;
  }

  /** Closes the current identity's connections (a retired identity's close as they end). */
  close(): void {
    this.pool?.agent.destroy();
    this.pool = undefined;
  }

  async json<T>(request: KubeRequest): Promise<T> {
    const { status, body } = await this.send(request);
    const text = body.toString('utf8');
    if (status >= 400)
      throw KubernetesApiError.fromResponse(request, status, text);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /** Raw body and status, for the service proxy (Flink REST answers are not Kubernetes objects). */
  async raw(request: KubeRequest): Promise<{ status: number; body: string }> {
    const { status, body } = await this.send(request);
    return { status, body: body.toString('utf8') };
  }

  /**
   * A watch: calls `onEvent` for every line until the server closes the stream, the signal
   * aborts, or an error occurs; resolves when the stream ends.
   */
  async watch(
    request: KubeRequest,
    onEvent: (event: { type: string; object: any }) => void,
    onOpen?: () => void,
  ): Promise<void> {
    const response = await this.open({
      ...request,
      query: { ...request.query, watch: true },
    });
    if ((response.statusCode ?? 0) >= 400) {
      const body = await readAll(response);
      throw KubernetesApiError.fromResponse(
        request,
        response.statusCode!,
        body.toString('utf8'),
      );
    }
    onOpen?.();
    await new Promise<void>((resolve, reject) => {
      let buffered = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        buffered += chunk;
        let newline = buffered.indexOf('\n');
        while (newline >= 0) {
          const line = buffered.slice(0, newline).trim();
          buffered = buffered.slice(newline + 1);
          if (line) {
            try {
              onEvent(JSON.parse(line));
            } catch (error) {
              response.destroy(error as Error);
              return;
            }
          }
          newline = buffered.indexOf('\n');
        }
      });
      response.on('end', () => resolve());
      response.on('error', reject);
      response.on('close', () => resolve());
    });
  }

  private async send(
    request: KubeRequest,
  ): Promise<{ status: number; body: Buffer }> {
    const response = await this.open(request);
    return { status: response.statusCode ?? 0, body: await readAll(response) };
  }

  private async open(request: KubeRequest): Promise<http.IncomingMessage> {
    this.requestCount++;
    const url = new URL(request.path, this.server);
    for (const [key, value] of Object.entries(request.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    const payload =
      request.body === undefined
        ? undefined
        : Buffer.from(
            typeof request.body === 'string'
              ? request.body
              : JSON.stringify(request.body),
          );
    const options: https.RequestOptions = {
      method: request.method ?? 'GET',
      headers: {
        Accept: 'application/json',
        ...(payload && {
          'Content-Type': request.contentType ?? 'application/json',
          'Content-Length': payload.length,
        }),
      },
    };
    // Applied per request: tokens from files or exec plugins rotate.
    await this.connection.applyToHTTPSOptions(options);
    const transport = url.protocol === 'http:' ? http : https;
    if (transport === https) options.agent = this.agentFor(options);
    return new Promise((resolve, reject) => {
      const req = transport.request(
        url,
        { ...options, signal: request.signal },
        resolve,
      );
      if (request.timeoutMs) {
        req.setTimeout(request.timeoutMs, () =>
          req.destroy(
            new Error(
              `timed out after ${request.timeoutMs} ms: ${options.method} ${url.pathname}`,
            ),
          ),
        );
      }
      req.on('error', reject);
      req.end(payload);
    });
  }

  /**
   * The agent whose connections present this request's TLS identity, which moves from the
   * request's options into the agent's secure context. A connection's identity is fixed at its
   * handshake, and Node's agent lets its own options override a request's: an identity that
   * changes (a client certificate rotated by an exec plugin or an auth strategy) gets an agent
   * of its own, and the old one's connections close as soon as they are idle (busy ones,
   * watches, run to their end). Out of the request's options, the PEMs no longer go into the
   * name Node builds for every request to pick its pool of sockets.
   */
  private agentFor(options: https.RequestOptions): https.Agent {
    const identity: TlsIdentity = {
      ca: options.ca,
      cert: options.cert,
      key: options.key,
      rejectUnauthorized: options.rejectUnauthorized,
    };
    delete options.ca;
    delete options.cert;
    delete options.key;
    if (this.pool && sameIdentity(this.pool.identity, identity))
      return this.pool.agent;
    if (this.pool) retire(this.pool.agent);
    const agent = new https.Agent({
      keepAlive: true,
      maxSockets: 64,
      secureContext: tls.createSecureContext({
        ca: identity.ca,
        cert: identity.cert,
        key: identity.key,
      }),
      rejectUnauthorized: identity.rejectUnauthorized,
    });
    this.pool = { identity, agent };
    return agent;
  }
}

/** Whom a connection trusts and whom it presents. */
type TlsIdentity = Pick<
  https.RequestOptions,
  'ca' | 'cert' | 'key' | 'rejectUnauthorized'
>;

/**
 * TLS material compared by content: a kubeconfig's options carry new Buffers of the same bytes on
 * every request. PEM strings, Buffers, lists of them, keys with their passphrase.
 */
function sameMaterial(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Buffer.isBuffer(a)) return Buffer.isBuffer(b) && a.equals(b);
  if (a instanceof KeyObject) return b instanceof KeyObject && a.equals(b);
  if (Array.isArray(a)) {
    return (
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((item, i) => sameMaterial(item, b[i]))
    );
  }
  if (isPemWithPassphrase(a) && isPemWithPassphrase(b))
    return a.passphrase === b.passphrase && sameMaterial(a.pem, b.pem);
  return false;
}

function isPemWithPassphrase(
  material: unknown,
): material is { pem: unknown; passphrase?: string } {
  return typeof material === 'object' && material !== null && 'pem' in material;
}

function sameIdentity(a: TlsIdentity, b: TlsIdentity): boolean {
  return (
    a.rejectUnauthorized === b.rejectUnauthorized &&
    sameMaterial(a.ca, b.ca) &&
    sameMaterial(a.cert, b.cert) &&
    sameMaterial(a.key, b.key)
  );
}

/** An agent no request will use again: its idle connections close now, its busy ones when done. */
function retire(agent: https.Agent): void {
  for (const sockets of Object.values(agent.freeSockets))
    for (const socket of sockets ?? []) socket.destroy();
  // After the agent's own listener has put a finished request's socket among the idle ones.
  agent.on('free', (socket: Socket) => socket.destroy());
}

function readAll(stream: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', chunk => chunks.push(chunk));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}
