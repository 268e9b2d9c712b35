/* eslint-disable no-console */
/**
 * Benchmark of the status route (`npm run bench:observer`): not a test, a script that prints
 * figures. It loads many Flink clusters into a real API server, then compares under the same
 * concurrent load our status route (served from the watch cache) with a baseline that fetches
 * the cluster's objects from the API server on every request, as the stock Backstage Kubernetes
 * plugin does.
 *
 * Options (env): BENCH_CLUSTERS (1000), BENCH_TASKMANAGERS (20), BENCH_CLIENTS (100),
 * BENCH_SECONDS (10 per phase), BENCH_NAMESPACES (10), BENCH_POLL_MS (1000), BENCH_PROFILE (a
 * path prefix: one CPU profile per phase).
 */
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { PerformanceObserver, monitorEventLoopDelay } from 'node:perf_hooks';
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import express from 'express';
import { ConfigReader } from '@backstage/config';
import type { Entity } from '@backstage/catalog-model';
import type { CatalogService } from '@backstage/plugin-catalog-node';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import type {
  HttpAuthService,
  LoggerService,
  PermissionsService,
} from '@backstage/backend-plugin-api';
import {
  ClusterRegistry,
  FlinkObserver,
  FlinkStandaloneClusters,
  KubeHttp,
  observeCluster,
  resourcePath,
} from '@flink-standalone/plugin-flink-standalone-node';
import {
  ControlPlane,
  cacheDir,
  startControlPlane,
} from '@flink-standalone/testenv';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FlinkStandaloneService } from '../src/service/FlinkStandaloneService';
import { createRouter } from '../src/service/router';

const CLUSTERS = Number(process.env.BENCH_CLUSTERS ?? 1000);
const TASKMANAGERS = Number(process.env.BENCH_TASKMANAGERS ?? 20);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 100);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const NAMESPACES = Number(process.env.BENCH_NAMESPACES ?? 10);
// The entity page polls every 10 s by default; each benchmark client polls ten times as often.
const POLL_MS = Number(process.env.BENCH_POLL_MS ?? 1000);
const LOAD_CONCURRENCY = 48;

const BENCH_NODE = 'bench-node';
const namespaceOf = (i: number) => `bench-${i % NAMESPACES}`;
const clusterName = (i: number) => `c${i}`;
const labels = (i: number, component: string) => ({
  app: clusterName(i),
  component,
  type: 'flink-standalone-kubernetes',
  'backstage.io/kubernetes-id': clusterName(i),
});

/** The objects of one Flink cluster, created directly: the controllers would take minutes. */
function clusterObjects(i: number) {
  const ns = namespaceOf(i);
  const name = clusterName(i);
  const statefulSet = (
    workload: string,
    component: string,
    replicas: number,
  ) => ({
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: workload, namespace: ns, labels: labels(i, component) },
    spec: {
      replicas,
      serviceName: workload,
      podManagementPolicy: 'Parallel',
      // OnDelete: the controller never replaces the pods this script made.
      updateStrategy: { type: 'OnDelete' },
      selector: {
        matchLabels: {
          app: name,
          component,
          type: 'flink-standalone-kubernetes',
        },
      },
      template: {
        metadata: { labels: labels(i, component) },
        spec: {
          containers: [{ name: 'flink-main-container', image: 'flink:2.1' }],
        },
      },
    },
  });
  const pod = (workload: string, component: string, ordinal: number) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `${workload}-${ordinal}`,
      namespace: ns,
      labels: {
        ...labels(i, component),
        'apps.kubernetes.io/pod-index': String(ordinal),
      },
    },
    spec: {
      // A node no kubelet (nor kwok) serves: the pod stays as written. It tolerates the node's
      // NotReady taints, so the node-lifecycle controller does not evict it mid-benchmark.
      nodeName: BENCH_NODE,
      tolerations: [{ operator: 'Exists' }],
      containers: [
        {
          name: 'flink-main-container',
          image: 'flink:2.1',
          args: ['taskmanager', '-Dtaskmanager.resource-id=$(POD_NAME)'],
          env: [
            {
              name: 'POD_NAME',
              valueFrom: { fieldRef: { fieldPath: 'metadata.name' } },
            },
          ],
          resources: {
            requests: { cpu: '1', memory: '1728Mi' },
            limits: { cpu: '1', memory: '1728Mi' },
          },
          volumeMounts: [
            { name: 'flink-data', mountPath: '/opt/flink/volumes/flink-data' },
          ],
        },
      ],
      volumes: [
        {
          name: 'flink-data',
          persistentVolumeClaim: {
            claimName: `flink-data-${workload}-${ordinal}`,
          },
        },
      ],
    },
  });
  const claim = (workload: string, ordinal: number) => ({
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: {
      name: `flink-data-${workload}-${ordinal}`,
      namespace: ns,
      labels: labels(i, 'taskmanager'),
    },
    spec: {
      accessModes: ['ReadWriteOnce'],
      storageClassName: 'bench-no-volumes',
      resources: { requests: { storage: '10Gi' } },
    },
  });
  const tm = `${name}-taskmanager`;
  // Pods before their StatefulSets: the controller adopts them instead of creating its own.
  return [
    ...Array.from({ length: TASKMANAGERS }, (_, n) => claim(tm, n)),
    pod(name, 'jobmanager', 0),
    ...Array.from({ length: TASKMANAGERS }, (_, n) =>
      pod(tm, 'taskmanager', n),
    ),
    statefulSet(name, 'jobmanager', 1),
    statefulSet(tm, 'taskmanager', TASKMANAGERS),
  ];
}

