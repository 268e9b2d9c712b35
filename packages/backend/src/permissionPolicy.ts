import {
  AuthorizeResult,
  PolicyDecision,
  isPermission,
} from '@backstage/plugin-permission-common';
import type {
  PermissionPolicy,
  PolicyQuery,
  PolicyQueryUser,
} from '@backstage/plugin-permission-node';
import {
  catalogConditions,
  createCatalogConditionalDecision,
} from '@backstage/plugin-catalog-backend/alpha';
import {
  flinkStandaloneApplyPermission,
  flinkStandaloneDeletePermission,
  flinkStandalonePodForceDeletePermission,
  flinkStandaloneRolloutUnblockPermission,
  flinkStandaloneScalePermission,
  flinkStandaloneStatusReadPermission,
} from '@flink-standalone/plugin-flink-standalone-common';

/** Users who may look but not touch: they read status and get 403 on everything else. */
export const READ_ONLY_USERS = ['user:default/viewer'];
/** Members may operate every Flink cluster, whoever owns it. */
export const PLATFORM_GROUP = 'group:default/platform-team';

const OPERATIONS = [
  flinkStandaloneScalePermission,
  flinkStandaloneDeletePermission,
  flinkStandaloneRolloutUnblockPermission,
];

/**
 * The example app's policy, exercising Flink Standalone's permissions:
 * - everyone signed in may read a cluster's status;
 * - apply (the scaffolder's, for a component that is not in the catalog yet): every user but
 *   the read-only ones; a conditional decision could not be evaluated on a missing entity;
 * - scale, delete and unblocking a rollout: the platform team on every entity, other users on entities their groups
 *   (or they) own, read-only users never;
 * - force-deleting a pod stuck on a lost node: the platform team only (only they can know that
 *   the node is really gone, and a wrong guess runs two TaskManagers on one claim);
 * - everything else is allowed (a demo app).
 */
export class FlinkStandaloneExamplePolicy implements PermissionPolicy {
  async handle(
    request: PolicyQuery,
    user?: PolicyQueryUser,
  ): Promise<PolicyDecision> {
    if (isPermission(request.permission, flinkStandaloneStatusReadPermission)) {
      return { result: AuthorizeResult.ALLOW };
    }
    const userRef = user?.info.userEntityRef;
    const readOnly = !userRef || READ_ONLY_USERS.includes(userRef);
    if (isPermission(request.permission, flinkStandaloneApplyPermission)) {
      return {
        result: readOnly ? AuthorizeResult.DENY : AuthorizeResult.ALLOW,
      };
    }
    const ownership = user?.info.ownershipEntityRefs ?? [];
    if (
      isPermission(request.permission, flinkStandalonePodForceDeletePermission)
    ) {
      return {
        result:
          !readOnly && ownership.includes(PLATFORM_GROUP)
            ? AuthorizeResult.ALLOW
            : AuthorizeResult.DENY,
      };
    }
    const operation = OPERATIONS.find(p => isPermission(request.permission, p));
    if (!operation) return { result: AuthorizeResult.ALLOW };
    if (readOnly) return { result: AuthorizeResult.DENY };
    if (ownership.includes(PLATFORM_GROUP))
      return { result: AuthorizeResult.ALLOW };
    return createCatalogConditionalDecision(
      operation as typeof flinkStandaloneScalePermission,
      catalogConditions.isEntityOwner({ claims: ownership }),
    );
  }
}
