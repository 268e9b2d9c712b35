import type { ResourceAction } from './accessReviews';
import { serviceAccountSubject, untilAllowed } from './accessReviews';
import { renderKubeconfig } from './kubeconfig';
import type { SharedControlPlane } from './shared';
import { createTestNamespace } from './shared';

/**
 * The kinds of an RBAC manifest this helper installs: one ServiceAccount, ClusterRoles and
 * ClusterRoleBindings, Roles and RoleBindings (namespaced, as in examples/rbac).
 */
export interface RbacManifestObject {
  apiVersion?: string;
  kind: string;
  metadata: { name: string; namespace?: string };
  roleRef?: { apiGroup?: string; kind?: string; name: string };
  subjects?: object[];
  rules?: RbacRule[];
}

/** A rule of a Role or ClusterRole. */
export interface RbacRule {
  apiGroups?: string[];
  resources?: string[];
  verbs: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface ServiceAccountOptions {
  /** Prefix of the fresh namespace the ServiceAccount lives in. */
  namespacePrefix?: string;
  /**
   * Where the manifest's Roles and RoleBindings go: the manifest's namespace → the test's
   * namespace (test files run in parallel, so tests use namespaces of their own). A namespaced
   * object whose namespace is not mapped is an error, never silently installed elsewhere.
   */
  namespaces?: Record<string, string>;
}

/** A ServiceAccount installed from an RBAC manifest, with a token acting as it. */
export interface InstalledServiceAccount {
  token: string;
  /** The namespace the ServiceAccount was created in. */
  namespace: string;
  name: string;
  /** As the API server names it: `system:serviceaccount:<namespace>:<name>`. */
  username: string;
}

const RBAC_API = '/apis/rbac.authorization.k8s.io/v1';

/**
 * Installs an RBAC manifest in the plane and returns a token of its ServiceAccount, so a test acts
 * with exactly those rights. The ServiceAccount goes to a fresh namespace; cluster-wide names get
 * that namespace's suffix (test files run in parallel); Roles and RoleBindings go to the mapped
 * namespaces (`options.namespaces`), which must exist.
 */
export async function installServiceAccount(
  plane: SharedControlPlane,
  objects: RbacManifestObject[],
  options: ServiceAccountOptions = {},
): Promise<InstalledServiceAccount> {
  const namespace = await createTestNamespace(
    plane.client,
    options.namespacePrefix ?? 'rbac',
  );
  const suffix = namespace.slice(namespace.lastIndexOf('-') + 1);
  const account = objects.find(o => o.kind === 'ServiceAccount');
  if (!account) throw new Error('the RBAC manifest has no ServiceAccount');
  const known = new Set([
    'ServiceAccount',
    'ClusterRole',
    'ClusterRoleBinding',
    'Role',
    'RoleBinding',
  ]);
  const unknown = objects.filter(o => !known.has(o.kind));
  if (unknown.length > 0) {
    throw new Error(
      `the RBAC manifest has kinds this helper does not install: ${unknown.map(o => o.kind).join(', ')}`,
    );
  }
  await plane.client.create(`/api/v1/namespaces/${namespace}/serviceaccounts`, {
    ...account,
    metadata: { name: account.metadata.name, namespace },
  });
  const subjects = (object: RbacManifestObject) =>
    object.subjects && {
      subjects: object.subjects.map(s => ({ ...s, namespace })),
    };
  for (const object of objects.filter(o => o.kind.startsWith('ClusterRole'))) {
    const plural =
      object.kind === 'ClusterRole' ? 'clusterroles' : 'clusterrolebindings';
    await plane.client.create(`${RBAC_API}/${plural}`, {
      ...object,
      metadata: { name: `${object.metadata.name}-${suffix}` },
      ...(object.roleRef && {
        roleRef: {
          ...object.roleRef,
          name: `${object.roleRef.name}-${suffix}`,
        },
      }),
      ...subjects(object),
    });
  }
  for (const object of objects.filter(
    o => o.kind === 'Role' || o.kind === 'RoleBinding',
  )) {
    const target = options.namespaces?.[object.metadata.namespace ?? ''];
    if (!target) {
      throw new Error(
        `${object.kind} ${object.metadata.name} is in namespace "${object.metadata.namespace}", which options.namespaces does not map`,
      );
    }
    // A RoleBinding may name a ClusterRole, renamed above with the suffix.
    const roleRef =
      object.roleRef?.kind === 'ClusterRole'
        ? { ...object.roleRef, name: `${object.roleRef.name}-${suffix}` }
        : object.roleRef;
    const plural = object.kind === 'Role' ? 'roles' : 'rolebindings';
    await plane.client.create(`${RBAC_API}/namespaces/${target}/${plural}`, {
      ...object,
      metadata: { name: object.metadata.name, namespace: target },
      ...(roleRef && { roleRef }),
      ...subjects(object),
    });
  }
  const name = account.metadata.name;
  // Each binding in effect before the token is handed out: a request right away is not denied.
  for (const action of bindingProbes(objects, options.namespaces ?? {})) {
    await untilAllowed(
      plane.client,
      serviceAccountSubject(namespace, name),
      action,
    );
  }
  const request = await plane.client.create<{ status: { token: string } }>(
    `/api/v1/namespaces/${namespace}/serviceaccounts/${name}/token`,
    {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: { expirationSeconds: 3600 },
    },
  );
  return {
    token: request.status.token,
    namespace,
    name,
    username: `system:serviceaccount:${namespace}:${name}`,
  };
}

/**
 * One action per binding of the manifest that its bound role (when the manifest holds it) grants
 * where the binding applies: the first verb on the first resource of its first resource rule.
 * When the authorizer allows all of them, every binding and role has reached it.
 */
export function bindingProbes(
  objects: RbacManifestObject[],
  namespaces: Record<string, string>,
): ResourceAction[] {
  const roleOf = (binding: RbacManifestObject) =>
    objects.find(
      o =>
        o.kind === binding.roleRef?.kind &&
        o.metadata.name === binding.roleRef.name &&
        (o.kind === 'ClusterRole' ||
          o.metadata.namespace === binding.metadata.namespace),
    );
  return objects.flatMap(binding => {
    if (binding.kind !== 'RoleBinding' && binding.kind !== 'ClusterRoleBinding')
      return [];
    const rule = roleOf(binding)?.rules?.find(r => r.resources?.length);
    if (!rule) return [];
    const [resource, subresource] = rule.resources![0].split('/');
    return [
      {
        verb: rule.verbs[0],
        group: rule.apiGroups?.[0] ?? '',
        resource,
        ...(subresource && { subresource }),
        ...(rule.resourceNames?.[0] && { name: rule.resourceNames[0] }),
        ...(binding.kind === 'RoleBinding' && {
          namespace: namespaces[binding.metadata.namespace ?? ''],
        }),
      },
    ];
  });
}

/**
 * Installs an RBAC manifest (see `installServiceAccount`) in a fresh namespace and returns a
 * token of its ServiceAccount.
 */
export async function serviceAccountToken(
  plane: SharedControlPlane,
  objects: RbacManifestObject[],
  namespacePrefix = 'rbac',
): Promise<string> {
  return (await installServiceAccount(plane, objects, { namespacePrefix }))
    .token;
}

/**
 * A kubeconfig that acts as the given token on the plane (e.g. for a backend started as a
 * process, which takes a kubeconfig path): the plane's CA, no client certificate. `server` may
 * be a plain-HTTP proxy on loopback (`startCountingApiProxy`): kubeconfig clients refuse
 * `http:` unless TLS verification is off, and there is no TLS to verify on that hop.
 */
export function tokenKubeconfig(
  plane: Pick<SharedControlPlane, 'server' | 'admin'>,
  token: string,
  server = plane.server,
): string {
  const kubeconfig = renderKubeconfig({
    clusterName: 'flink-standalone-testenv',
    server,
    ca: plane.admin.ca,
    user: { name: 'flink-standalone-backend', token },
  });
  if (!server.startsWith('http:')) return kubeconfig;
  const config = JSON.parse(kubeconfig);
  config.clusters[0].cluster = {
    server,
    'insecure-skip-tls-verify': true,
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}

/**
 * Which credentials appear in a text (a response body, log lines), by name, never the
 * credential itself (a test failure message must not print it): the token, any line of the
 * CA's PEM body, a piece of the CA as base64 (as in caData or a kubeconfig), and the long lines
 * of a kubeconfig.
 */
export function credentialLeaks(
  text: string,
  credentials: { token: string; ca: string; kubeconfig?: string },
): string[] {
  const secrets: [string, string][] = [['the token', credentials.token]];
  credentials.ca
    .split('\n')
    .filter(line => line.length > 20 && !line.startsWith('-----'))
    .forEach((line, i) => secrets.push([`line ${i + 1} of the CA`, line]));
  // From the middle: every PEM certificate's base64 starts alike.
  secrets.push([
    'the CA as base64',
    Buffer.from(credentials.ca).toString('base64').slice(60, 120),
  ]);
  (credentials.kubeconfig ?? '')
    .split('\n')
    .map(line => line.trim())
    .filter(line => line.length > 40)
    .forEach((line, i) =>
      secrets.push([`kubeconfig line ${i + 1} (of the long ones)`, line]),
    );
  return secrets
    .filter(([, secret]) => text.includes(secret))
    .map(([name]) => name);
}
