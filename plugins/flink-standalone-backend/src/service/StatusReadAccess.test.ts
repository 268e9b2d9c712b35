import type {
  BackstageCredentials,
  PermissionsService,
} from '@backstage/backend-plugin-api';
import { mockCredentials, mockServices } from '@backstage/backend-test-utils';
import type { Entity } from '@backstage/catalog-model';
import type { CatalogService } from '@backstage/plugin-catalog-node';
import {
  AuthorizeResult,
  PolicyDecision,
} from '@backstage/plugin-permission-common';
import { StatusReadAccess } from './StatusReadAccess';

const entity: Entity = {
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: { name: 'orders', namespace: 'default' },
  spec: {},
};
const REF = 'component:default/orders';

/**
 * A permission service answering `decisions` (entity read, status read, without a resource) and,
 * for a status read of one entity, ALLOW to the entity's owner (`spec.owner`), as `isEntityOwner`
 * would; a catalog holding `entities`, showing a user those in `hiddenFrom[user]` as missing.
 * Both count their calls, and whose credentials each batch came with; the catalog fails while
 * `catalogDown` is set. Both are stand-ins here: the plugin tests run the same class against the
 * real catalog and permission backends.
 */
function setup({ ttlMs = 10_000, maxEntries = 2 } = {}) {
  let clock = 0;
  const decisions: { entity: PolicyDecision; status: PolicyDecision } = {
    entity: { result: AuthorizeResult.ALLOW },
    status: { result: AuthorizeResult.ALLOW },
  };
  const entities = new Map([[REF, entity]]);
  const hiddenFrom: Record<string, string[]> = {};
  /**
   * Decisions without a resource, single entity reads; the size of each batched read and each
   * batch of decisions per entity, and who asked for each batched read.
   */
  const calls = {
    permission: 0,
    catalog: 0,
    batches: [] as number[],
    batchedFor: [] as string[],
    authorized: [] as number[],
  };
  /** The user a call is made for, or the kind of principal (the plugin's own: `service`). */
  const who = ({ principal }: BackstageCredentials) => {
    const { type, userEntityRef } = principal as {
      type: string;
      userEntityRef?: string;
    };
    return userEntityRef ?? type;
  };
  const state = { catalogDown: false };
  const catalogUp = () => {
    if (state.catalogDown) throw new Error('catalog unavailable');
  };
  const permissions = {
    authorizeConditional: async () => {
      calls.permission++;
      return [decisions.entity, decisions.status];
    },
    authorize: async (
      requests: { resourceRef: string }[],
      { credentials }: { credentials: BackstageCredentials },
    ) => {
      calls.authorized.push(requests.length);
      return requests.map(({ resourceRef }) => ({
        result:
          entities.get(resourceRef)?.spec?.owner === who(credentials)
            ? AuthorizeResult.ALLOW
            : AuthorizeResult.DENY,
      }));
    },
  } as unknown as PermissionsService;
  const catalog = {
    getEntityByRef: async (ref: string) => {
      calls.catalog++;
      catalogUp();
      return entities.get(ref);
    },
    getEntitiesByRefs: async (
      { entityRefs }: { entityRefs: string[] },
      { credentials }: { credentials: BackstageCredentials },
    ) => {
      calls.batches.push(entityRefs.length);
      calls.batchedFor.push(who(credentials));
      catalogUp();
      const hidden = hiddenFrom[who(credentials)] ?? [];
      return {
        items: entityRefs.map(ref =>
          hidden.includes(ref) ? undefined : entities.get(ref),
        ),
      };
    },
  } as unknown as CatalogService;
  const access = new StatusReadAccess({
    catalog,
    permissions,
    auth: mockServices.auth(),
    ttlMs,
    maxEntries,
    now: () => clock,
  });
  return {
    access,
    calls,
    decisions,
    entities,
    hiddenFrom,
    state,
    advance: (ms: number) => {
      clock += ms;
    },
  };
}

