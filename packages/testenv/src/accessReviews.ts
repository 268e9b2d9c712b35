import type { KubeClient } from './kubeClient';
import { waitFor } from './processes';

/** Who an access review asks about: a user and the groups it authenticates with. */
export interface AccessSubject {
  user: string;
  groups: string[];
}

/** The action an access review asks about (a SubjectAccessReview's `resourceAttributes`). */
export interface ResourceAction {
  verb: string;
  resource: string;
  group?: string;
  /** Omitted: the action in every namespace (a cluster-wide list or watch). */
  namespace?: string;
  subresource?: string;
  name?: string;
}

/** A ServiceAccount as the API server authenticates its tokens. */
export function serviceAccountSubject(
  namespace: string,
  name: string,
): AccessSubject {
  return {
    user: `system:serviceaccount:${namespace}:${name}`,
    groups: [
      'system:serviceaccounts',
      `system:serviceaccounts:${namespace}`,
      'system:authenticated',
    ],
  };
}

/** Whether the API server's authorizer allows the subject the action (a SubjectAccessReview). */
export async function isAllowed(
  client: KubeClient,
  subject: AccessSubject,
  action: ResourceAction,
): Promise<boolean> {
  const review = await client.create<{ status: { allowed?: boolean } }>(
    '/apis/authorization.k8s.io/v1/subjectaccessreviews',
    {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      spec: {
        ...subject,
        resourceAttributes: { group: '', ...action },
      },
    },
  );
  return review.status.allowed === true;
}

/**
 * Waits until the authorizer allows the action. Roles and bindings reach the API server's RBAC
 * authorizer through its informers, a moment after they are created (longer on a busy machine);
 * until then what they grant is denied.
 */
export async function untilAllowed(
  client: KubeClient,
  subject: AccessSubject,
  action: ResourceAction,
): Promise<void> {
  await waitFor(
    `the authorizer to allow ${subject.user} to ${action.verb} ${action.resource} in ${action.namespace ?? 'every namespace'}`,
    () => isAllowed(client, subject, action),
  );
}
