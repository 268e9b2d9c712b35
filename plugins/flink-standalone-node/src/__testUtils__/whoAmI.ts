import type { KubeHttp } from '../kube/KubeHttp';

/** Who the API server says a request through `http` came from (a SelfSubjectReview). */
export async function whoAmI(http: KubeHttp): Promise<string> {
  const review = await http.json<{
    status: { userInfo: { username: string } };
  }>({
    method: 'POST',
    path: '/apis/authentication.k8s.io/v1/selfsubjectreviews',
    body: {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'SelfSubjectReview',
    },
  });
  return review.status.userInfo.username;
}
