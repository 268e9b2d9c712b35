import type { KubernetesObject } from '@kubernetes/client-node';
import type { KubeHttp } from '../kube/KubeHttp';
import { KubernetesApiError, isGone } from '../kube/errors';
import { resourcePath } from '../kube/resources';

export interface InformerOptions {
  kind: string;
  /** Undefined: every namespace. */
  namespace?: string;
  labelSelector?: string;
  /** Keeps only what the observer reads: bulk such as managedFields never reaches memory. */
  slim: (object: any) => KubernetesObject;
  /** Drops objects not worth keeping (e.g. events of other objects). */
  keep?: (object: KubernetesObject) => boolean;
  /** Secondary index keys of an object (e.g. `<namespace>/<app label>`), for fast lookups. */
  indexKeys?: (object: KubernetesObject) => string[];
  /**
   * An update whose slim form equals the cached one is not counted as a change (e.g. a node
   * heartbeat): readers keep reusing what they derived. For kinds whose slim form carries no
   * resourceVersion; otherwise every update differs anyway.
   */
  ignoreUnchanged?: boolean;
  /**
   * After each change: with the objects it concerns (an update: the object before and after), or
   * none when the connection came or went (answers may now say stale, or no longer).
   */
  onChange?: (objects?: KubernetesObject[]) => void;
  /** Objects per list page (default LIST_PAGE_SIZE). */
  pageSize?: number;
  /**
   * A kind the backend may not be allowed to read (nodes, with namespaced RBAC): a 403 counts as
   * synced-and-empty instead of holding up the cache.
   */
  optional?: boolean;
  /** Backoff bounds after a failed list or watch. */
  minBackoffMs?: number;
  maxBackoffMs?: number;
}

export interface InformerState {
  synced: boolean;
  connected: boolean;
  lastSyncedAt?: Date;
  lastError?: string;
  relists: number;
  /** Changes taken in: objects added, updated or removed (by watch events or a relist). */
  changes: number;
}

/**
 * Each page is parsed at once on the backend's main thread, where requests wait meanwhile: 500
 * pods as kwok writes them (2.6 MB of JSON) took 15 ms to parse and slim on an idle core, 100
 * took 2.4 ms. client-go's 500 suits a Go informer, which decodes off the request path.
 */
const LIST_PAGE_SIZE = 100;

const key = (o: KubernetesObject) =>
  `${o.metadata?.namespace ?? ''}/${o.metadata?.name}`;

/** The API server gives every write a new resourceVersion: the same one is the same object. */
const sameResourceVersion = (a: KubernetesObject, b: KubernetesObject) =>
  a.metadata?.resourceVersion !== undefined &&
  a.metadata.resourceVersion === b.metadata?.resourceVersion;

/**
 * List + watch of one kind: keeps a store of slim objects up to date. A watch that ends is
 * resumed from the last resourceVersion; `410 Gone` (history compacted, e.g. after an API server
 * restart) means relist; any other failure means backoff and retry, with the state disconnected
 * meanwhile so readers can flag their answers stale.
 */
export class Informer {
  private readonly store = new Map<string, KubernetesObject>();
  private readonly index = new Map<string, Map<string, KubernetesObject>>();
  /** Bumped on every change, overall and per index key: lets readers reuse derived answers. */
  private generation = 0;
  private readonly indexGenerations = new Map<string, number>();
  readonly state: InformerState = {
    synced: false,
    connected: false,
    relists: 0,
    changes: 0,
  };
  private resourceVersion?: string;
  private abort = new AbortController();
  private stopped = false;
  private firstSync: Promise<void>;
  private resolveFirstSync!: () => void;

  constructor(
    private readonly http: KubeHttp,
    private readonly options: InformerOptions,
  ) {
    this.firstSync = new Promise(resolve => (this.resolveFirstSync = resolve));
  }

  start(): void {
    void this.run();
  }

  /** Resolves after the first complete list (or never, if the API server cannot be reached). */
  synced(): Promise<void> {
    return this.firstSync;
  }

  stop(): void {
    this.stopped = true;
    this.abort.abort();
  }

  get(
    namespace: string | undefined,
    name: string,
  ): KubernetesObject | undefined {
    return this.store.get(`${namespace ?? ''}/${name}`);
  }

  byIndex(indexKey: string): KubernetesObject[] {
    return [...(this.index.get(indexKey)?.values() ?? [])];
  }

  get size(): number {
    return this.store.size;
  }

  /** Changes so far, overall or (with a key) to the objects under one index key. */
  changes(indexKey?: string): number {
    return indexKey === undefined
      ? this.generation
      : (this.indexGenerations.get(indexKey) ?? 0);
  }

  private bump(object: KubernetesObject): void {
    this.generation++;
    for (const indexKey of this.options.indexKeys?.(object) ?? []) {
      this.indexGenerations.set(
        indexKey,
        (this.indexGenerations.get(indexKey) ?? 0) + 1,
      );
    }
  }

