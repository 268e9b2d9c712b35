import { KubeClient, KubeObject } from './kubeClient';
import { waitFor } from './processes';

/** Small helpers for tests that drive real objects through the API server. */

export function isPodReady(pod: KubeObject): boolean {
  return (
    pod.status?.phase === 'Running' &&
    (pod.status?.conditions ?? []).some(
      (c: { type: string; status: string }) =>
        c.type === 'Ready' && c.status === 'True',
    )
  );
}

interface ContainerStatus {
  name: string;
  state?: { waiting?: { reason?: string; message?: string } };
}

/** What keeps a pod from Ready, as a waiting test reports it: phase, false conditions, waiting containers. */
export function whyNotReady(pod: KubeObject | undefined): string {
  if (!pod) return 'no such pod';
  const conditions = (pod.status?.conditions ?? [])
    .filter((c: { status: string }) => c.status !== 'True')
    .map(
      (c: { type: string; reason?: string; message?: string }) =>
        `${c.type} ${c.reason ?? ''}${c.message ? `: ${c.message}` : ''}`,
    );
  const waiting = (pod.status?.containerStatuses ?? [])
    .filter((c: ContainerStatus) => c.state?.waiting)
    .map(({ name, state }: ContainerStatus) => {
      const { reason = '', message } = state!.waiting!;
      return `${name} waiting ${reason}${message ? `: ${message}` : ''}`;
    });
  return [
    `phase ${pod.status?.phase ?? 'unknown'}`,
    ...conditions,
    ...waiting,
  ].join('; ');
}

export function simplePod(
  name: string,
  extra: Partial<KubeObject['spec']> = {},
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels: { app: name } },
    spec: {
      containers: [{ name: 'main', image: 'example.invalid/app:1.0' }],
      ...extra,
    },
  };
}

/** A headless Service for the pods labelled app=<name> (a StatefulSet's governing Service). */
export function headlessService(name: string, port = 80): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name },
    spec: {
      clusterIP: 'None',
      selector: { app: name },
      ports: [{ name: 'port', port }],
    },
  };
}

/**
 * Waits until the pod `namespace/name` is Ready: a new one when `previousUid` names the pod it
 * replaces. A timeout says what kept it from Ready (see whyNotReady).
 */
export async function waitForPodReady(
  client: KubeClient,
  namespace: string,
  name: string,
  {
    previousUid,
    timeoutMs = 30_000,
    intervalMs = 200,
  }: { previousUid?: string; timeoutMs?: number; intervalMs?: number } = {},
): Promise<KubeObject> {
  return waitFor<KubeObject>(
    `pod ${namespace}/${name} Ready`,
    async () => {
      const pod = await client.find(
        `/api/v1/namespaces/${namespace}/pods/${name}`,
      );
      if (pod && pod.metadata.uid !== previousUid && isPodReady(pod))
        return pod;
      // Retried; the last one is the timeout's message (a taint, a waiting container...).
      throw new Error(
        pod && previousUid && pod.metadata.uid === previousUid
          ? 'still the previous pod'
          : whyNotReady(pod),
      );
    },
    { timeoutMs, intervalMs },
  );
}

export async function createReadyPod(
  client: KubeClient,
  namespace: string,
  name: string,
) {
  await client.create(`/api/v1/namespaces/${namespace}/pods`, simplePod(name));
  return waitForPodReady(client, namespace, name);
}

/** Waits until the predicate holds, then checks that it still holds a while later. */
export async function holds(
  what: string,
  check: () => Promise<boolean>,
  { forMs = 3000, timeoutMs = 30_000 } = {},
): Promise<void> {
  await waitFor(what, check, { timeoutMs });
  await new Promise(r => setTimeout(r, forMs));
  if (!(await check())) throw new Error(`${what} did not hold for ${forMs} ms`);
}