async function load(http: KubeHttp) {
  // The node must exist, or the pod garbage collector deletes pods bound to it.
  await http.json({
    method: 'POST',
    path: '/api/v1/nodes',
    body: { apiVersion: 'v1', kind: 'Node', metadata: { name: BENCH_NODE } },
  });
  for (let n = 0; n < NAMESPACES; n++) {
    await http.json({
      method: 'POST',
      path: '/api/v1/namespaces',
      body: {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: `bench-${n}` },
      },
    });
  }
  const queue = Array.from({ length: CLUSTERS }, (_, i) => i);
  let created = 0;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: LOAD_CONCURRENCY }, async () => {
      for (let i = queue.shift(); i !== undefined; i = queue.shift()) {
        for (const object of clusterObjects(i)) {
          await http.json({
            method: 'POST',
            path: resourcePath(object.kind, object.metadata.namespace),
            body: object,
          });
          created++;
        }
        if (i % 100 === 0)
          console.log(
            `[bench] loading: ${created} objects, ${((Date.now() - started) / 1000).toFixed(0)} s`,
          );
      }
    }),
  );
  console.log(
    `[bench] loaded ${created} objects in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
}

/** The stock approach: every status request fetches the cluster's objects from the API server. */
function baselineStatus(http: KubeHttp) {
  return async (ns: string, name: string) => {
    const get = (kind: string, object: string) =>
      http
        .json<any>({ path: resourcePath(kind, ns, object) })
        .catch(() => undefined);
    const list = (kind: string, query: Record<string, string>) =>
      http
        .json<{ items: any[] }>({ path: resourcePath(kind, ns), query })
        .then(l => l.items);
    const selector = {
      labelSelector: `app=${name},type=flink-standalone-kubernetes`,
    };
    const [jobManager, taskManager, pods, claims, events] = await Promise.all([
      get('StatefulSet', name),
      get('StatefulSet', `${name}-taskmanager`),
      list('Pod', selector),
      list('PersistentVolumeClaim', selector),
      list('Event', {
        fieldSelector: `involvedObject.name=${name}-taskmanager`,
      }),
    ]);
    return observeCluster(
      {
        cluster: 'bench',
        namespace: ns,
        name,
        jobManager,
        taskManager,
        pods,
        claims,
        events,
        nodes: [],
        stale: false,
      },
      undefined,
      { now: new Date(), stuckTerminatingAfterSeconds: 300 },
    );
  };
}

/** Fakes for what the routes need around the observer (named as such): all-allowing, in memory. */
function benchRouter(
  registry: ClusterRegistry,
  observer: FlinkObserver,
  baseline: ReturnType<typeof baselineStatus>,
) {
  const entities = new Map<string, Entity>();
  for (let i = 0; i < CLUSTERS; i++) {
    entities.set(`component:default/${clusterName(i)}`, {
      apiVersion: 'backstage.io/v1alpha1',
      kind: 'Component',
      metadata: {
        name: clusterName(i),
        annotations: {
          'flink-standalone.backstage.io/kubernetes-cluster': 'bench',
          'flink-standalone.backstage.io/namespace': namespaceOf(i),
          'flink-standalone.backstage.io/cluster': clusterName(i),
        },
      },
      spec: {},
    });
  }
  const fakeCatalog = {
    getEntityByRef: async (ref: string) => entities.get(ref),
  } as unknown as CatalogService;
  const fakePermissions = {
    authorize: async (requests: unknown[]) =>
      requests.map(() => ({ result: AuthorizeResult.ALLOW })),
  } as unknown as PermissionsService;
  const fakeHttpAuth = {
    credentials: async () => ({
      principal: { type: 'user', userEntityRef: 'user:default/bench' },
    }),
  } as unknown as HttpAuthService;
  const logger = {
    info() {},
    warn() {},
    error() {},
    debug() {},
    child: () => logger,
  } as unknown as LoggerService;
  const clusters = FlinkStandaloneClusters.fromRegistry(registry, { observer });
  const service = new FlinkStandaloneService({
    clusters,
    catalog: fakeCatalog,
    permissions: fakePermissions,
    logger,
  });
  const app = express();
  app.use(
    '/api/flink-standalone',
    createRouter({ service, clusters, httpAuth: fakeHttpAuth }),
  );
  app.get(
    '/baseline/entities/default/component/:name/status',
    async (req, res) => {
      const i = Number(req.params.name.slice(1));
      res.json({ status: await baseline(namespaceOf(i), req.params.name) });
    },
  );
  return app;
}

interface LoadResult {
  requests: number;
  errors: number;
  p50: number;
  p99: number;
  rps: number;
}

/**
 * Concurrent clients in a worker thread, so they do not share the server's event loop. Each
 * client is one open entity page: it asks every `pollMs` from a random phase of its own, as
 * independent users' pages do (clients in lockstep would measure a burst of 100, not a load).
 * `pollMs` 0: every client asks again as soon as it has its answer (flat out).
 */
async function runLoad(
  url: string,
  pathFor: string,
  pollMs: number,
): Promise<LoadResult> {
  const worker = new Worker(
    `
    const { parentPort, workerData } = require('node:worker_threads');
    const { Agent, request } = require('node:http');
    const agent = new Agent({ keepAlive: true, maxSockets: workerData.clients });
    const sleep = ms => new Promise(resolve => setTimeout(resolve, Math.max(0, ms)));
    const get = path => new Promise((resolve) => {
      const started = process.hrtime.bigint();
      request(workerData.url + path, { agent }, res => {
        res.resume();
        res.on('end', () => resolve({ ok: res.statusCode === 200, ms: Number(process.hrtime.bigint() - started) / 1e6 }));
      }).on('error', () => resolve({ ok: false, ms: 0 })).end();
    });
    (async () => {
      const latencies = [];
      let errors = 0;
      const { pollMs, seconds, clients, clusters } = workerData;
      const deadline = Date.now() + seconds * 1000;
      await Promise.all(Array.from({ length: clients }, async () => {
        let next = Date.now() + Math.random() * pollMs;
        for (;;) {
          if (pollMs) await sleep(next - Date.now());
          if (Date.now() >= deadline) return;
          const i = Math.floor(Math.random() * clusters);
          const r = await get(workerData.pathFor.replace('{name}', 'c' + i));
          if (r.ok) latencies.push(r.ms); else errors++;
          next += pollMs;
        }
      }));
      latencies.sort((a, b) => a - b);
      const at = q => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
      parentPort.postMessage({ requests: latencies.length, errors, p50: at(0.5), p99: at(0.99), rps: latencies.length / seconds });
    })();
    `,
    {
      eval: true,
      workerData: {
        url,
        pathFor,
        pollMs,
        clients: CLIENTS,
        seconds: SECONDS,
        clusters: CLUSTERS,
      },
    },
  );
  const [result] = await once(worker, 'message');
  await worker.terminate();
  return result;
}

/**
 * Pauses (SIGSTOP) or resumes the controllers, scheduler and kwok of the plane. The objects were
 * created directly, so nothing needs them while measuring, and on this 2-core machine their
 * reconciling of 40,000 objects would compete with the measured process for CPU. In a real
 * cluster they run elsewhere.
 */
function signalControllers(plane: ControlPlane, signal: 'SIGSTOP' | 'SIGCONT') {
  const runDir = join(cacheDir(), 'run');
  for (const file of readdirSync(runDir)) {
    const state = JSON.parse(readFileSync(join(runDir, file), 'utf8'));
    if (state.workDir !== plane.workDir) continue;
    for (const proc of state.processes as { name: string; pid: number }[]) {
      if (
        ['kube-controller-manager', 'kube-scheduler', 'kwok'].includes(
          proc.name,
        )
      )
        process.kill(proc.pid, signal);
    }
  }
}

async function main() {
  const totalStarted = Date.now();
  console.log(
    `[bench] ${CLUSTERS} clusters × ${TASKMANAGERS} TaskManagers in ${NAMESPACES} namespaces, ${CLIENTS} clients, ${SECONDS} s per phase`,
  );
  // No PV pool: the benchmark's claims stay Pending by design, and the pool would list 20,000
  // claims twice a second in this process, which is the measured server's.
  const plane = await startControlPlane({
    nodes: 1,
    volumePool: false,
    log: line => console.log(`[bench] ${line}`),
  });
  try {
    const registry = ClusterRegistry.fromConfig(
      new ConfigReader({
        kubernetes: {
          clusterLocatorMethods: [
            {
              type: 'config',
              clusters: [
                {
                  name: 'bench',
                  url: plane.server,
                  serviceAccountToken: plane.admin.token,
                  caData: plane.admin.ca,
                },
              ],
            },
          ],
        },
      }),
    );
    const http = registry.get('bench').http;
    await load(http);
    const pods = CLUSTERS * (TASKMANAGERS + 1);

    global.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    const observer = new FlinkObserver({
      registry,
      restMaxAgeMs: 3_600_000,
      initialSyncTimeoutMs: 300_000,
    });
    const syncStarted = Date.now();
    await observer.cacheOf('bench').synced(300_000);
    const syncSeconds = (Date.now() - syncStarted) / 1000;
    global.gc?.();
    const heapAfter = process.memoryUsage().heapUsed;
    const sizes = observer.cacheOf('bench').sizes();
    const cachedObjects = Object.values(sizes).reduce((a, b) => a + b, 0);
    // Everything the cache holds, per pod (claims and workloads included): the cost of a pod.
    const bytesPerPod = (heapAfter - heapBefore) / pods;
    console.log(
      `[bench] watch cache synced in ${syncSeconds.toFixed(1)} s: ${JSON.stringify(sizes)}; heap +${((heapAfter - heapBefore) / 2 ** 20).toFixed(1)} MiB`,
    );

    signalControllers(plane, 'SIGSTOP');
    const app = benchRouter(registry, observer, baselineStatus(http));
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // Warm up: every cluster's Flink REST answer (none: no Flink runs; kept for an hour, so no
    // refresh falls into a phase) and its first status.
    const refs = Array.from({ length: CLUSTERS }, (_, i) => ({
      cluster: 'bench',
      namespace: namespaceOf(i),
      name: clusterName(i),
    }));
    const pending = [...refs];
    await Promise.all(
      Array.from({ length: LOAD_CONCURRENCY }, async () => {
        for (let ref = pending.shift(); ref; ref = pending.shift())
          await observer.refreshRest(ref);
      }),
    );
    for (const ref of refs) await observer.getStatusJson(ref);
    global.gc?.();
    // The memoized statuses (object and JSON) of every cluster, on top of the cache.
    const bytesPerStatus =
      (process.memoryUsage().heapUsed - heapAfter) / CLUSTERS;

    const OURS =
      '/api/flink-standalone/entities/default/component/{name}/status';
    const BASELINE = '/baseline/entities/default/component/{name}/status';
    const phase = async (label: string, path: string, pollMs: number) => {
      const apiBefore = http.requestCount;
      const loopDelay = monitorEventLoopDelay({ resolution: 1 });
      loopDelay.enable();
      const gcPauses: number[] = [];
      const gcObserver = new PerformanceObserver(list =>
        gcPauses.push(...list.getEntries().map(e => e.duration)),
      );
      gcObserver.observe({ entryTypes: ['gc'] });
      const profiler = process.env.BENCH_PROFILE ? new Session() : undefined;
      if (profiler) {
        profiler.connect();
        await profiler.post('Profiler.enable');
        await profiler.post('Profiler.start');
      }
      const result = await runLoad(url, path, pollMs);
      loopDelay.disable();
      gcObserver.disconnect();
      if (profiler) {
        const { profile } = await profiler.post('Profiler.stop');
        const file = `${process.env.BENCH_PROFILE}-${label.replace(/\W+/g, '-')}.cpuprofile`;
        writeFileSync(file, JSON.stringify(profile));
        profiler.disconnect();
      }
      const apiPerRequest =
        (http.requestCount - apiBefore) / Math.max(1, result.requests);
      // The server's event loop: how long a request could wait behind other work.
      const loop =
        `event loop delay p99=${(loopDelay.percentile(99) / 1e6).toFixed(1)}ms max=${(loopDelay.max / 1e6).toFixed(1)}ms; ` +
        `GC pauses ${gcPauses.length}, max ${Math.max(0, ...gcPauses).toFixed(1)}ms`;
      console.log(
        `[bench] ${label}: ${JSON.stringify(result)}; API requests/status ${apiPerRequest.toFixed(3)}; ${loop}`,
      );
      return { ...result, apiPerRequest };
    };
    // Latency: every client polls every POLL_MS. Throughput: every client asks flat out.
    const cached = await phase(
      `cache, ${CLIENTS} clients polling every ${POLL_MS} ms`,
      OURS,
      POLL_MS,
    );
    const baseline = await phase(
      `baseline, ${CLIENTS} clients polling every ${POLL_MS} ms`,
      BASELINE,
      POLL_MS,
    );
    const cachedMax = await phase(
      `cache, ${CLIENTS} clients flat out`,
      OURS,
      0,
    );
    const baselineMax = await phase(
      `baseline, ${CLIENTS} clients flat out`,
      BASELINE,
      0,
    );
    const cachedApiPerRequest = cached.apiPerRequest;
    const baselineApiPerRequest = baseline.apiPerRequest;

    // Delay from a pod change to its appearance in the status.
    const delays: number[] = [];
    for (let n = 0; n < 20; n++) {
      const i = Math.floor(Math.random() * CLUSTERS);
      const ns = namespaceOf(i);
      const pod = `${clusterName(i)}-taskmanager-${n % TASKMANAGERS}`;
      const changedAt = Date.now();
      await http.json({
        method: 'PATCH',
        path: `${resourcePath('Pod', ns, pod)}/status`,
        contentType: 'application/merge-patch+json',
        body: { status: { phase: 'Failed', reason: `Bench${n}` } },
      });
      for (;;) {
        const status = await observer.getStatus({
          cluster: 'bench',
          namespace: ns,
          name: clusterName(i),
        });
        if (status.pods.find(p => p.name === pod)?.phase === 'Failed') break;
        await new Promise(r => setTimeout(r, 1));
      }
      delays.push(Date.now() - changedAt);
    }
    delays.sort((a, b) => a - b);
    server.close();
    observer.close();

    const ratio = cachedMax.rps / baselineMax.rps;
    console.log(
      `\nbench:observer clusters=${CLUSTERS} pods=${pods} claims=${CLUSTERS * TASKMANAGERS} cached-objects=${cachedObjects} clients=${CLIENTS}` +
        ` | polling every ${POLL_MS}ms: cache p50=${cached.p50.toFixed(2)}ms p99=${cached.p99.toFixed(2)}ms rps=${cached.rps.toFixed(0)} api/status=${cachedApiPerRequest.toFixed(3)}` +
        ` | baseline p50=${baseline.p50.toFixed(1)}ms p99=${baseline.p99.toFixed(1)}ms rps=${baseline.rps.toFixed(0)} api/status=${baselineApiPerRequest.toFixed(1)}` +
        ` | max rps cache=${cachedMax.rps.toFixed(0)} baseline=${baselineMax.rps.toFixed(0)} ratio=${ratio.toFixed(1)}x | memory/pod=${(bytesPerPod / 1024).toFixed(2)}KB` +
        ` memory/memoized status=${(bytesPerStatus / 1024).toFixed(1)}KB` +
        ` | change->status p50=${delays[10]}ms max=${delays[19]}ms | errors cache=${cached.errors} baseline=${baseline.errors}` +
        ` | total ${((Date.now() - totalStarted) / 1000).toFixed(0)}s`,
    );
  } finally {
    signalControllers(plane, 'SIGCONT');
    await plane.stop();
  }
}

main().then(
  () => process.exit(0),
  error => {
    console.error(error);
    process.exit(1);
  },
);
