import type {
  AuthService,
  BackstageCredentials,
  PermissionsService,
} from '@backstage/backend-plugin-api';
import type { Entity } from '@backstage/catalog-model';
import type { CatalogService } from '@backstage/plugin-catalog-node';
import { catalogEntityReadPermission } from '@backstage/plugin-catalog-common/alpha';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import { flinkStandaloneStatusReadPermission } from '@flink-standalone/plugin-flink-standalone-common';

/** The default of `flinkStandalone.statusReadCache.ttlSeconds`. */
export const STATUS_READ_CACHE_TTL_SECONDS = 10;

/**
 * What a status read may skip asking again: a caller's decisions for reading entities and
 * statuses, and the entities themselves.
 */
export interface StatusReadAccessOptions {
  catalog: CatalogService;
  permissions: PermissionsService;
  auth: AuthService;
  /** How long a decision or an entity is reused as is (0: never); see ReusedAnswers, ReadEntities. */
  ttlMs: number;
  /** Entries kept per cache at most; the oldest go first (default 10,000). */
  maxEntries?: number;
  now?: () => number;
}

/** The answer of a status read, or `undefined`: only the per-request path can tell. */
export type StatusReadAnswer =
  | { result: 'allowed'; entity: Entity }
  /** The caller may not read the entity, or it is not in the catalog. */
  | { result: 'not-found' }
  /** The caller may read the entity but not the status. */
  | { result: 'denied' };

interface Loaded<T> {
  value: T;
  loadedAt: number;
}

/** One load per key at a time: a caller asking while one runs shares it. */
function loadOnce<T>(
  loading: Map<string, Promise<T>>,
  key: string,
  load: () => Promise<T>,
): Promise<T> {
  let pending = loading.get(key);
  if (!pending) {
    pending = load().finally(() => loading.delete(key));
    loading.set(key, pending);
  }
  return pending;
}

/** Keeps `entry` as the newest under `key`; past `maxEntries` the oldest goes. */
function remember<E>(
  entries: Map<string, E>,
  key: string,
  entry: E,
  maxEntries: number,
): void {
  entries.delete(key);
  entries.set(key, entry);
  if (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
}

/**
 * Answers reused for `ttlMs`; then, up to twice that age, still served while a new one loads in
 * the background (a polled read never waits for the catalog or the permission backend once it
 * has an answer); older ones are loaded before answering. Holds at most `maxEntries`, the least
 * recently loaded go first.
 */
class ReusedAnswers<T> {
  private readonly entries = new Map<string, Loaded<T>>();
  private readonly loading = new Map<string, Promise<T>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number,
  ) {}

  async get(key: string, load: () => Promise<T>): Promise<T> {
    const cached = this.entries.get(key);
    const age = cached ? this.now() - cached.loadedAt : Infinity;
    if (cached && age <= this.ttlMs) return cached.value;
    if (cached && age <= 2 * this.ttlMs) {
      // A failed refresh drops the answer: the next read loads and reports the error.
      this.load(key, load).catch(() => this.entries.delete(key));
      return cached.value;
    }
    return this.load(key, load);
  }

  private load(key: string, load: () => Promise<T>): Promise<T> {
    return loadOnce(this.loading, key, async () => {
      const value = await load();
      remember(
        this.entries,
        key,
        { value, loadedAt: this.now() },
        this.maxEntries,
      );
      return value;
    });
  }
}

/** Entities read within this long are kept fresh (the catalog's own processing takes minutes). */
const KEEP_FRESH_WHILE_READ_MS = 60_000;
/** How often due entities are refreshed, and at most how many per catalog request. */
const REFRESH_ROUND_MS = 1_000;
const ENTITIES_PER_REFRESH_REQUEST = 100;

interface ReadEntity {
  entity: Entity | undefined;
  loadedAt: number;
  readAt: number;
}

/**
 * Entities as status reads need them, from the catalog with the plugin's own credentials. An
 * entity read within the last minute is refreshed once it is `ttlMs` old, in the background and
 * in batches (one `getEntitiesByRefs` request per 100 entities, a round at most every second,
 * started by a read): so a polled read never waits for the catalog, and the catalog sees a few
 * requests per second whatever the number of readers. An entity read after a pause is served
 * while up to twice `ttlMs` old (and refreshed); older, or never read, it is loaded first.
 */
class ReadEntities {
  private readonly entries = new Map<string, ReadEntity>();
  private readonly loading = new Map<string, Promise<Entity | undefined>>();
  private lastRoundAt = -Infinity;
  private refreshing = false;

  constructor(
    private readonly options: Pick<
      StatusReadAccessOptions,
      'catalog' | 'auth'
    > & {
      ttlMs: number;
      maxEntries: number;
      now: () => number;
    },
  ) {}

  async get(ref: string): Promise<Entity | undefined> {
    const now = this.options.now();
    const cached = this.entries.get(ref);
    const entity =
      cached && now - cached.loadedAt <= 2 * this.options.ttlMs
        ? cached.entity
        : await this.load(ref);
    const entry = this.entries.get(ref);
    if (entry) entry.readAt = Math.max(entry.readAt, now);
    this.refreshDue(now);
    return entity;
  }

  private load(ref: string): Promise<Entity | undefined> {
    return loadOnce(this.loading, ref, async () => {
      const entity = await this.options.catalog.getEntityByRef(ref, {
        credentials: await this.credentials(),
      });
      this.store(ref, entity);
      return entity;
    });
  }

