import type { RbacManifestObject } from './serviceAccounts';
import { bindingProbes } from './serviceAccounts';

const RBAC = 'rbac.authorization.k8s.io';

describe('bindingProbes', () => {
  it('asks, per binding, for the first action its role grants where the binding applies', () => {
    const manifest: RbacManifestObject[] = [
      { kind: 'ServiceAccount', metadata: { name: 'backend' } },
      {
        kind: 'ClusterRole',
        metadata: { name: 'reader' },
        rules: [
          { nonResourceURLs: ['/healthz'], verbs: ['get'] },
          {
            apiGroups: ['apps'],
            resources: ['statefulsets/scale'],
            verbs: ['patch', 'get'],
          },
        ],
      },
      {
        kind: 'ClusterRoleBinding',
        metadata: { name: 'reader' },
        roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'reader' },
      },
      {
        kind: 'Role',
        metadata: { name: 'leader', namespace: 'apps' },
        rules: [
          {
            resources: ['configmaps'],
            resourceNames: ['lock'],
            verbs: ['update'],
          },
        ],
      },
      {
        kind: 'RoleBinding',
        metadata: { name: 'leader', namespace: 'apps' },
        roleRef: { apiGroup: RBAC, kind: 'Role', name: 'leader' },
      },
      {
        kind: 'RoleBinding',
        metadata: { name: 'reader-in-apps', namespace: 'apps' },
        roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'reader' },
      },
      // A built-in role, not in the manifest: nothing to ask.
      {
        kind: 'RoleBinding',
        metadata: { name: 'view', namespace: 'apps' },
        roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'view' },
      },
    ];

    expect(bindingProbes(manifest, { apps: 'apps-1' })).toEqual([
      {
        verb: 'patch',
        group: 'apps',
        resource: 'statefulsets',
        subresource: 'scale',
      },
      {
        verb: 'update',
        group: '',
        resource: 'configmaps',
        name: 'lock',
        namespace: 'apps-1',
      },
      {
        verb: 'patch',
        group: 'apps',
        resource: 'statefulsets',
        subresource: 'scale',
        namespace: 'apps-1',
      },
    ]);
  });

  it('matches a Role by namespace as well as name', () => {
    const manifest: RbacManifestObject[] = [
      {
        kind: 'Role',
        metadata: { name: 'flink', namespace: 'a' },
        rules: [{ resources: ['pods'], verbs: ['get'] }],
      },
      {
        kind: 'Role',
        metadata: { name: 'flink', namespace: 'b' },
        rules: [{ resources: ['services'], verbs: ['list'] }],
      },
      {
        kind: 'RoleBinding',
        metadata: { name: 'flink', namespace: 'b' },
        roleRef: { kind: 'Role', name: 'flink' },
      },
    ];

    expect(bindingProbes(manifest, { a: 'a-1', b: 'b-1' })).toEqual([
      { verb: 'list', group: '', resource: 'services', namespace: 'b-1' },
    ]);
  });
});
