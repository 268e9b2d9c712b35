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
 * statuses, the entities themselves, and a conditional caller's answers per entity.
 */
export interface StatusReadAccessOptions {
  catalog: CatalogService;
  permissions: PermissionsService;
  auth: AuthService;
  /** How long a decision, an entity or an answer is reused as is (0: never); see ReusedAnswers, KeptFreshWhileRead. */
  ttlMs: number;
  /** Entries kept per cache at most; the oldest go first (default 10,000). */
  maxEntries?: number;
  now?: () => number;
}

/** The answer of a status read; `undefined`: left to the per-request path (no caller, or a TTL of 0). */
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

/** Values read within this long are kept fresh (the catalog's own processing takes minutes). */
const KEEP_FRESH_WHILE_READ_MS = 60_000;
/** How often due values are refreshed; at most how many refs a request loads. */
const REFRESH_ROUND_MS = 1_000;
const REFS_PER_REQUEST = 100;

/** How values are loaded for one group's refs: one (a lone first read), or many. */
interface Loader<T> {
  one(ref: string): Promise<T>;
  many(refs: string[]): Promise<T[]>;
}

interface KeptValue<T> {
  value: T;
  loadedAt: number;
  readAt: number;
  group: string;
  ref: string;
  /** The loader of the latest read, with that reader's credentials. */
  loader: Loader<T>;
}

const keyOf = (group: string, ref: string) => `${group}\n${ref}`;

/**
 * Values per entity ref (in groups: one per caller, or one for the plugin itself), as status
 * reads need them. A value read within the last minute is refreshed once it is `ttlMs` old, in
 * the background and in batches (one `many` per group and 100 refs, a round at most every
 * second, started by a read; some of the oldest earlier, for an even rate: see refreshDue): so
 * a polled read never waits, and the catalog and permission backends see a steady few requests
 * per second whatever the number of reads. A value read after a
 * pause is served while up to twice `ttlMs` old (and refreshed); older, or never read, it is
 * loaded first.
 */
class KeptFreshWhileRead<T> {
  private readonly entries = new Map<string, KeptValue<T>>();
  private readonly loading = new Map<string, Promise<T>>();
  /** First reads waiting for this turn of the event loop to end, by group. */
  private readonly queued = new Map<
    string,
    {
      loader: Loader<T>;
      waiting: {
        ref: string;
        resolve: (value: T) => void;
        reject: (error: unknown) => void;
      }[];
    }
  >();
  private lastRoundAt = -Infinity;
  private refreshing = false;

  constructor(
    private readonly options: {
      ttlMs: number;
      maxEntries: number;
      now: () => number;
      /** Whether a loaded value is the one held (then the held object stays). */
      same: (held: T, loaded: T) => boolean;
    },
  ) {}

  async get(group: string, ref: string, loader: Loader<T>): Promise<T> {
    const key = keyOf(group, ref);
    const now = this.options.now();
    const cached = this.entries.get(key);
    const value =
      cached && now - cached.loadedAt <= 2 * this.options.ttlMs
        ? cached.value
        : await this.load(key, group, ref, loader);
    const entry = this.entries.get(key);
    if (entry) {
      entry.readAt = Math.max(entry.readAt, now);
      entry.loader = loader;
    }
    this.refreshDue(now);
    return value;
  }

  private load(
    key: string,
    group: string,
    ref: string,
    loader: Loader<T>,
  ): Promise<T> {
    return loadOnce(this.loading, key, async () => {
      const value = await this.loadWithOthers(group, ref, loader);
      this.store(key, { group, ref, loader }, value);
      return value;
    });
  }

  /**
   * A group's first reads that arrive in the same turn of the event loop share a request (one
   * `many` per 100 refs; a lone read is one `one`): pages opened together, or reopened after a
   * restart, do not each wait for a request of their own.
   */
  private loadWithOthers(
    group: string,
    ref: string,
    loader: Loader<T>,
  ): Promise<T> {
    return new Promise((resolve, reject) => {
      let queued = this.queued.get(group);
      if (!queued) {
        queued = { loader, waiting: [] };
        this.queued.set(group, queued);
        setImmediate(() => void this.loadQueued(group));
      }
      queued.waiting.push({ ref, resolve, reject });
    });
  }