/**
 * The calls of callers with definitive decisions: decisions, single entity reads, and batches,
 * all with the plugin's own credentials; no decision per entity.
 */
const ownCalls = (permission: number, catalog: number, batches: number[]) => ({
  permission,
  catalog,
  batches,
  batchedFor: batches.map(() => 'service'),
  authorized: [],
});

/** Lets background refreshes against the in-memory stand-ins finish. */
const settle = () => new Promise(resolve => setImmediate(resolve));

const named = (name: string): Entity => ({
  ...entity,
  metadata: { name, namespace: 'default' },
});

const alice = mockCredentials.user('user:default/alice');

/** Puts `count` entities (c0, c1, …) in the catalog and reads each once as alice; their refs. */
async function readNewEntities(
  { access, entities }: ReturnType<typeof setup>,
  count: number,
): Promise<string[]> {
  const refs = Array.from({ length: count }, (_, i) => {
    const ref = `component:default/c${i}`;
    entities.set(ref, named(`c${i}`));
    return ref;
  });
  for (const ref of refs) await access.read(ref, alice);
  return refs;
}

/** An entity whose `spec.owner` is `owner`, in the catalog's versioning. */
const owned = (name: string, owner: string): Entity => ({
  ...named(name),
  metadata: { ...named(name).metadata, uid: `uid-${name}`, etag: owner },
  spec: { owner },
});
const OTHERS = 'component:default/others';
const HIDDEN = 'component:default/hidden';

/**
 * As `setup`, with alice owning REF, bob owning OTHERS and HIDDEN, and the status read decision
 * conditional (`isEntityOwner`, which the stand-in applies to `spec.owner`).
 */
function conditionalSetup(options?: Parameters<typeof setup>[0]) {
  const context = setup(options);
  const conditional: PolicyDecision = {
    result: AuthorizeResult.CONDITIONAL,
    pluginId: 'catalog',
    resourceType: 'catalog-entity',
    conditions: {
      rule: 'IS_ENTITY_OWNER',
      resourceType: 'catalog-entity',
      params: { claims: ['user:default/alice'] },
    },
  };
  context.decisions.status = conditional;
  context.entities.set(REF, owned('orders', 'user:default/alice'));
  context.entities.set(OTHERS, owned('others', 'user:default/bob'));
  context.entities.set(HIDDEN, owned('hidden', 'user:default/bob'));
  return {
    ...context,
    decisions: Object.assign(context.decisions, { conditional }),
  };
}

