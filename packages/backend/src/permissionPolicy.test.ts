import type { Entity } from '@backstage/catalog-model';
import { permissionRules } from '@backstage/plugin-catalog-backend/alpha';
import {
  AuthorizeResult,
  ConditionalPolicyDecision,
  Permission,
  PolicyDecision,
  createPermission,
} from '@backstage/plugin-permission-common';
import type { PolicyQueryUser } from '@backstage/plugin-permission-node';
import {
  flinkStandaloneApplyPermission,
  flinkStandaloneDeletePermission,
  flinkStandalonePodForceDeletePermission,
  flinkStandaloneScalePermission,
  flinkStandaloneRolloutUnblockPermission,
  flinkStandaloneStatusReadPermission,
} from '@flink-standalone/plugin-flink-standalone-common';
import { FlinkStandaloneExamplePolicy } from './permissionPolicy';

const policy = new FlinkStandaloneExamplePolicy();

/** A signed-in user as the permission backend passes it: identity and ownership claims. */
function user(userEntityRef: string, groups: string[] = []): PolicyQueryUser {
  return {
    info: {
      userEntityRef,
      ownershipEntityRefs: [userEntityRef, ...groups],
    },
  } as PolicyQueryUser;
}

const STREAMING_DEVELOPER = user('user:default/stream-developer', [
  'group:default/streaming-team',
]);
const PLATFORM_ADMIN = user('user:default/platform-admin', [
  'group:default/platform-team',
]);
const VIEWER = user('user:default/viewer');
const OUTSIDER = user('user:default/outsider', ['group:default/other-team']);

/** A component as the catalog serves it: spec.owner resolved into an ownedBy relation. */
function componentOwnedBy(owner: string): Entity {
  return {
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'Component',
    metadata: { name: 'orders-analytics', namespace: 'default' },
    spec: { type: 'service', lifecycle: 'production', owner },
    relations: [{ type: 'ownedBy', targetRef: owner }],
  };
}

const decide = (permission: Permission, who?: PolicyQueryUser) =>
  policy.handle({ permission }, who);

/**
 * What the catalog makes of a conditional decision for one entity: its own rule (the one the
 * catalog evaluates when the permission backend asks it), applied to the entity.
 */
function allowsOn(decision: PolicyDecision, entity: Entity): boolean {
  if (decision.result !== AuthorizeResult.CONDITIONAL) {
    return decision.result === AuthorizeResult.ALLOW;
  }
  const { conditions, pluginId, resourceType } =
    decision as ConditionalPolicyDecision;
  expect({ pluginId, resourceType }).toEqual({
    pluginId: 'catalog',
    resourceType: 'catalog-entity',
  });
  const condition = conditions as { rule: string; params: any };
  expect(condition.rule).toBe(permissionRules.isEntityOwner.name);
  return permissionRules.isEntityOwner.apply(entity, condition.params);
}

describe('FlinkStandaloneExamplePolicy', () => {
  const streamingOwned = componentOwnedBy('group:default/streaming-team');

  it('lets everyone read a status, the signed-out included', async () => {
    for (const who of [STREAMING_DEVELOPER, VIEWER, OUTSIDER, undefined]) {
      expect(
        (await decide(flinkStandaloneStatusReadPermission, who)).result,
      ).toBe(AuthorizeResult.ALLOW);
    }
  });

  it('lets every signed-in user but the read-only ones apply', async () => {
    expect(
      (await decide(flinkStandaloneApplyPermission, OUTSIDER)).result,
    ).toBe(AuthorizeResult.ALLOW);
    expect((await decide(flinkStandaloneApplyPermission, VIEWER)).result).toBe(
      AuthorizeResult.DENY,
    );
    expect((await decide(flinkStandaloneApplyPermission)).result).toBe(
      AuthorizeResult.DENY,
    );
  });

  it.each([
    ['scale', flinkStandaloneScalePermission],
    ['delete', flinkStandaloneDeletePermission],
    ['unblock a rollout of', flinkStandaloneRolloutUnblockPermission],
  ])(
    'lets owners %s their own entities only (isEntityOwner), the platform team every entity, read-only users none',
    async (_name, permission) => {
      const developer = await decide(permission, STREAMING_DEVELOPER);
      expect(developer.result).toBe(AuthorizeResult.CONDITIONAL);
      expect(allowsOn(developer, streamingOwned)).toBe(true);
      expect(
        allowsOn(developer, componentOwnedBy('group:default/platform-team')),
      ).toBe(false);
      const outsider = await decide(permission, OUTSIDER);
      expect(allowsOn(outsider, streamingOwned)).toBe(false);
      expect(
        allowsOn(outsider, componentOwnedBy('group:default/other-team')),
      ).toBe(true);
      // Owning it directly counts too.
      expect(
        allowsOn(outsider, componentOwnedBy('user:default/outsider')),
      ).toBe(true);
      expect((await decide(permission, PLATFORM_ADMIN)).result).toBe(
        AuthorizeResult.ALLOW,
      );
      expect((await decide(permission, VIEWER)).result).toBe(
        AuthorizeResult.DENY,
      );
      expect((await decide(permission)).result).toBe(AuthorizeResult.DENY);
    },
  );

  it('lets only the platform team force-delete a pod stuck on a lost node, owners included out', async () => {
    expect(
      (await decide(flinkStandalonePodForceDeletePermission, PLATFORM_ADMIN))
        .result,
    ).toBe(AuthorizeResult.ALLOW);
    for (const who of [STREAMING_DEVELOPER, OUTSIDER, VIEWER, undefined]) {
      expect(
        (await decide(flinkStandalonePodForceDeletePermission, who)).result,
      ).toBe(AuthorizeResult.DENY);
    }
  });

  it('allows what is not Flink Standalone (a demo app)', async () => {
    // The catalog's read permission, as the catalog defines it.
    const catalogEntityReadPermission = createPermission({
      name: 'catalog.entity.read',
      attributes: { action: 'read' },
      resourceType: 'catalog-entity',
    });
    expect((await decide(catalogEntityReadPermission, VIEWER)).result).toBe(
      AuthorizeResult.ALLOW,
    );
  });
});
