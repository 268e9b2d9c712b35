/** Where each kind this library reads or writes lives in the API. */
export interface ResourceType {
  apiVersion: string;
  kind: string;
  plural: string;
  namespaced: boolean;
}

const TYPES: ResourceType[] = [
  {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    plural: 'serviceaccounts',
    namespaced: true,
  },
  {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    plural: 'roles',
    namespaced: true,
  },
  {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    plural: 'rolebindings',
    namespaced: true,
  },
  {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    plural: 'configmaps',
    namespaced: true,
  },
  { apiVersion: 'v1', kind: 'Service', plural: 'services', namespaced: true },
  {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    plural: 'statefulsets',
    namespaced: true,
  },
  {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    plural: 'deployments',
    namespaced: true,
  },
  {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    plural: 'replicasets',
    namespaced: true,
  },
  {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    plural: 'poddisruptionbudgets',
    namespaced: true,
  },
  { apiVersion: 'v1', kind: 'Pod', plural: 'pods', namespaced: true },
  {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    plural: 'persistentvolumeclaims',
    namespaced: true,
  },
  { apiVersion: 'v1', kind: 'Event', plural: 'events', namespaced: true },
  { apiVersion: 'v1', kind: 'Node', plural: 'nodes', namespaced: false },
];

export function resourceType(kind: string): ResourceType {
  const type = TYPES.find(t => t.kind === kind);
  if (!type) throw new Error(`Unsupported kind ${kind}`);
  return type;
}

/**
 * `/apis/apps/v1/namespaces/x/statefulsets[/name]`, or the cluster-wide collection without a namespace.
 *
 * @public
 */
export function resourcePath(
  kind: string,
  namespace?: string,
  name?: string,
): string {
  const type = resourceType(kind);
  const base = type.apiVersion.includes('/')
    ? `/apis/${type.apiVersion}`
    : `/api/${type.apiVersion}`;
  const scope =
    type.namespaced && namespace
      ? `/namespaces/${encodeURIComponent(namespace)}`
      : '';
  return `${base}${scope}/${type.plural}${name ? `/${encodeURIComponent(name)}` : ''}`;
}

/** @public */
export interface ObjectRef {
  kind: string;
  namespace?: string;
  name: string;
}

export const refOf = (object: {
  kind?: string;
  metadata?: { namespace?: string; name?: string };
}): ObjectRef => ({
  kind: object.kind!,
  namespace: object.metadata?.namespace,
  name: object.metadata!.name!,
});

/** @public */
export const describeRef = (ref: ObjectRef) => `${ref.kind}/${ref.name}`;
