import type { ServiceAccount } from 'kubernetes-types/core/v1';
import type { Role, RoleBinding } from 'kubernetes-types/rbac/v1';
import type { ClusterSpec } from '../spec';
import { clusterLabels } from './labels';
import { clusterObjectNames } from './names';
import { podServiceAccount } from './serviceAccount';

/**
 * The RBAC objects of a cluster: its ServiceAccount, and the Role and RoleBinding HA needs.
 *
 * @public
 */
export type RbacObject = ServiceAccount | Role | RoleBinding;

/**
 * Kubernetes HA needs the pods to elect a leader and keep HA metadata in ConfigMaps: exactly
 * that, in the cluster's namespace. Flink's leader election locks on ConfigMaps, not Leases, so
 * no lease rule. Names are generated per job, so the rule cannot be narrowed by resourceNames.
 */
export function renderRbac(spec: ClusterSpec): RbacObject[] {
  if (!spec.highAvailability) return [];
  const names = clusterObjectNames(spec.name);
  const metadata = {
    name: names.rbac,
    namespace: spec.namespace,
    labels: clusterLabels(spec),
  };
  const verbs = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'];
  const account = podServiceAccount(spec)!;
  const objects: RbacObject[] = [];
  if (!spec.podTemplate.serviceAccountName) {
    objects.push({ apiVersion: 'v1', kind: 'ServiceAccount', metadata });
  }
  objects.push(
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata,
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs }],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata,
      roleRef: {
        apiGroup: 'rbac.authorization.k8s.io',
        kind: 'Role',
        name: names.rbac,
      },
      subjects: [
        { kind: 'ServiceAccount', name: account, namespace: spec.namespace },
      ],
    },
  );
  return objects;
}