  /**
   * Stores the object; false if it was not a change: the version already stored (a relist
   * finds most objects as they were), or, with ignoreUnchanged, the same slim object.
   */
  private put(object: KubernetesObject): boolean {
    const previous = this.store.get(key(object));
    if (
      previous &&
      (sameResourceVersion(previous, object) ||
        (this.options.ignoreUnchanged &&
          JSON.stringify(previous) === JSON.stringify(object)))
    )
      return false;
    this.remove(key(object));
    this.bump(object);
    this.store.set(key(object), object);
    for (const indexKey of this.options.indexKeys?.(object) ?? []) {
      let bucket = this.index.get(indexKey);
      if (!bucket) this.index.set(indexKey, (bucket = new Map()));
      bucket.set(key(object), object);
    }
    return true;
  }

  /** False if there was no such object. */
  private remove(objectKey: string): boolean {
    const previous = this.store.get(objectKey);
    if (!previous) return false;
    this.bump(previous);
    this.store.delete(objectKey);
    for (const indexKey of this.options.indexKeys?.(previous) ?? []) {
      const bucket = this.index.get(indexKey);
      bucket?.delete(objectKey);
      if (bucket?.size === 0) this.index.delete(indexKey);
    }
    return true;
  }

  private async run(): Promise<void> {
    let backoff = this.options.minBackoffMs ?? 250;
    while (!this.stopped) {
      try {
        if (!this.resourceVersion) await this.list();
        backoff = this.options.minBackoffMs ?? 250;
        await this.watch();
      } catch (error) {
        if (this.stopped) return;
        this.state.connected = false;
        this.state.lastError = (error as Error).message;
        this.options.onChange?.();
        if (isGone(error)) {
          this.resourceVersion = undefined;
          continue;
        }
        if (
          this.options.optional &&
          error instanceof KubernetesApiError &&
          error.statusCode === 403
        ) {
          this.resolveFirstSync();
          backoff = this.options.maxBackoffMs ?? 10_000;
        }
        await this.sleep(backoff);
        backoff = Math.min(backoff * 2, this.options.maxBackoffMs ?? 10_000);
      }
    }
  }

  private async list(): Promise<void> {
    const fresh = new Map<string, KubernetesObject>();
    let continueToken: string | undefined;
    let resourceVersion: string | undefined;
    do {
      const page = await this.http.json<{
        items: any[];
        metadata: { resourceVersion: string; continue?: string };
      }>({
        path: resourcePath(this.options.kind, this.options.namespace),
        query: {
          labelSelector: this.options.labelSelector,
          limit: this.options.pageSize ?? LIST_PAGE_SIZE,
          continue: continueToken,
        },
        signal: this.abort.signal,
        timeoutMs: 60_000,
      });
      for (const item of page.items) {
        const object = this.options.slim({ ...item, kind: this.options.kind });
        if (!this.options.keep || this.options.keep(object))
          fresh.set(key(object), object);
      }
      continueToken = page.metadata.continue || undefined;
      resourceVersion = page.metadata.resourceVersion;
    } while (continueToken);
    // A relist (after 410 Gone) counts only what changed while the watch was lost: an object
    // gone, new or of another version. Counting every object would make every status computed
    // from this kind look out of date, and recomputing them all would hold up the reads.
    for (const objectKey of [...this.store.keys()])
      if (!fresh.has(objectKey) && this.remove(objectKey)) this.state.changes++;
    for (const object of fresh.values())
      if (this.put(object)) this.state.changes++;
    this.resourceVersion = resourceVersion;
    this.state.relists++;
    this.markSynced();
  }

  private async watch(): Promise<void> {
    await this.http.watch(
      {
        path: resourcePath(this.options.kind, this.options.namespace),
        query: {
          labelSelector: this.options.labelSelector,
          resourceVersion: this.resourceVersion,
          allowWatchBookmarks: true,
          timeoutSeconds: 300,
        },
        signal: this.abort.signal,
      },
      event => this.handle(event),
      () => this.markSynced(),
    );
  }

  private handle(event: { type: string; object: any }): void {
    if (event.type === 'ERROR') {
      const status = event.object ?? {};
      throw new KubernetesApiError(
        status.message ?? 'watch error',
        status.code ?? 500,
        status.reason,
        [],
      );
    }
    this.resourceVersion =
      event.object?.metadata?.resourceVersion ?? this.resourceVersion;
    this.markSynced();
    if (event.type === 'BOOKMARK') return;
    const object = this.options.slim({
      ...event.object,
      kind: this.options.kind,
    });
    const previous = this.store.get(key(object));
    const changed =
      event.type !== 'DELETED' &&
      (!this.options.keep || this.options.keep(object))
        ? this.put(object)
        : this.remove(key(object));
    // A heartbeat that changes nothing kept, or an object never kept, is no news.
    if (changed) {
      this.state.changes++;
      this.options.onChange?.(previous ? [previous, object] : [object]);
    }
  }

  private markSynced(): void {
    const wasConnected = this.state.connected;
    this.state.synced = true;
    this.state.connected = true;
    this.state.lastSyncedAt = new Date();
    this.state.lastError = undefined;
    this.resolveFirstSync();
    if (!wasConnected) this.options.onChange?.();
  }

  private sleep(ms: number): Promise<void> {
    return new Promise(resolve => {
      const timer = setTimeout(resolve, ms);
      this.abort.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}
