import { KWOK_CUSTOM_STATUS_ANNOTATION } from './components';
import { KubeApiError, KubeClient, KubeObject } from './kubeClient';
import { isNodeReady } from './nodes';
import { waitFor } from './processes';

/** The taints the node-lifecycle controller puts on a node that stops reporting Ready. */
const NODE_LOST_TAINTS = [
  'node.kubernetes.io/not-ready',
  'node.kubernetes.io/unreachable',
];

export type PodFailure =
  'CrashLoopBackOff' | 'ImagePullBackOff' | 'ErrImagePull' | 'OOMKilled';

export const STUCK_FINALIZER = 'testenv.flink-standalone.io/stuck';
export const NO_VOLUME_LABEL = 'testenv.flink-standalone.io/no-such-volume';

const podPath = (namespace: string, name: string) =>
  `/api/v1/namespaces/${namespace}/pods/${name}`;
const now = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');

function notReadyConditions(reason: string) {
  const at = now();
  return [
    { type: 'PodScheduled', status: 'True', lastTransitionTime: at },
    { type: 'Initialized', status: 'True', lastTransitionTime: at },
    {
      type: 'ContainersReady',
      status: 'False',
      reason,
      lastTransitionTime: at,
    },
    { type: 'Ready', status: 'False', reason, lastTransitionTime: at },
  ];
}

/** The container status a kubelet reports for each failure. */
function containerStatus(
  container: { name: string; image: string },
  failure: PodFailure,
) {
  const base = {
    name: container.name,
    image: container.image,
    imageID: '',
    ready: false,
    started: false,
  };
  const terminated = (reason: string, exitCode: number) => ({
    terminated: { exitCode, reason, startedAt: now(), finishedAt: now() },
  });
  switch (failure) {
    case 'CrashLoopBackOff':
      return {
        ...base,
        restartCount: 5,
        state: {
          waiting: {
            reason: 'CrashLoopBackOff',
            message: `back-off 5m0s restarting failed container=${container.name}`,
          },
        },
        lastState: terminated('Error', 1),
      };
    case 'OOMKilled':
      return {
        ...base,
        restartCount: 3,
        state: {
          waiting: {
            reason: 'CrashLoopBackOff',
            message: `back-off 40s restarting failed container=${container.name}`,
          },
        },
        lastState: terminated('OOMKilled', 137),
      };
    case 'ImagePullBackOff':
    case 'ErrImagePull':
      return {
        ...base,
        restartCount: 0,
        state: {
          waiting: {
            reason: failure,
            message: `Back-off pulling image "${container.image}"`,
          },
        },
        lastState: {},
      };
    default:
      throw new Error(`unknown pod failure ${failure as string}`);
  }
}

/** Fault helpers: each puts real objects into the state a real cluster shows for that fault. */
export class Faults {
  constructor(
    private readonly client: KubeClient,
    private readonly restartApiServerFn: () => Promise<void>,
  ) {}

  /**
   * Reports the pod's containers as failed the given way, through the status subresource as a
   * kubelet would; kwok is told to leave this pod's status alone from then on.
   */
  async failPod(
    namespace: string,
    name: string,
    failure: PodFailure,
  ): Promise<KubeObject> {
    const pod = await this.client.patch(podPath(namespace, name), {
      metadata: { annotations: { [KWOK_CUSTOM_STATUS_ANNOTATION]: 'custom' } },
    });
    const pulling =
      failure === 'ImagePullBackOff' || failure === 'ErrImagePull';
    const status = {
      phase: pulling ? 'Pending' : 'Running',
      conditions: notReadyConditions('ContainersNotReady'),
      containerStatuses: pod.spec.containers.map(
        (c: { name: string; image: string }) => containerStatus(c, failure),
      ),
    };
    const updated = await this.client.patch(
      `${podPath(namespace, name)}/status`,
      { status },
    );
    await this.event(
      namespace,
      pod,
      pulling ? 'Failed' : 'BackOff',
      this.eventMessage(pod, failure),
    );
    return updated;
  }

  private eventMessage(pod: KubeObject, failure: PodFailure): string {
    const image = pod.spec.containers[0]?.image;
    if (failure === 'ErrImagePull')
      return `Failed to pull image "${image}": not found`;
    if (failure === 'ImagePullBackOff')
      return `Back-off pulling image "${image}"`;
    return 'Back-off restarting failed container';
  }

  /**
   * Deletes the pod while a finalizer holds it: it stays Terminating (deletionTimestamp set)
   * until releaseTerminating() is called. With `{ finalizer: false }`, only its node holds it,
   * as a lost kubelet that never confirms the containers stopped: a force delete removes it.
   */
  async stickTerminating(
    namespace: string,
    name: string,
    { finalizer = true }: { finalizer?: boolean } = {},
  ): Promise<KubeObject> {
    await this.client.patch(podPath(namespace, name), {
      metadata: {
        ...(finalizer && { finalizers: [STUCK_FINALIZER] }),
        // kwok would otherwise finish the deletion by clearing finalizers, as a kubelet does.
        annotations: { [KWOK_CUSTOM_STATUS_ANNOTATION]: 'custom' },
      },
    });
    await this.client.delete(podPath(namespace, name));
    return waitFor(`pod ${namespace}/${name} Terminating`, async () => {
      const pod = await this.client.get(podPath(namespace, name));
      return pod.metadata.deletionTimestamp ? pod : undefined;
    });
  }

