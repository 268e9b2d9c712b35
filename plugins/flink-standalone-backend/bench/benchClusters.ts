/* eslint-disable no-console */
/**
 * The Flink clusters of the observer benchmark, loaded into the plane as the controllers would
 * leave them: per cluster a JobManager and a TaskManager StatefulSet (volumeClaimTemplates,
 * OnDelete), their pods on kwok nodes (kwok writes their status: conditions, container statuses,
 * IPs, as a kubelet would), and every TaskManager's claim Bound to a static volume.
 *
 * Objects are created directly rather than through the controllers (21,000 pods at the
 * controllers' client rate would take far longer); the StatefulSet controller then adopts the
 * pods and, from then on, runs them: a deleted pod comes back through the controller, the
 * scheduler and kwok.
 */
import type { KubeClient, KubeObject } from '@flink-standalone/testenv';

export interface BenchShape {
  clusters: number;
  taskManagers: number;
  namespaces: number;
  /** The kwok nodes, for spreading the pods. */
  nodes: string[];
}

export const namespaceOf = (shape: BenchShape, i: number) =>
  `bench-${i % shape.namespaces}`;
export const clusterName = (i: number) => `c${i}`;
export const STORAGE_CLASS = 'bench-static';

const selectorLabels = (i: number, component: string) => ({
  app: clusterName(i),
  component,
  type: 'flink-standalone-kubernetes',
});
// `backstage.io/kubernetes-id` is how the stock Kubernetes plugin finds an entity's objects.
const labels = (i: number, component: string) => ({
  ...selectorLabels(i, component),
  'backstage.io/kubernetes-id': clusterName(i),
});

const RESOURCES = {
  requests: { cpu: '1', memory: '1728Mi' },
  limits: { cpu: '1', memory: '1728Mi' },
};

function statefulSet(
  shape: BenchShape,
  i: number,
  component: 'jobmanager' | 'taskmanager',
) {
  const name =
    component === 'jobmanager'
      ? clusterName(i)
      : `${clusterName(i)}-taskmanager`;
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: {
      name,
      namespace: namespaceOf(shape, i),
      labels: labels(i, component),
    },
    spec: {
      replicas: component === 'jobmanager' ? 1 : shape.taskManagers,
      serviceName: name,
      podManagementPolicy: 'Parallel',
      updateStrategy: { type: 'OnDelete' },
      selector: { matchLabels: selectorLabels(i, component) },
      template: {
        metadata: { labels: labels(i, component) },
        spec: podSpec(component, undefined),
      },
      ...(component === 'taskmanager' && {
        volumeClaimTemplates: [
          {
            metadata: { name: 'flink-data' },
            spec: {
              accessModes: ['ReadWriteOnce'],
              storageClassName: STORAGE_CLASS,
              resources: { requests: { storage: '10Gi' } },
            },
          },
        ],
      }),
    },
  };
}

function podSpec(component: string, claimName: string | undefined) {
  return {
    containers: [
      {
        name: 'flink-main-container',
        image: 'flink:2.2',
        args: [component, '-Dtaskmanager.resource-id=$(POD_NAME)'],
        env: [
          {
            name: 'POD_NAME',
            valueFrom: { fieldRef: { fieldPath: 'metadata.name' } },
          },
        ],
        resources: RESOURCES,
        ...(component === 'taskmanager' && {
          volumeMounts: [
            { name: 'flink-data', mountPath: '/opt/flink/volumes/flink-data' },
          ],
        }),
      },
    ],
    ...(claimName && {
      volumes: [{ name: 'flink-data', persistentVolumeClaim: { claimName } }],
    }),
  };
}

function pod(
  shape: BenchShape,
  i: number,
  component: 'jobmanager' | 'taskmanager',
  ordinal: number,
  node: string,
) {
  const workload = statefulSet(shape, i, component).metadata.name;
  const name = `${workload}-${ordinal}`;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: namespaceOf(shape, i),
      labels: {
        ...labels(i, component),
        'apps.kubernetes.io/pod-index': String(ordinal),
        'statefulset.kubernetes.io/pod-name': name,
      },
    },
    spec: {
      ...podSpec(
        component,
        component === 'taskmanager' ? `flink-data-${name}` : undefined,
      ),
      hostname: name,
      subdomain: workload,
      nodeName: node,
    },
  };
}

/** Sends `jobs` through `concurrency` workers, logging progress every `every` jobs. */
async function inParallel<T>(
  label: string,
  jobs: T[],
  run: (job: T) => Promise<unknown>,
  concurrency = 48,
  every = 2000,
) {
  const started = Date.now();
  let done = 0;
  const queue = [...jobs];
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let job = queue.shift(); job !== undefined; job = queue.shift()) {
        await run(job);
        if (++done % every === 0)
          console.log(
            `[bench] ${label}: ${done}/${jobs.length}, ${((Date.now() - started) / 1000).toFixed(0)} s`,
          );
      }
    }),
  );
}