  private async loadQueued(group: string): Promise<void> {
    const { loader, waiting } = this.queued.get(group)!;
    this.queued.delete(group);
    for (let i = 0; i < waiting.length; i += REFS_PER_REQUEST) {
      const batch = waiting.slice(i, i + REFS_PER_REQUEST);
      try {
        const values =
          batch.length === 1
            ? [await loader.one(batch[0].ref)]
            : await loader.many(batch.map(w => w.ref));
        batch.forEach((w, j) => w.resolve(values[j]));
      } catch (error) {
        batch.forEach(w => w.reject(error));
      }
    }
  }

  private store(
    key: string,
    source: Pick<KeptValue<T>, 'group' | 'ref' | 'loader'>,
    value: T,
  ): void {
    const held = this.entries.get(key);
    remember(
      this.entries,
      key,
      {
        group: source.group,
        ref: source.ref,
        loader: source.loader,
        // Unchanged, the object already held stays: the refreshed copy dies young instead of
        // outliving young GCs to be promoted (every value read is refreshed every few seconds).
        value:
          held && this.options.same(held.value, value) ? held.value : value,
        loadedAt: this.options.now(),
        readAt: held?.readAt ?? 0,
      },
      this.options.maxEntries,
    );
  }

  /**
   * Starts a refresh round if none runs and the last began a round interval ago. A round
   * refreshes the kept values a TTL old, and more of the oldest (a round old at least) up to its
   * share of an even rate: all kept values once per TTL. Values loaded together (pages opened at
   * once, a restart) would otherwise come due together every TTL, a burst of catalog requests
   * that holds up the reads arriving meanwhile; topped up this way, they spread out over the
   * next TTL and stay spread. The share is rounded down to whole requests and, when the due
   * values outnumber it, up to whole requests: no request for a few refs where there are more
   * (counted over all groups; each group's values go in requests of their own).
   */
  private refreshDue(now: number): void {
    if (this.refreshing || now - this.lastRoundAt < REFRESH_ROUND_MS) return;
    const { ttlMs } = this.options;
    const sinceLastRound = Math.min(now - this.lastRoundAt, ttlMs);
    this.lastRoundAt = now;
    const age = (entry: KeptValue<T>) => now - entry.loadedAt;
    // Entries are held in the order they were loaded, the oldest first: so are these, and the
    // due ones come first.
    // forEach, not for-of over entries: no [key, value] pair allocated per entry, every second.
    const eligible: KeptValue<T>[] = [];
    this.entries.forEach((entry, key) => {
      if (
        now - entry.readAt <= KEEP_FRESH_WHILE_READ_MS &&
        !this.loading.has(key)
      )
        eligible.push(entry);
    });
    const evenShare = Math.floor((eligible.length * sinceLastRound) / ttlMs);
    // In whole requests where it fills one: 100 refs, not 100 and then 1.
    const share =
      evenShare < REFS_PER_REQUEST
        ? evenShare
        : evenShare - (evenShare % REFS_PER_REQUEST);
    const firstNotDue = eligible.findIndex(entry => age(entry) < ttlMs);
    const due = firstNotDue < 0 ? eligible.length : firstNotDue;
    const count =
      due > share
        ? Math.ceil(due / REFS_PER_REQUEST) * REFS_PER_REQUEST
        : share;
    const chosen = eligible
      .slice(0, count)
      .filter(entry => age(entry) >= Math.min(ttlMs, REFRESH_ROUND_MS));
    if (chosen.length === 0) return;
    const byGroup = new Map<string, KeptValue<T>[]>();
    for (const entry of chosen) {
      const group = byGroup.get(entry.group);
      if (group) group.push(entry);
      else byGroup.set(entry.group, [entry]);
    }
    this.refreshing = true;
    void this.refresh([...byGroup.values()]).finally(
      () => (this.refreshing = false),
    );
  }

