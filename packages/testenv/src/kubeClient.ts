import fs from 'node:fs';
import https from 'node:https';

/** Credentials for the API server: a client certificate or a bearer token. */
export interface KubeCredentials {
  server: string;
  ca: string;
  cert?: string;
  key?: string;
  token?: string;
}

/** An error answer of the API server, with its Status message and reason. */
export class KubeApiError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number,
    readonly reason: string | undefined,
    readonly body: unknown,
  ) {
    const message =
      (body as { message?: string } | undefined)?.message ?? String(body);
    super(`${method} ${path}: ${status} ${reason ?? ''} ${message}`.trim());
    this.name = 'KubeApiError';
  }
}

export type PatchType = 'merge' | 'strategic' | 'json' | 'apply';

const PATCH_CONTENT_TYPES: Record<PatchType, string> = {
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  json: 'application/json-patch+json',
  apply: 'application/apply-patch+yaml',
};

export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: {
    name?: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    finalizers?: string[];
    deletionTimestamp?: string;
    uid?: string;
    resourceVersion?: string;
    [key: string]: unknown;
  };
  spec?: any;
  status?: any;
  [key: string]: unknown;
}

export interface KubeList<T = KubeObject> {
  items: T[];
  metadata: { resourceVersion?: string; continue?: string };
}

/**
 * A small REST client for the Kubernetes API (node:https, no dependencies), enough for the
 * harness and its tests; it works the same in Jest, tsx and plain Node.
 */
export class KubeClient {
  private readonly agent: https.Agent;

  constructor(readonly credentials: KubeCredentials) {
    this.agent = new https.Agent({
      ca: credentials.ca,
      cert: credentials.cert,
      key: credentials.key,
      keepAlive: true,
      maxSockets: 16,
    });
  }

  /** A client that authenticates with the given bearer token instead (e.g. a ServiceAccount). */
  withToken(token: string): KubeClient {
    return new KubeClient({
      server: this.credentials.server,
      ca: this.credentials.ca,
      token,
    });
  }

  async request<T = any>(
    method: string,
    path: string,
    body?: unknown,
    contentType = 'application/json',
  ): Promise<T> {
    const { status, text } = await this.raw(method, path, body, contentType);
    const parsed = parseJson(text);
    if (status >= 400) {
      throw new KubeApiError(
        method,
        path,
        status,
        (parsed as any)?.reason,
        parsed,
      );
    }
    return parsed as T;
  }

  /** The status code and body text, without throwing on error codes. */
  raw(
    method: string,
    path: string,
    body?: unknown,
    contentType = 'application/json',
  ): Promise<{ status: number; text: string }> {
    const url = new URL(path, this.credentials.server);
    const payload =
      typeof body === 'string' || body === undefined
        ? body
        : JSON.stringify(body);
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (payload !== undefined) headers['Content-Type'] = contentType;
    if (this.credentials.token)
      headers.Authorization = `Bearer ${this.credentials.token}`;
    return new Promise((resolve, reject) => {
      const req = https.request(
        url,
        { method, agent: this.agent, headers, timeout: 30_000 },
        res => {
          const chunks: Buffer[] = [];
          res.on('data', chunk => chunks.push(chunk));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              text: Buffer.concat(chunks).toString('utf8'),
            }),
          );
          res.on('error', reject);
        },
      );
      req.on('timeout', () =>
        req.destroy(new Error(`${method} ${path}: timeout`)),
      );
      req.on('error', reject);
      if (payload !== undefined) req.write(payload);
      req.end();
    });
  }

  get<T = KubeObject>(path: string): Promise<T> {
    return this.request<T>('GET', path);
  }

  /** GET that answers undefined for 404. */
  async find<T = KubeObject>(path: string): Promise<T | undefined> {
    try {
      return await this.get<T>(path);
    } catch (error) {
      if (error instanceof KubeApiError && error.status === 404)
        return undefined;
      throw error;
    }
  }

  list<T = KubeObject>(path: string): Promise<KubeList<T>> {
    return this.request<KubeList<T>>('GET', path);
  }

  create<T = KubeObject>(path: string, object: unknown): Promise<T> {
    return this.request<T>('POST', path, object);
  }

  patch<T = KubeObject>(
    path: string,
    patch: unknown,
    type: PatchType = 'merge',
  ): Promise<T> {
    return this.request<T>('PATCH', path, patch, PATCH_CONTENT_TYPES[type]);
  }

  /** Server-side apply of one object to its path (…/namespaces/<ns>/<plural>/<name>). */
  apply<T = KubeObject>(
    path: string,
    object: unknown,
    { fieldManager = 'testenv', force = true, dryRun = false } = {},
  ): Promise<T> {
    const query = new URLSearchParams({ fieldManager, force: String(force) });
    if (dryRun) query.set('dryRun', 'All');
    return this.patch<T>(`${path}?${query}`, object, 'apply');
  }

  /** DELETE that ignores 404. */
  async delete(path: string, options?: Record<string, unknown>): Promise<void> {
    try {
      await this.request('DELETE', path, options);
    } catch (error) {
      if (error instanceof KubeApiError && error.status === 404) return;
      throw error;
    }
  }

  close(): void {
    this.agent.destroy();
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Reads the PEM files of a client certificate into credentials. */
export function certificateCredentials(
  server: string,
  files: { caFile: string; certFile: string; keyFile: string },
): KubeCredentials {
  return {
    server,
    ca: fs.readFileSync(files.caFile, 'utf8'),
    cert: fs.readFileSync(files.certFile, 'utf8'),
    key: fs.readFileSync(files.keyFile, 'utf8'),
  };
}