/**
 * A TaskManager's claim, Bound to a static volume of its own. The loader writes what the PV
 * controller would (both objects pointing at each other, both Bound) so that the controller finds
 * nothing to do: binding 20,000 claims at its client rate would take minutes.
 */
async function boundClaim(client: KubeClient, namespace: string, name: string) {
  const volume = `bench-${namespace}-${name}`;
  const claim = await client.create<KubeObject>(
    `/api/v1/namespaces/${namespace}/persistentvolumeclaims`,
    {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: {
        name,
        namespace,
        annotations: { 'pv.kubernetes.io/bind-completed': 'yes' },
      },
      spec: {
        accessModes: ['ReadWriteOnce'],
        storageClassName: STORAGE_CLASS,
        resources: { requests: { storage: '10Gi' } },
        volumeName: volume,
      },
    },
  );
  await client.create('/api/v1/persistentvolumes', {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: {
      name: volume,
      annotations: { 'pv.kubernetes.io/bound-by-controller': 'yes' },
    },
    spec: {
      capacity: { storage: '10Gi' },
      accessModes: ['ReadWriteOnce'],
      persistentVolumeReclaimPolicy: 'Retain',
      storageClassName: STORAGE_CLASS,
      hostPath: { path: `/var/lib/bench/${volume}` },
      claimRef: {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        namespace,
        name,
        uid: claim.metadata.uid,
      },
    },
  });
  await client.patch(`/api/v1/persistentvolumes/${volume}/status`, {
    status: { phase: 'Bound' },
  });
  await client.patch(
    `/api/v1/namespaces/${namespace}/persistentvolumeclaims/${name}/status`,
    {
      status: {
        phase: 'Bound',
        accessModes: ['ReadWriteOnce'],
        capacity: { storage: '10Gi' },
      },
    },
  );
}

/** Creates every cluster: namespaces, bound claims, pods, then the StatefulSets that adopt them. */
export async function loadClusters(client: KubeClient, shape: BenchShape) {
  const started = Date.now();
  for (let n = 0; n < shape.namespaces; n++) {
    await client.create('/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: `bench-${n}` },
    });
  }
  const indexes = Array.from({ length: shape.clusters }, (_, i) => i);
  const claims = indexes.flatMap(i =>
    Array.from({ length: shape.taskManagers }, (_, n) => ({
      namespace: namespaceOf(shape, i),
      name: `flink-data-${clusterName(i)}-taskmanager-${n}`,
    })),
  );
  await inParallel('claims bound to volumes', claims, c =>
    boundClaim(client, c.namespace, c.name),
  );
  let placed = 0;
  const pods = indexes.flatMap(i => [
    pod(shape, i, 'jobmanager', 0, shape.nodes[placed++ % shape.nodes.length]),
    ...Array.from({ length: shape.taskManagers }, (_, n) =>
      pod(
        shape,
        i,
        'taskmanager',
        n,
        shape.nodes[placed++ % shape.nodes.length],
      ),
    ),
  ]);
  await inParallel('pods', pods, p =>
    client.create(`/api/v1/namespaces/${p.metadata.namespace}/pods`, p),
  );
  const workloads = indexes.flatMap(i => [
    statefulSet(shape, i, 'jobmanager'),
    statefulSet(shape, i, 'taskmanager'),
  ]);
  await inParallel('StatefulSets', workloads, w =>
    client.create(
      `/apis/apps/v1/namespaces/${w.metadata.namespace}/statefulsets`,
      w,
    ),
  );
  console.log(
    `[bench] loaded ${claims.length} bound claims, ${pods.length} pods, ${workloads.length} StatefulSets in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
}

/**
 * Until every StatefulSet has adopted its pods and counts them Ready (kwok has written their
 * status): before that, the controllers' catching up would be measured as the steady state.
 */
export async function waitForSettled(
  client: KubeClient,
  shape: BenchShape,
  timeoutMs = 15 * 60_000,
) {
  const started = Date.now();
  for (;;) {
    const list = await client.list<any>('/apis/apps/v1/statefulsets');
    const bench = list.items.filter((s: any) =>
      s.metadata.namespace.startsWith('bench-'),
    );
    const settled = bench.filter(
      (s: any) =>
        s.status?.readyReplicas === s.spec.replicas &&
        s.status?.observedGeneration === s.metadata.generation,
    ).length;
    if (bench.length === shape.clusters * 2 && settled === bench.length) {
      console.log(
        `[bench] every StatefulSet has its pods Ready after ${((Date.now() - started) / 1000).toFixed(0)} s`,
      );
      return;
    }
    if (Date.now() - started > timeoutMs)
      throw new Error(
        `${settled}/${bench.length} StatefulSets settled after ${timeoutMs / 1000} s`,
      );
    console.log(
      `[bench] settling: ${settled}/${bench.length} StatefulSets with every pod Ready, ${((Date.now() - started) / 1000).toFixed(0)} s`,
    );
    await new Promise(resolve => setTimeout(resolve, 10_000));
  }
}
