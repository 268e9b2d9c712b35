import type { PermissionsService } from '@backstage/backend-plugin-api';
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
 * A permission service answering `decisions` (entity read, status read) and a catalog holding
 * `entities`, both counting their calls; the catalog fails while `catalogDown` is set. Both are
 * stand-ins here: the plugin tests run the same class against the real catalog and permission
 * backends.
 */
function setup({ ttlMs = 10_000, maxEntries = 2 } = {}) {
  let clock = 0;
  const decisions: { entity: PolicyDecision; status: PolicyDecision } = {
    entity: { result: AuthorizeResult.ALLOW },
    status: { result: AuthorizeResult.ALLOW },
  };
  const entities = new Map([[REF, entity]]);
  /** Single entity reads; and the size of each batched read. */
  const calls = { permission: 0, catalog: 0, batches: [] as number[] };
  const state = { catalogDown: false };
  const catalogUp = () => {
    if (state.catalogDown) throw new Error('catalog unavailable');
  };
  const permissions = {
    authorizeConditional: async () => {
      calls.permission++;
      return [decisions.entity, decisions.status];
    },
  } as unknown as PermissionsService;
  const catalog = {
    getEntityByRef: async (ref: string) => {
      calls.catalog++;
      catalogUp();
      return entities.get(ref);
    },
    getEntitiesByRefs: async ({ entityRefs }: { entityRefs: string[] }) => {
      calls.batches.push(entityRefs.length);
      catalogUp();
      return { items: entityRefs.map(ref => entities.get(ref)) };
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
    state,
    advance: (ms: number) => {
      clock += ms;
    },
  };
}

/** Lets background refreshes against the in-memory stand-ins finish. */
const settle = () => new Promise(resolve => setImmediate(resolve));

const named = (name: string): Entity => ({
  ...entity,
  metadata: { name, namespace: 'default' },
});

const alice = mockCredentials.user('user:default/alice');

describe('StatusReadAccess', () => {
  it('reuses definitive decisions and entities within the TTL; up to twice the TTL serves them while asking again; past that, waits for new ones', async () => {
    const { access, calls, decisions, advance } = setup();
    await expect(access.read(REF, alice)).resolves.toEqual({
      result: 'allowed',
      entity,
    });
    await access.read(REF, alice);
    expect(calls).toEqual({ permission: 1, catalog: 1, batches: [] });

    // Past the TTL: the reused answers now, the new decision (DENY) for the next read; the
    // entity refreshed in a batch.
    decisions.status = { result: AuthorizeResult.DENY };
    advance(10_001);
    await expect(access.read(REF, alice)).resolves.toMatchObject({
      result: 'allowed',
    });
    await settle();
    expect(calls).toEqual({ permission: 2, catalog: 1, batches: [1] });
    await expect(access.read(REF, alice)).resolves.toEqual({
      result: 'denied',
    });
    expect(calls).toEqual({ permission: 2, catalog: 1, batches: [1] });

    // Past twice the TTL: nothing older is served.
    decisions.status = { result: AuthorizeResult.ALLOW };
    advance(20_001);
    await expect(access.read(REF, alice)).resolves.toMatchObject({
      result: 'allowed',
    });
    await settle();
    expect(calls).toEqual({ permission: 3, catalog: 2, batches: [1] });
  });

  it('keeps the entities being read fresh, in the background and 100 to a catalog request: a polled read never waits for the catalog', async () => {
    const { access, calls, entities, advance } = setup({ maxEntries: 1000 });
    const refs = Array.from({ length: 250 }, (_, i) => {
      const ref = `component:default/c${i}`;
      entities.set(ref, named(`c${i}`));
      return ref;
    });
    for (const ref of refs) await access.read(ref, alice);
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

    // Refreshed a second ago: nothing is due yet.
    advance(1_000);
    await access.read(refs[2], alice);
    await settle();
    expect(calls).toMatchObject({ catalog: 250, batches: [100, 100, 50] });
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

  it('leaves conditional decisions, unauthenticated callers and a TTL of 0 to the per-request path', async () => {
    const { access, decisions } = setup();
    decisions.status = {
      result: AuthorizeResult.CONDITIONAL,
      pluginId: 'catalog',
      resourceType: 'catalog-entity',
      conditions: {
        rule: 'IS_ENTITY_OWNER',
        resourceType: 'catalog-entity',
        params: { claims: ['user:default/alice'] },
      },
    };
    await expect(access.read(REF, alice)).resolves.toBeUndefined();
    await expect(
      access.read(REF, mockCredentials.none()),
    ).resolves.toBeUndefined();
    const off = setup({ ttlMs: 0 });
    await expect(off.access.read(REF, alice)).resolves.toBeUndefined();
    expect(off.calls).toEqual({ permission: 0, catalog: 0, batches: [] });
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
