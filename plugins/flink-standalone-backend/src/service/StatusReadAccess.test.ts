import type { PermissionsService } from '@backstage/backend-plugin-api';
import { mockCredentials, mockServices } from '@backstage/backend-test-utils';
import type { Entity } from '@backstage/catalog-model';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
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
 * A permission service answering `decisions` (entity read, status read) and counting its
 * calls; the catalog holds `entity` and counts its reads. The policy side is a stand-in here:
 * the plugin tests run the same class against the real catalog and permission backends.
 */
function setup(ttlMs = 10_000) {
  let clock = 0;
  const decisions: { entity: PolicyDecision; status: PolicyDecision } = {
    entity: { result: AuthorizeResult.ALLOW },
    status: { result: AuthorizeResult.ALLOW },
  };
  const calls = { permission: 0, catalog: 0 };
  const permissions = {
    authorizeConditional: async () => {
      calls.permission++;
      return [decisions.entity, decisions.status];
    },
  } as unknown as PermissionsService;
  const catalog = catalogServiceMock({ entities: [entity] });
  const getEntityByRef = catalog.getEntityByRef.bind(catalog);
  catalog.getEntityByRef = (async (
    ...args: Parameters<typeof getEntityByRef>
  ) => {
    calls.catalog++;
    return getEntityByRef(...args);
  }) as typeof catalog.getEntityByRef;
  const access = new StatusReadAccess({
    catalog,
    permissions,
    auth: mockServices.auth(),
    ttlMs,
    maxEntries: 2,
    now: () => clock,
  });
  return {
    access,
    calls,
    decisions,
    advance: (ms: number) => {
      clock += ms;
    },
  };
}

const alice = mockCredentials.user('user:default/alice');

describe('StatusReadAccess', () => {
  it('reuses definitive decisions and entities within the TTL; up to twice the TTL serves them while asking again; past that, waits for new ones', async () => {
    const { access, calls, decisions, advance } = setup();
    await expect(access.read(REF, alice)).resolves.toEqual({
      result: 'allowed',
      entity,
    });
    await access.read(REF, alice);
    expect(calls).toEqual({ permission: 1, catalog: 1 });

    // Past the TTL: the reused answer now, the new decision (DENY) for the next read.
    decisions.status = { result: AuthorizeResult.DENY };
    advance(10_001);
    await expect(access.read(REF, alice)).resolves.toMatchObject({
      result: 'allowed',
    });
    expect(calls).toEqual({ permission: 2, catalog: 2 });
    await expect(access.read(REF, alice)).resolves.toEqual({
      result: 'denied',
    });
    expect(calls).toEqual({ permission: 2, catalog: 2 });

    // Past twice the TTL: nothing older is served.
    decisions.status = { result: AuthorizeResult.ALLOW };
    advance(20_001);
    await expect(access.read(REF, alice)).resolves.toMatchObject({
      result: 'allowed',
    });
    expect(calls).toEqual({ permission: 3, catalog: 3 });
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
    const off = setup(0);
    await expect(off.access.read(REF, alice)).resolves.toBeUndefined();
    expect(off.calls).toEqual({ permission: 0, catalog: 0 });
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