  /**
   * Lets a pod stuck by stickTerminating() go. The patch is conditional on the pod's version (so
   * no finalizer added meanwhile is lost); a real kubelet writes the stopping pod's status
   * meanwhile, so a conflict reads the pod again and retries.
   */
  async releaseTerminating(namespace: string, name: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const pod = await this.client.find(podPath(namespace, name));
      if (!pod) return;
      const finalizers = (pod.metadata.finalizers ?? []).filter(
        f => f !== STUCK_FINALIZER,
      );
      try {
        // Handing the pod back to kwok lets it finish the deletion, as the kubelet would.
        await this.client.patch(podPath(namespace, name), {
          metadata: {
            finalizers,
            annotations: { [KWOK_CUSTOM_STATUS_ANNOTATION]: null },
            resourceVersion: pod.metadata.resourceVersion,
          },
        });
        return;
      } catch (error) {
        if (
          !(error instanceof KubeApiError && error.status === 409) ||
          attempt === 10
        )
          throw error;
      }
    }
  }

  /** Creates a claim that no PV can match (its selector names a label no volume has). */
  async pendingClaim(
    namespace: string,
    name: string,
    {
      storage = '1Gi',
      storageClassName,
    }: { storage?: string; storageClassName?: string } = {},
  ): Promise<KubeObject> {
    return this.client.create(
      `/api/v1/namespaces/${namespace}/persistentvolumeclaims`,
      {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: { name },
        spec: {
          accessModes: ['ReadWriteOnce'],
          resources: { requests: { storage } },
          selector: { matchLabels: { [NO_VOLUME_LABEL]: 'true' } },
          ...(storageClassName ? { storageClassName } : {}),
        },
      },
    );
  }

  /**
   * Emits the Warning event a kubelet sends when a volume cannot be mounted, as it stands after
   * the kubelet's retries (count 3): a mount that keeps failing, not a one-off.
   */
  async failedMount(
    namespace: string,
    podName: string,
    message?: string,
  ): Promise<KubeObject> {
    const pod = await this.client.get(podPath(namespace, podName));
    return this.event(
      namespace,
      pod,
      'FailedMount',
      message ??
        'MountVolume.SetUp failed for volume "data" : mount failed: exit status 32',
      3,
    );
  }

  /** Kills kube-apiserver and starts it again on the same port; returns when it is ready. */
  restartApiServer(): Promise<void> {
    return this.restartApiServerFn();
  }

  /**
   * Makes a node NotReady as if its kubelet stopped reporting: kwok stops managing its status
   * and the Ready condition turns False; the node-lifecycle controller then taints it.
   */
  async nodeNotReady(name: string): Promise<KubeObject> {
    await this.client.patch(`/api/v1/nodes/${name}`, {
      metadata: { annotations: { [KWOK_CUSTOM_STATUS_ANNOTATION]: 'custom' } },
    });
    const node = await this.client.get(`/api/v1/nodes/${name}`);
    const conditions = (node.status?.conditions ?? []).map((c: any) =>
      c.type === 'Ready'
        ? {
            ...c,
            status: 'False',
            reason: 'KubeletNotReady',
            message: 'container runtime is down (testenv fault)',
            lastHeartbeatTime: now(),
            lastTransitionTime: now(),
          }
        : c,
    );
    return this.client.patch(
      `/api/v1/nodes/${name}/status`,
      { status: { conditions } },
      'strategic',
    );
  }

  /**
   * Gives a node back to kwok, and waits until it is Ready again and the node-lifecycle
   * controller has lifted its not-ready and unreachable taints: what comes next finds the node
   * as it was.
   */
  async nodeReady(name: string): Promise<void> {
    await this.client.patch(`/api/v1/nodes/${name}`, {
      metadata: { annotations: { [KWOK_CUSTOM_STATUS_ANNOTATION]: null } },
    });
    await waitFor(
      `node ${name} Ready and untainted`,
      async () => {
        const node = await this.client.get(`/api/v1/nodes/${name}`);
        const taints: { key: string }[] = node.spec?.taints ?? [];
        return (
          isNodeReady(node) &&
          !taints.some(t => NODE_LOST_TAINTS.includes(t.key))
        );
      },
      { timeoutMs: 60_000 },
    );
  }

  private event(
    namespace: string,
    pod: KubeObject,
    reason: string,
    message: string,
    count = 1,
  ) {
    const name = `${pod.metadata.name}.${Date.now().toString(16)}${Math.floor(Math.random() * 1e6).toString(16)}`;
    return this.client.create(`/api/v1/namespaces/${namespace}/events`, {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name, namespace },
      involvedObject: {
        apiVersion: 'v1',
        kind: 'Pod',
        name: pod.metadata.name,
        namespace,
        uid: pod.metadata.uid,
        fieldPath: `spec.containers{${pod.spec.containers[0]?.name}}`,
      },
      reason,
      message,
      type: 'Warning',
      source: { component: 'kubelet', host: pod.spec.nodeName },
      reportingComponent: 'kubelet',
      reportingInstance: pod.spec.nodeName ?? '',
      firstTimestamp: now(),
      lastTimestamp: now(),
      count,
    });
  }
}