  /**
   * Group by group, with the loader of the group's latest read. A failed request leaves its
   * values to age: past twice `ttlMs` a read loads one itself and reports the error.
   */
  private async refresh(groups: KeptValue<T>[][]): Promise<void> {
    for (const entries of groups) {
      const { loader } = entries.reduce((a, b) =>
        b.readAt > a.readAt ? b : a,
      );
      for (let i = 0; i < entries.length; i += REFS_PER_REQUEST) {
        const batch = entries.slice(i, i + REFS_PER_REQUEST);
        try {
          const values = await loader.many(batch.map(entry => entry.ref));
          batch.forEach((entry, j) =>
            this.store(keyOf(entry.group, entry.ref), entry, values[j]),
          );
        } catch {
          break;
        }
      }
    }
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

const NOT_FOUND: StatusReadAnswer = { result: 'not-found' };
const DENIED: StatusReadAnswer = { result: 'denied' };

/** The same answer, about the same version of the entity. */
function sameAnswer(held: StatusReadAnswer, loaded: StatusReadAnswer) {
  return held.result === 'allowed' && loaded.result === 'allowed'
    ? sameVersion(held.entity, loaded.entity)
    : held.result === loaded.result;
}

/**
 * Status reads without a catalog or permission call per request, where that changes no
 * answer. Entity pages poll statuses, so per request the catalog read and the permission check
 * (four requests between plugins with a conditional decision) would cost far more than the
 * status itself, which comes from memory.
 *
 * - A caller's decisions for `catalog.entity.read` and `flink.standalone.status.read`, asked
 *   without a resource, are reused (see ReusedAnswers).
 * - Both definitive (ALLOW or DENY): a policy that sees no resource decides the same for every
 *   entity. Entities are then read with the plugin's own credentials and kept fresh while read
 *   (see KeptFreshWhileRead), shared by all such callers; the caller's own catalog read decision
 *   stands for the catalog's filtering.
 * - Either CONDITIONAL (e.g. `isEntityOwner`): the answer depends on the entity, so it is kept
 *   per caller and entity, loaded with the caller's own credentials as the per-request path
 *   would (the catalog filtering the entity, the permission backend applying the conditions to
 *   it), and kept fresh the same way: one catalog and one permission request per caller for up
 *   to 100 of the entities it reads.
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
  /** Entities as the plugin reads them, for callers with definitive decisions. */
  private readonly entities: KeptFreshWhileRead<Entity | undefined>;
  /** Answers per caller with a conditional decision. */
  private readonly answers: KeptFreshWhileRead<StatusReadAnswer>;
  private readonly ownEntities: Loader<Entity | undefined>;

  constructor(private readonly options: StatusReadAccessOptions) {
    const now = options.now ?? Date.now;
    const maxEntries = options.maxEntries ?? 10_000;
    const { ttlMs, catalog, auth } = options;
    this.decisions = new ReusedAnswers(ttlMs, maxEntries, now);
    this.entities = new KeptFreshWhileRead({
      ttlMs,
      maxEntries,
      now,
      same: sameVersion,
    });
    this.answers = new KeptFreshWhileRead({
      ttlMs,
      maxEntries,
      now,
      same: sameAnswer,
    });
    const credentials = () => auth.getOwnServiceCredentials();
    this.ownEntities = {
      one: async ref =>
        catalog.getEntityByRef(ref, { credentials: await credentials() }),
      many: async entityRefs =>
        (
          await catalog.getEntitiesByRefs(
            { entityRefs },
            { credentials: await credentials() },
          )
        ).items,
    };
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
    if (entityRead === AuthorizeResult.DENY) return NOT_FOUND;
    if (
      entityRead === AuthorizeResult.CONDITIONAL ||
      statusRead === AuthorizeResult.CONDITIONAL
    ) {
      return this.answers.get(
        caller,
        entityRef,
        this.answersFor(credentials, statusRead),
      );
    }
    const entity = await this.entities.get('', entityRef, this.ownEntities);
    if (!entity) return NOT_FOUND;
    return statusRead === AuthorizeResult.ALLOW
      ? { result: 'allowed', entity }
      : DENIED;
  }

  /**
   * A conditional caller's answers, as the per-request path gives them: the entities as the
   * catalog shows them to the caller (hidden: not-found), then, if the status read decision is
   * conditional, the permission backend's decision for each entity the caller sees.
   */
  private answersFor(
    credentials: BackstageCredentials,
    statusRead: AuthorizeResult,
  ): Loader<StatusReadAnswer> {
    const { catalog, permissions } = this.options;
    const many = async (entityRefs: string[]) => {
      const { items } = await catalog.getEntitiesByRefs(
        { entityRefs },
        { credentials },
      );
      const visible = entityRefs.filter((_, i) => items[i]);
      const decisions =
        statusRead === AuthorizeResult.CONDITIONAL && visible.length > 0
          ? await permissions.authorize(
              visible.map(resourceRef => ({
                permission: flinkStandaloneStatusReadPermission,
                resourceRef,
              })),
              { credentials },
            )
          : [];
      let next = 0;
      return items.map((entity): StatusReadAnswer => {
        if (!entity) return NOT_FOUND;
        const result =
          statusRead === AuthorizeResult.CONDITIONAL
            ? decisions[next++].result
            : statusRead;
        return result === AuthorizeResult.ALLOW
          ? { result: 'allowed', entity }
          : DENIED;
      });
    };
    return { one: async ref => (await many([ref]))[0], many };
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