  private store(ref: string, entity: Entity | undefined): void {
    const held = this.entries.get(ref);
    remember(
      this.entries,
      ref,
      {
        // Unchanged, the object already held stays: the refreshed copy dies young instead of
        // outliving young GCs to be promoted (every entity read is refreshed every few seconds).
        entity: sameVersion(held?.entity, entity) ? held!.entity : entity,
        loadedAt: this.options.now(),
        readAt: held?.readAt ?? 0,
      },
      this.options.maxEntries,
    );
  }

  /** Starts a refresh round if none runs and the last began a round interval ago. */
  private refreshDue(now: number): void {
    if (this.refreshing || now - this.lastRoundAt < REFRESH_ROUND_MS) return;
    this.lastRoundAt = now;
    const due = [...this.entries]
      .filter(
        ([ref, { loadedAt, readAt }]) =>
          now - loadedAt >= this.options.ttlMs &&
          now - readAt <= KEEP_FRESH_WHILE_READ_MS &&
          !this.loading.has(ref),
      )
      .map(([ref]) => ref);
    if (due.length === 0) return;
    this.refreshing = true;
    void this.refresh(due).finally(() => (this.refreshing = false));
  }

  /**
   * A failed request leaves its entities to age: past twice `ttlMs` a read loads one itself and
   * reports the catalog's error.
   */
  private async refresh(refs: string[]): Promise<void> {
    for (let i = 0; i < refs.length; i += ENTITIES_PER_REFRESH_REQUEST) {
      const batch = refs.slice(i, i + ENTITIES_PER_REFRESH_REQUEST);
      try {
        const { items } = await this.options.catalog.getEntitiesByRefs(
          { entityRefs: batch },
          { credentials: await this.credentials() },
        );
        batch.forEach((ref, j) => this.store(ref, items[j]));
      } catch {
        return;
      }
    }
  }

  private credentials() {
    return this.options.auth.getOwnServiceCredentials();
  }
}

/** The catalog gives an entity a new etag whenever it changes. */
function sameVersion(held: Entity | undefined, loaded: Entity | undefined) {
  return (
    held?.metadata.etag !== undefined &&
    held.metadata.uid === loaded?.metadata.uid &&
    held.metadata.etag === loaded?.metadata.etag
  );
}

/**
 * Status reads without a catalog or permission call per request, where that changes no
 * answer. Entity pages poll statuses, so per request the catalog read and the permission check
 * (four requests between plugins with a conditional decision) would cost far more than the
 * status itself, which comes from memory.
 *
 * - A caller's decisions for `catalog.entity.read` and `flink.standalone.status.read`, asked
 *   without a resource, are reused (see ReusedAnswers) when both are definitive (ALLOW or DENY): a
 *   policy sees no resource, so a definitive decision holds for every entity. A CONDITIONAL
 *   decision depends on the entity: such callers take the per-request path (`undefined`).
 * - Entities are read with the plugin's own credentials and kept fresh while read (see
 *   ReadEntities); the caller's own catalog read decision (above) then stands for the catalog's
 *   filtering.
 *
 * So a policy change, a new owner or an edited annotation shows within `ttlMs` (up to twice that
 * for a caller or entity not read in between), as with the API server's webhook authorizer,
 * which caches decisions the same way.
 */
export class StatusReadAccess {
  private readonly decisions: ReusedAnswers<{
    entityRead: AuthorizeResult;
    statusRead: AuthorizeResult;
  }>;
  private readonly entities: ReadEntities;

  constructor(private readonly options: StatusReadAccessOptions) {
    const now = options.now ?? Date.now;
    const max = options.maxEntries ?? 10_000;
    this.decisions = new ReusedAnswers(options.ttlMs, max, now);
    this.entities = new ReadEntities({
      catalog: options.catalog,
      auth: options.auth,
      ttlMs: options.ttlMs,
      maxEntries: max,
      now,
    });
  }

  async read(
    entityRef: string,
    credentials: BackstageCredentials,
  ): Promise<StatusReadAnswer | undefined> {
    const caller = callerKey(credentials);
    if (this.options.ttlMs <= 0 || !caller) return undefined;
    const { entityRead, statusRead } = await this.decisions.get(
      caller,
      async () => {
        const [entity, status] =
          await this.options.permissions.authorizeConditional(
            [
              { permission: catalogEntityReadPermission },
              { permission: flinkStandaloneStatusReadPermission },
            ],
            { credentials },
          );
        return { entityRead: entity.result, statusRead: status.result };
      },
    );
    if (entityRead === AuthorizeResult.DENY) return { result: 'not-found' };
    if (
      entityRead === AuthorizeResult.CONDITIONAL ||
      statusRead === AuthorizeResult.CONDITIONAL
    )
      return undefined;
    const entity = await this.entities.get(entityRef);
    if (!entity) return { result: 'not-found' };
    return statusRead === AuthorizeResult.ALLOW
      ? { result: 'allowed', entity }
      : { result: 'denied' };
  }
}

/** Who asks: a user or a service; nobody (unauthenticated) is never cached. */
function callerKey(credentials: BackstageCredentials): string | undefined {
  const principal = credentials.principal as {
    type: string;
    userEntityRef?: string;
    subject?: string;
    actor?: { subject: string };
  };
  // A plugin acting for a user is asked about as itself too: keep it apart from the user.
  if (principal.type === 'user')
    return `user:${principal.userEntityRef}:${principal.actor?.subject ?? ''}`;
  if (principal.type === 'service') return `service:${principal.subject}`;
  return undefined;
}
