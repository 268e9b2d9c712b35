import { createPermission } from '@backstage/plugin-permission-common';
import { RESOURCE_TYPE_CATALOG_ENTITY } from '@backstage/plugin-catalog-common/alpha';

/**
 * Resource permissions on catalog entities: a policy can allow them per entity (owner, kind,
 * annotations…) with the catalog's permission rules.
 *
 * @public
 */
export const flinkStandaloneStatusReadPermission = createPermission({
  name: 'flink.standalone.status.read',
  attributes: { action: 'read' },
  resourceType: RESOURCE_TYPE_CATALOG_ENTITY,
});

/**
 * Creating or updating a cluster (the scaffolder's apply action).
 *
 * @public
 */
export const flinkStandaloneApplyPermission = createPermission({
  name: 'flink.standalone.apply',
  attributes: { action: 'update' },
  resourceType: RESOURCE_TYPE_CATALOG_ENTITY,
});

/** @public */
export const flinkStandaloneScalePermission = createPermission({
  name: 'flink.standalone.scale',
  attributes: { action: 'update' },
  resourceType: RESOURCE_TYPE_CATALOG_ENTITY,
});

/** @public */
export const flinkStandaloneDeletePermission = createPermission({
  name: 'flink.standalone.delete',
  attributes: { action: 'delete' },
  resourceType: RESOURCE_TYPE_CATALOG_ENTITY,
});

/**
 * Deleting the one pod the observer names as blocking a StatefulSet rollout (the remedy for
 * kubernetes/kubernetes#67250); the pod comes back at the wanted revision on the same claim.
 *
 * @public
 */
export const flinkStandaloneRolloutUnblockPermission = createPermission({
  name: 'flink.standalone.rollout.unblock',
  attributes: { action: 'delete' },
  resourceType: RESOURCE_TYPE_CATALOG_ENTITY,
});

/**
 * Force-deleting a pod stuck Terminating on a NotReady node, so that its StatefulSet creates
 * the ordinal again. Safe only when the node is really gone (its containers may otherwise still
 * run and write the same claim): a policy grants it to the people who can know, e.g. the
 * platform team, not to every owner.
 *
 * @public
 */
export const flinkStandalonePodForceDeletePermission = createPermission({
  name: 'flink.standalone.pod.forceDelete',
  attributes: { action: 'delete' },
  resourceType: RESOURCE_TYPE_CATALOG_ENTITY,
});

/** @public */
export const flinkStandalonePermissions = [
  flinkStandaloneStatusReadPermission,
  flinkStandaloneApplyPermission,
  flinkStandaloneScalePermission,
  flinkStandaloneDeletePermission,
  flinkStandaloneRolloutUnblockPermission,
  flinkStandalonePodForceDeletePermission,
];