describe('StatusReadAccess', () => {
  it('reuses definitive decisions and entities within the TTL; up to twice the TTL serves them while asking again; past that, waits for new ones', async () => {
    const { access, calls, decisions, advance } = setup();
    await expect(access.read(REF, alice)).resolves.toEqual({
      result: 'allowed',
      entity,
    });
    await access.read(REF, alice);
    expect(calls).toEqual(ownCalls(1, 1, []));

    // Past the TTL: the reused answers now, the new decision (DENY) for the next read; the
    // entity refreshed in a batch.
    decisions.status = { result: AuthorizeResult.DENY };
    advance(10_001);
    await expect(access.read(REF, alice)).resolves.toMatchObject({
      result: 'allowed',
    });
    await settle();
    expect(calls).toEqual(ownCalls(2, 1, [1]));
    await expect(access.read(REF, alice)).resolves.toEqual({
      result: 'denied',
    });
    expect(calls).toEqual(ownCalls(2, 1, [1]));

    // Past twice the TTL: nothing older is served.
    decisions.status = { result: AuthorizeResult.ALLOW };
    advance(20_001);
    await expect(access.read(REF, alice)).resolves.toMatchObject({
      result: 'allowed',
    });
    await settle();
    expect(calls).toEqual(ownCalls(3, 2, [1]));
  });

  it('keeps the entities being read fresh, in the background and 100 to a catalog request: a polled read never waits for the catalog', async () => {
    const context = setup({ maxEntries: 1000 });
    const { access, calls, entities, advance } = context;
    const refs = await readNewEntities(context, 250);
    expect(calls.catalog).toBe(250);

    entities.set(refs[0], {
      ...named('c0'),
      metadata: { ...named('c0').metadata, annotations: { edited: 'yes' } },
    });
    advance(10_000);
    await access.read(refs[1], alice);
    await settle();
    expect(calls.batches).toEqual([100, 100, 50]);
    await expect(access.read(refs[0], alice)).resolves.toMatchObject({
      entity: { metadata: { annotations: { edited: 'yes' } } },
    });

    // Loaded together, they came due together. Each round (a second apart) also refreshes the
    // oldest of them early, up to a tenth (an even rate: all once per TTL), so they spread over
    // the next TTL and stay spread: no burst of requests every TTL, and no read waits.
    const perRound: number[] = [];
    for (let round = 1; round <= 30; round++) {
      const before = calls.batches.length;
      advance(1_000);
      await access.read(refs[round], alice);
      await settle();
      perRound.push(...calls.batches.slice(before));
    }
    expect(perRound).toEqual(Array(30).fill(25));
    expect(calls.catalog).toBe(250);
  });

  it('refreshes at an even rate in full requests, however far apart the reads start rounds: none for a few refs, no read waits', async () => {
    const context = setup({ maxEntries: 1000 });
    const { access, calls, advance } = context;
    const refs = await readNewEntities(context, 1000);
    advance(10_000);
    await access.read(refs[0], alice);
    await settle();
    expect(calls.batches).toEqual(Array(10).fill(100));

    // Reads start rounds a little more than a second apart, as polling pages do.
    let elapsed = 0;
    for (let round = 1; round <= 40; round++) {
      const sinceLast = 1_000 + (round % 3) * 10;
      elapsed += sinceLast;
      advance(sinceLast);
      await access.read(refs[round], alice);
      await settle();
    }
    const later = calls.batches.slice(10);
    expect(new Set(later)).toEqual(new Set([100]));
    // All 1,000 once per TTL: 100 refs a second, a request each.
    expect(later.length).toBeGreaterThanOrEqual(Math.floor(elapsed / 1_000));
    expect(later.length).toBeLessThanOrEqual(Math.ceil(elapsed / 1_000) + 1);
    expect(calls.catalog).toBe(1000);
  });

  it('refreshes a value early only once it is a round old: a value just loaded is not asked again', async () => {
    const { access, calls, advance } = setup();
    await access.read(REF, alice);
    await settle();
    // Read again after a pause past twice the TTL: loaded first, and not refreshed right after.
    advance(30_000);
    await access.read(REF, alice);
    await settle();
    expect(calls).toMatchObject({ catalog: 2, batches: [] });
  });

  it("loads first reads that arrive together with shared requests, 100 refs to a request: entities, and a conditional caller's answers", async () => {
    const { access, calls, entities } = setup({ maxEntries: 1000 });
    const refs = Array.from({ length: 150 }, (_, i) => {
      const ref = `component:default/c${i}`;
      entities.set(ref, named(`c${i}`));
      return ref;
    });
    const answers = await Promise.all(refs.map(ref => access.read(ref, alice)));
    expect(answers).toEqual(
      refs.map(ref => ({ result: 'allowed', entity: entities.get(ref) })),
    );
    expect(calls).toEqual(ownCalls(1, 0, [100, 50]));

    const owner = conditionalSetup({ maxEntries: 10 });
    owner.hiddenFrom['user:default/alice'] = [HIDDEN];
    await expect(
      Promise.all(
        [REF, OTHERS, HIDDEN].map(ref => owner.access.read(ref, alice)),
      ),
    ).resolves.toEqual([
      { result: 'allowed', entity: owner.entities.get(REF) },
      { result: 'denied' },
      { result: 'not-found' },
    ]);
    expect(owner.calls).toEqual({
      permission: 1,
      catalog: 0,
      batches: [3],
      batchedFor: ['user:default/alice'],
      authorized: [2],
    });
  });

  it('keeps the entity object it holds while the catalog answers the same etag, and takes the new one when it changes', async () => {
    const { access, entities, advance } = setup();
    const versioned = (etag: string, owner: string): Entity => ({
      ...entity,
      metadata: { ...entity.metadata, uid: 'uid-orders', etag },
      spec: { owner },
    });
    // The catalog answers a new copy every time, as the real one does.
    const held = entities.get.bind(entities);
    entities.get = ref => structuredClone(held(ref));
    entities.set(REF, versioned('e1', 'team-a'));
    const first = await access.read(REF, alice);

    advance(10_000);
    await access.read(REF, alice);
    await settle();
    const refreshed = await access.read(REF, alice);
    expect(refreshed).toMatchObject({ result: 'allowed' });
    expect(refreshed && 'entity' in refreshed && refreshed.entity).toBe(
      first && 'entity' in first && first.entity,
    );

    entities.set(REF, versioned('e2', 'team-b'));
    advance(10_000);
    await access.read(REF, alice);
    await settle();
    await expect(access.read(REF, alice)).resolves.toMatchObject({
      entity: { metadata: { etag: 'e2' }, spec: { owner: 'team-b' } },
    });
  });

  it('stops refreshing an entity not read for a minute; read again past twice the TTL, it is loaded first', async () => {
    const { access, calls, entities, advance } = setup();
    const other = 'component:default/other';
    entities.set(other, named('other'));
    await access.read(REF, alice);
    await access.read(other, alice);
    for (let second = 10; second <= 70; second += 10) {
      advance(10_000);
      await access.read(REF, alice);
      await settle();
    }
    // Both while `other` was read within the minute, then `orders` alone.
    expect(calls.batches).toEqual([2, 2, 2, 2, 2, 2, 1]);
    expect(calls.catalog).toBe(2);

    advance(11_000);
    await expect(access.read(other, alice)).resolves.toMatchObject({
      entity: { metadata: { name: 'other' } },
    });
    expect(calls.catalog).toBe(3);
  });

  it("serves an entity while a refresh fails; past twice the TTL, the read reports the catalog's error", async () => {
    const { access, calls, state, advance } = setup();
    await access.read(REF, alice);
    state.catalogDown = true;
    advance(10_000);
    await expect(access.read(REF, alice)).resolves.toMatchObject({
      result: 'allowed',
    });
    await settle();
    expect(calls.batches).toEqual([1]);
    advance(10_001);
    await expect(access.read(REF, alice)).rejects.toThrow(
      'catalog unavailable',
    );
  });

  it('answers not-found for a caller denied entity reads, and for an entity not in the catalog', async () => {
    const { access, decisions, calls } = setup();
    await expect(
      access.read('component:default/missing', alice),
    ).resolves.toEqual({ result: 'not-found' });
    decisions.entity = { result: AuthorizeResult.DENY };
    const bob = mockCredentials.user('user:default/bob');
    await expect(access.read(REF, bob)).resolves.toEqual({
      result: 'not-found',
    });
    // Denied before the catalog is asked.
    expect(calls.catalog).toBe(1);
  });

  it('answers denied for a caller who may read the entity but not its status', async () => {
    const { access, decisions } = setup();
    decisions.status = { result: AuthorizeResult.DENY };
    await expect(access.read(REF, alice)).resolves.toEqual({
      result: 'denied',
    });
  });

  it('leaves unauthenticated callers and a TTL of 0 to the per-request path', async () => {
    const { access, calls } = setup();
    await expect(
      access.read(REF, mockCredentials.none()),
    ).resolves.toBeUndefined();
    expect(calls.permission).toBe(0);
    const off = setup({ ttlMs: 0 });
    await expect(off.access.read(REF, alice)).resolves.toBeUndefined();
    expect(off.calls).toEqual(ownCalls(0, 0, []));
  });

  it("keeps a conditional caller's answer per entity, loaded with the caller's credentials: not-found where the catalog hides the entity, denied where the conditions deny, the entity where they allow", async () => {
    const { access, calls, decisions, entities, hiddenFrom } = conditionalSetup(
      { maxEntries: 10 },
    );
    hiddenFrom['user:default/alice'] = [HIDDEN];
    const answers = async () => ({
      owned: await access.read(REF, alice),
      others: await access.read(OTHERS, alice),
      hidden: await access.read(HIDDEN, alice),
      missing: await access.read('component:default/missing', alice),
    });
    const expected = {
      owned: { result: 'allowed', entity: entities.get(REF) },
      others: { result: 'denied' },
      hidden: { result: 'not-found' },
      missing: { result: 'not-found' },
    };
    await expect(answers()).resolves.toEqual(expected);
    expect(calls).toEqual({
      permission: 1,
      catalog: 0,
      batches: [1, 1, 1, 1],
      batchedFor: Array(4).fill('user:default/alice'),
      // Decisions per entity only for the entities the caller sees.
      authorized: [1, 1],
    });
    // Read again within the TTL: nobody is asked.
    await expect(answers()).resolves.toEqual(expected);
    expect(calls).toMatchObject({ permission: 1, batches: [1, 1, 1, 1] });

    // With the entity read decision conditional too, the catalog's filtering is the caller's.
    const bob = mockCredentials.user('user:default/bob');
    decisions.status = { result: AuthorizeResult.ALLOW };
    decisions.entity = decisions.conditional;
    hiddenFrom['user:default/bob'] = [REF];
    await expect(access.read(REF, bob)).resolves.toEqual({
      result: 'not-found',
    });
    await expect(access.read(OTHERS, bob)).resolves.toMatchObject({
      result: 'allowed',
    });
    expect(calls.batchedFor.slice(4)).toEqual(
      Array(2).fill('user:default/bob'),
    );
    // A status read decision that is not conditional asks no decision per entity.
    expect(calls.authorized).toEqual([1, 1]);
  });

  it("refreshes a conditional caller's answers in the background, one catalog and one permission request for up to 100 of its entities; a new owner shows after the TTL", async () => {
    const { access, calls, entities, advance } = conditionalSetup({
      maxEntries: 1000,
    });
    const refs = Array.from({ length: 150 }, (_, i) => {
      const ref = `component:default/c${i}`;
      entities.set(ref, owned(`c${i}`, 'user:default/alice'));
      return ref;
    });
    for (const ref of refs) await access.read(ref, alice);
    const first = await access.read(refs[0], alice);
    expect(calls.batches).toHaveLength(150);

    entities.set(refs[1], owned('c1', 'user:default/bob'));
    advance(10_000);
    // Served from what is held while the refresh runs.
    await expect(access.read(refs[1], alice)).resolves.toMatchObject({
      result: 'allowed',
    });
    await settle();
    expect(calls.batches.slice(150)).toEqual([100, 50]);
    expect(calls.authorized.slice(150)).toEqual([100, 50]);
    await expect(access.read(refs[1], alice)).resolves.toEqual({
      result: 'denied',
    });
    // An unchanged answer is the object already held.
    expect(await access.read(refs[0], alice)).toBe(first);

    // A second later, the oldest tenth is refreshed early (see above): spread over the TTL.
    advance(1_000);
    await access.read(refs[2], alice);
    await settle();
    expect(calls.batches.slice(152)).toEqual([15]);
    expect(calls.authorized.slice(152)).toEqual([15]);
  });

  it('keeps each caller apart, a plugin acting for a user apart from the user, and at most maxEntries callers', async () => {
    const { access, calls } = setup();
    const carol = mockCredentials.user('user:default/carol');
    const forAlice = mockCredentials.user('user:default/alice', {
      actor: { subject: 'plugin:scaffolder' },
    });
    await access.read(REF, alice);
    await access.read(REF, forAlice);
    expect(calls.permission).toBe(2);
    await access.read(REF, carol);
    // Three callers, two kept: alice, the oldest, was dropped.
    await access.read(REF, alice);
    expect(calls.permission).toBe(4);
  });
});
