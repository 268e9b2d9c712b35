/* eslint-disable no-console */
/**
 * Benchmark of the status route (`npm run bench:observer`): not a test, a script that prints
 * figures. One Backstage backend, as an adopter runs it: our plugin and its peer, the stock
 * Kubernetes plugin (`@backstage/plugin-kubernetes-backend`), both in their production
 * configuration on the same API server with the least-privilege ServiceAccount of
 * `examples/rbac/`, behind the real catalog (the entities through its processing, on PostgreSQL
 * in a process of its own) and the real permission framework (a policy with conditional
 * decisions, as the example app's). The cluster
 * changes while measured: controllers, scheduler and kwok run, TaskManager pods are deleted at a
 * steady rate and come back through them.
 *
 * Per repetition, under the same load from wrk (a process of its own, see wrkLoad): our route
 * and the peer's with clients polling every second, then flat out; Backstage's liveness route in
 * the same backend, polled alike (the floor: what any route gets here); our route with the
 * clients on fewer clusters (what the Flink REST traffic costs as a function of the clusters
 * viewed). Each phase reports latency, the change→status delay through our route, and the API
 * server's requests per second by kind.
 *
 * Options (env): BENCH_CLUSTERS (1000), BENCH_TASKMANAGERS (20), BENCH_NAMESPACES (10),
 * BENCH_CLIENTS (100), BENCH_SECONDS (30 per phase), BENCH_POLL_MS (1000),
 * BENCH_REPETITIONS (3), BENCH_CHANGES_PER_SECOND (5). For diagnosis: BENCH_PHASES (a
 * comma-separated list of the phases to run, e.g. `oursPolling,viewed10`, or
 * `floorWithoutObserver` for the last ones; no summary then) and BENCH_PROFILE_DIR
 * (a CPU profile of the backend's main thread per phase). BENCH_PLANE_NICE (19) is the nice value
 * of the simulated cluster (etcd, the API server, the controllers, the scheduler, kwok: every
 * thread, and each process's autogroup) while measured: the backend first on the cores, as on
 * machines of its own in production, where the API server, etcd, the controllers and the
 * kubelets do not share its cores; one phase per repetition measures our polling at nice 0, and
 * the flat-out phases run at 0 (the backend flat out would starve the cluster).
 * BENCH_PLANE_IDLE=1 puts the simulated cluster under SCHED_IDLE as well while pages poll;
 * BENCH_PLANE_IDLE_GROUP=1 in a cpu cgroup marked idle too (cgroup v1's cpu.idle).
 * BENCH_BACKEND_CORE (unset by default) goes further: the backend's main thread on that core
 * with only wrk beside it, every other thread (the control plane's, the API proxy's, the churn's,
 * GC and libuv helpers) on the others. It is printed when set.
 * BENCH_CATALOG_PROCESSING_INTERVAL_S (unset by default) sets the catalog's processing interval
 * (Backstage's default: 100–150 s per entity): with a long one, the in-process catalog does not
 * reprocess its entities while measuring. It is printed when set. BENCH_DATABASE=sqlite puts the
 * catalog's database in the backend's process instead of PostgreSQL (in-memory SQLite,
 * startTestBackend's default, whose queries block the event loop); printed as a setting either
 * way. BENCH_HEAP_PROFILE_DIR samples the backend's allocations from the start (V8's sampling
 * heap profiler) and, at each phase, writes what is still alive and prints it by package. BENCH_ALLOCATION_PROFILE_DIR samples, per phase, everything the backend's
 * main thread allocates, collected or not, and prints it by package per second: what makes the
 * garbage collector run. BENCH_ALLOCATION_PROFILE=survived samples instead only what survived a
 * young GC: what the young GCs copy and promote, which is what their pauses cost.
 * BENCH_FROM_SOURCES=1 runs our plugins from their TypeScript sources (see builtPackages).
 */
// First: every later require of our packages loads their built files.
import { ourPluginsCode } from './builtPackages';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import type { Profiler } from 'node:inspector';
import { resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { createBackendPlugin } from '@backstage/backend-plugin-api';
import {
  mockCredentials,
  startTestBackend,
} from '@backstage/backend-test-utils';
import kubernetesPlugin from '@backstage/plugin-kubernetes-backend';
import {
  FLINK_REST_REFRESH_DEFAULTS,
  FlinkObserver,
  flinkStandaloneClusterServiceRef,
} from '@flink-standalone/plugin-flink-standalone-node';
import {
  installServiceAccount,
  type KubeClient,
  startControlPlane,
} from '@flink-standalone/testenv';
import {
  OWNER,
  READER,
  TEST_CLUSTER,
  component,
  flinkAnnotations,
  flinkBackendFeatures,
  onPluginRequest,
  rbacManifest,
} from '../src/__testUtils__/flinkTestBackend';
import type { ApiCounts } from './apiProxyWorker';
import {
  BenchShape,
  clusterName,
  loadClusters,
  namespaceOf,
  waitForSettled,
} from './benchClusters';
import type { ChurnResult, ChurnTask } from './churnWorker';
import { LatencySummary, RouteRequest, summarize } from './latency';
import { BROWSER_ACCEPT_ENCODING, PollTask, startWrk } from './wrkLoad';
import { productionLogger, withProductionMiddleware } from './productionHttp';
import { startWireCapture, tcpPortsOf } from './wireCapture';
import {
  type Span,
  type TakenUp,
  describeWireTail,
  tailWaitByActivity,
  wireTail,
} from './wireTail';
import { type Postgres, startPostgres } from './postgres';
import { ThreadDelays, describeGc, watchThreadDelays } from './threadDelays';
import {
  HeapSampling,
  bytesByOwner,
  largestOwners,
  startHeapSampling,
} from './heapProfile';
import {
  BACKEND_MAIN_THREAD,
  coresUsed,
  giveCore,
  describePriority,
  EQUAL_PRIORITY,
  prioritizeAllThreads,
  removeIdleGroup,
  setThreadPriority,
  type PlanePriority,
  sampleCpu,
} from './cpuUsage';

const env = (name: string, fallback: number) =>
  Number(process.env[name] ?? fallback);
const CLUSTERS = env('BENCH_CLUSTERS', 1000);
const TASKMANAGERS = env('BENCH_TASKMANAGERS', 20);
const NAMESPACES = env('BENCH_NAMESPACES', 10);
const CLIENTS = env('BENCH_CLIENTS', 100);
const SECONDS = env('BENCH_SECONDS', 30);
// The entity page polls every 10 s by default; each benchmark client polls ten times as often.
const POLL_MS = env('BENCH_POLL_MS', 1000);
const REPETITIONS = env('BENCH_REPETITIONS', 3);
const CHANGES_PER_SECOND = env('BENCH_CHANGES_PER_SECOND', 5);
/** Fewer clusters viewed: the Flink REST traffic follows the clusters viewed, up to its bound. */
const VIEWED = [10, 100].filter(v => v < CLUSTERS);
const PODS_PER_NODE = 800;
/** Diagnostics: a CPU profile of the backend's main thread per phase, written to this directory. */
const PROFILE_DIR = process.env.BENCH_PROFILE_DIR;
/** Diagnostics: only the phases whose keys are listed (oursPolling, peerPolling, …); all by default. */
const PHASES = process.env.BENCH_PHASES?.split(',');
/**
 * The simulated cluster's nice value (its processes' threads and autogroups) while measuring
 * pages polling: 19, behind the backend on the cores, as on machines of its own in production.
 * One phase per repetition measures our polling at 0, the backend's own priority; so do the
 * flat-out phases (see there).
 */
const PLANE_NICE = env('BENCH_PLANE_NICE', 19);
/**
 * With BENCH_PLANE_IDLE=1, the simulated cluster also runs under SCHED_IDLE while pages poll: a
 * woken thread of the backend then preempts it at once, where at nice 19 it may wait for the
 * running thread's slice to end.
 */
const PLANE_IDLE = process.env.BENCH_PLANE_IDLE === '1';
/**
 * With BENCH_PLANE_IDLE_GROUP=1, the simulated cluster also runs in a cpu cgroup marked idle
 * (cgroup v1's cpu.idle) while pages poll: a woken thread of the backend then preempts it at once,
 * autogroups or not. It cut the main thread's wait for a core but not the p99 beyond the noise
 * between runs, and the phases at equal priority after it ran slower (README, Benchmark).
 */
const PLANE_IDLE_GROUP = process.env.BENCH_PLANE_IDLE_GROUP === '1';
/** The simulated cluster's place on the cores while pages poll. */
const BEHIND_THE_BACKEND: PlanePriority = {
  nice: PLANE_NICE,
  idle: PLANE_IDLE,
  idleGroup: PLANE_IDLE_GROUP,
};
/** After the simulated cluster's priority changes, before a phase's clocks start. */
const PRIORITY_SETTLE_S = 20;
/** The core the backend's main thread gets to itself while measuring; unset: shared cores. */
const BACKEND_CORE = process.env.BENCH_BACKEND_CORE;
const CATALOG_PROCESSING_INTERVAL_S =
  process.env.BENCH_CATALOG_PROCESSING_INTERVAL_S;
/**
 * The backend's database (the catalog's: no other plugin here has one): PostgreSQL in a process of
 * its own by default, as production runs it; BENCH_DATABASE=sqlite gives startTestBackend's
 * default, in-memory SQLite in the backend's process (its queries synchronous on the event loop).
 */
const DATABASE = process.env.BENCH_DATABASE ?? 'postgres';
if (DATABASE !== 'postgres' && DATABASE !== 'sqlite') {
  throw new Error(
    `BENCH_DATABASE must be postgres or sqlite, not ${JSON.stringify(DATABASE)}`,
  );
}
/** Diagnostics: what holds the heap at each phase, by the code that allocated it. */
const HEAP_PROFILE_DIR = process.env.BENCH_HEAP_PROFILE_DIR;
const ALLOCATION_PROFILE_DIR = process.env.BENCH_ALLOCATION_PROFILE_DIR;
const ALLOCATION_PROFILE: HeapSampling =
  process.env.BENCH_ALLOCATION_PROFILE === 'survived'
    ? 'survived'
    : 'allocated';

const OURS: RouteRequest = {
  method: 'GET',
  path: '/api/flink-standalone/entities/default/component/{name}/status',
};
// The stock plugin's entity query (what its entity page asks, by entity reference).
/**
 * Backstage's own liveness route, in the same backend (mounted before every plugin, answered with
 * no plugin's work): what any route of this backend gets on this machine under the same load.
 */
const FLOOR: RouteRequest = {
  method: 'GET',
  path: '/.backstage/health/v1/liveness',
};
const PEER: RouteRequest = {
  method: 'POST',
  path: '/api/kubernetes/resources/workloads/query',
  body: JSON.stringify({ entityRef: 'component:default/{name}', auth: {} }),
};

function runWorker<T>(file: string, workerData: unknown): Promise<T> {
  const worker = new Worker(resolve(__dirname, file), { workerData });
  return new Promise<T>((done, fail) => {
    worker.once('message', result => {
      void worker.terminate();
      done(result);
    });
    worker.once('error', fail);
  });
}

/** The counting proxy in its worker: its URL, and the API requests by kind so far. */
async function startApiProxy(plane: { server: string; admin: { ca: string } }) {
  const worker = new Worker(resolve(__dirname, 'apiProxyWorker.ts'), {
    workerData: { plane: { server: plane.server, admin: plane.admin } },
  });
  const [{ url, threadId }] = await once(worker, 'message');
  return {
    url: url as string,
    /** The proxy's thread: it stands for the network, off the backend's cores in production. */
    threadId: threadId as number,
    counts: async (): Promise<ApiCounts> => {
      worker.postMessage('counts');
      const [counts] = await once(worker, 'message');
      return counts;
    },
    close: async () => {
      worker.postMessage('close');
      await once(worker, 'message');
      await worker.terminate();
    },
  };
}

interface PhaseResult {
  label: string;
  /** Our phases: each page's first read, before the phase (see openPages). */
  opened?: LatencySummary & { catalog: number; permission: number };
  /** As wrk measured it, from its process. */
  load: LatencySummary;
  churn: ChurnResult;
  /** API server requests per second by kind, the backend's only (the churn's are not counted). */
  apiPerSecond: ApiCounts;
  /** The backend's main thread: its event loop's delays and GC pauses. */
  backend: ThreadDelays;
  /** The measured route's requests as the server timed them (arrival to last byte). */
  atServer: LatencySummary;
  /**
   * The pages' requests timed at the backend's socket (see wireCapture.ts), with the packets the
   * capture dropped; not while flat out (hundreds of thousands of packets a phase).
   */
  atWire?: LatencySummary & { dropped: number };
  /** Statuses our observer computed per second: by reads that found theirs out of date, ahead of reads. */
  statusesComputed: { onRead: number; ahead: number };
  /** Requests to the catalog and permission backends per request to the measured route. */
  callsPerRequest: { catalog: number; permission: number };
  /** The most catalog requests in one second of the phase (counted from its start). */
  catalogBusiestSecond: number;
  /** The backend's heap in use at the phase's start, after a full GC (MB). */
  heapUsedAtStartMb: number;
  /** Cores used during the phase: the machine's, and by thread or process. */
  cpu: ReturnType<typeof coresUsed>;
}

/** Each count's growth per second between two readings of the same counters. */
function perSecondSince<K extends string>(
  before: Partial<Record<K, number>>,
  after: Record<K, number>,
  seconds: number,
): Record<K, number> {
  return Object.fromEntries(
    Object.entries<number>(after).map(([key, n]) => [
      key,
      (n - (before[key as K] ?? 0)) / seconds,
    ]),
  ) as Record<K, number>;
}

/** `a 1.2, b 0.3`: the rates above zero, largest first. */
function describeRates(rates: Record<string, number>): string {
  const shown = Object.entries(rates)
    .filter(([, rate]) => rate > 0)
    .sort((a, b) => b[1] - a[1]);
  return shown.length === 0
    ? 'none'
    : shown.map(([key, rate]) => `${key} ${rate.toFixed(1)}`).join(', ');
}

/**
 * The simulated nodes as the API server has them (read as the cluster's admin, not counted as
 * the backend's): a node whose heartbeats fell behind turns NotReady and gets tainted, and every
 * status with a pod on it changes.
 */
async function nodesState(
  client: KubeClient,
): Promise<{ total: number; ready: number; tainted: number }> {
  const { items } = await client.request<{
    items: {
      spec?: { taints?: unknown[] };
      status?: { conditions?: { type: string; status: string }[] };
    }[];
  }>('GET', '/api/v1/nodes');
  return {
    total: items.length,
    ready: items.filter(node =>
      node.status?.conditions?.some(
        c => c.type === 'Ready' && c.status === 'True',
      ),
    ).length,
    tainted: items.filter(node => (node.spec?.taints ?? []).length > 0).length,
  };
}

/** A plugin that only hands over our observer: the cluster service is a root service, shared. */
function observerProbe(found: (observer: Promise<FlinkObserver>) => void) {
  return createBackendPlugin({
    pluginId: 'bench-observer-probe',
    register(reg) {
      reg.registerInit({
        deps: { clusters: flinkStandaloneClusterServiceRef },
        async init({ clusters }) {
          found(clusters.getObserver());
        },
      });
    },
  });
}

/** The most of `times` (ms) in one second counted from `start`. */
function busiestSecond(times: number[], start: number): number {
  const perSecond = new Map<number, number>();
  for (const at of times) {
    const second = Math.floor((at - start) / 1000);
    perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
  }
  return Math.max(0, ...perSecond.values());
}

/** Writes a phase's profile (`.cpuprofile`, `.heapprofile`: DevTools opens both); its path. */
function writeProfile(
  dir: string,
  phase: string,
  extension: string,
  profile: object,
): string {
  const file = resolve(
    dir,
    `${phase.replace(/[^a-z0-9]+/gi, '-')}-${Date.now()}.${extension}`,
  );
  writeFileSync(file, JSON.stringify(profile));
  return file;
}

/** A full, synchronous garbage collection of the backend's heap (node --expose-gc). */
function collectGarbage(): void {
  if (!global.gc)
    throw new Error(
      'run with node --expose-gc, as npm run bench:observer does',
    );
  global.gc();
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const spread = (values: number[], digits = 1) =>
  `${Math.min(...values).toFixed(digits)}/${median(values).toFixed(digits)}/${Math.max(...values).toFixed(digits)}`;

async function main() {
  const totalStarted = Date.now();
  const pods = CLUSTERS * (TASKMANAGERS + 1);
  const settings = {
    clusters: CLUSTERS,
    taskManagers: TASKMANAGERS,
    pods,
    namespaces: NAMESPACES,
    clients: CLIENTS,
    pollMs: POLL_MS,
    secondsPerPhase: SECONDS,
    repetitions: REPETITIONS,
    podDeletionsPerSecond: CHANGES_PER_SECOND,
    flinkRestRefresh: FLINK_REST_REFRESH_DEFAULTS,
    simulatedClusterNice: PLANE_NICE,
    simulatedClusterSchedIdle: PLANE_IDLE,
    simulatedClusterIdleCgroup: PLANE_IDLE_GROUP,
    loadGenerator: 'wrk',
    backendMainThreadCore:
      BACKEND_CORE === undefined ? 'shared' : Number(BACKEND_CORE),
    database: DATABASE,
    catalogProcessingIntervalSeconds:
      CATALOG_PROCESSING_INTERVAL_S === undefined
        ? "Backstage's default (100-150)"
        : Number(CATALOG_PROCESSING_INTERVAL_S),
  };
  console.log(`[bench] settings ${JSON.stringify(settings)}`);
  console.log(`[bench] setting: ${ourPluginsCode()}`);
  const heapSampling = HEAP_PROFILE_DIR ? await startHeapSampling() : undefined;
  const plane = await startControlPlane({
    nodes: Math.ceil(pods / PODS_PER_NODE),
    // Static volumes are written by the loader (see benchClusters); the pool would list every
    // claim twice a second in this, the measured, process.
    volumePool: false,
    // Kubernetes' default: the test plane's 1 s would re-sync 40,000 claims and volumes every
    // second on the cores the measured backend runs on.
    pvBinderSyncPeriodSeconds: 15,
    log: line => console.log(`[bench] ${line}`),
  });
  let apiProxy: Awaited<ReturnType<typeof startApiProxy>> | undefined;
  let postgres: Postgres | undefined;
  /**
   * What runs behind the backend on the cores while pages poll: the simulated cluster and, on
   * PostgreSQL, the catalog's database (in production both on machines of their own).
   */
  const behindTheBackend = () => [
    ...plane.processes(),
    ...(postgres?.processes() ?? []),
  ];
  try {
    const shape: BenchShape = {
      clusters: CLUSTERS,
      taskManagers: TASKMANAGERS,
      namespaces: NAMESPACES,
      nodes: plane.nodes,
    };
    const account = await installServiceAccount(
      plane,
      rbacManifest('flink-standalone-backend.yaml'),
      { namespacePrefix: 'backstage' },
    );
    await loadClusters(plane.client, shape);
    await waitForSettled(plane.client, shape);
    apiProxy = await startApiProxy(plane);
    if (DATABASE === 'postgres') {
      postgres = await startPostgres();
      console.log(
        `[bench] setting: the backend's database (the catalog's) is PostgreSQL ${postgres.version} (Debian's package, its default settings) in a process of its own, as in production (BENCH_DATABASE=sqlite: in-memory SQLite in the backend's process)`,
      );
    }

    const names = Array.from({ length: CLUSTERS }, (_, i) => clusterName(i));
    const entities = names.map((name, i) =>
      component(name, {
        ...flinkAnnotations(namespaceOf(shape, i), name),
        'backstage.io/kubernetes-id': name,
        'backstage.io/kubernetes-namespace': namespaceOf(shape, i),
      }),
    );
    const cluster = {
      name: TEST_CLUSTER,
      url: apiProxy.url,
      authProvider: 'serviceAccount',
      serviceAccountToken: account.token,
      // The peer would ask a metrics server for every pod's usage; the plane runs none.
      skipMetricsLookup: true,
    };
    // Our plugin's observer (the root service's, built once the backend starts), to count the
    // statuses it computes.
    let observed: Promise<FlinkObserver> | undefined;
    const logger = productionLogger([account.token]);
    console.log(
      `[bench] setting: in front of every route, what a production backend has there and startTestBackend has not (backend-defaults' middleware, as its root HTTP router applies them: helmet, CORS, compression, a log line per request at info, the rate limiter, off as by default), the backend's log lines through Backstage's Winston logger in its production format (JSON with a timestamp, the config's secrets redacted) written to /dev/null instead of stdout, synchronously as Node writes to a pipe; the pages ask as a browser does (accept-encoding: ${BROWSER_ACCEPT_ENCODING})`,
    );
    const backend = await startTestBackend({
      features: flinkBackendFeatures({
        entities,
        logger,
        features: [
          kubernetesPlugin,
          observerProbe(found => (observed = found)),
        ],
        config: {
          kubernetes: {
            serviceLocatorMethod: { type: 'multiTenant' },
            clusterLocatorMethods: [{ type: 'config', clusters: [cluster] }],
            // What our status covers and its config can name (claims and events are core
            // kinds outside its object types; a custom resource needs a group).
            objectTypes: ['pods', 'statefulsets', 'deployments', 'replicasets'],
          },
          ...(postgres && {
            backend: { database: postgres.backendDatabase },
          }),
          ...(CATALOG_PROCESSING_INTERVAL_S !== undefined && {
            catalog: {
              processingInterval: {
                seconds: Number(CATALOG_PROCESSING_INTERVAL_S),
              },
            },
          }),
        },
      }),
    });
    withProductionMiddleware(backend.server, logger);
    const observer = await observed!;
    const url = `http://127.0.0.1:${backend.server.port()}`;
    // The clients read as a user whose status read decision is definitive (ALLOW, as the example
    // app's policy gives everyone); one phase reads as the owner, whose decision the test
    // policy makes conditional (isEntityOwner), as an owner-only policy would.
    const authorization = mockCredentials.user.header(READER);
    const ownerAuthorization = mockCredentials.user.header(OWNER);
    // Requests between plugins (catalog, permission) go through the same server: count them.
    const calls: Record<string, number> = {};
    /** From now on: how many requests a plugin has served since. */
    const countCalls = () => {
      const before = { ...calls };
      return (plugin: string) => (calls[plugin] ?? 0) - (before[plugin] ?? 0);
    };
    /** When each catalog request arrived (ms): whether they come evenly or in bursts. */
    const catalogCallsAt: number[] = [];
    // And how long the server took for each request to a measured route, arrival to last byte:
    // what the clients see, less their own waiting and the network.
    const handledMs: Record<string, number[]> = {
      'flink-standalone': [],
      kubernetes: [],
      other: [], // the floor's route (onPluginRequest: no plugin)
    };
    // While the wire is captured: when the main thread took up each request to a measured
    // route, and when it served calls between plugins (see wireTail.ts).
    const tailRecords = {
      on: false,
      takenUp: [] as TakenUp[],
      pluginCalls: [] as Span[],
    };
    const nowUs = () => (performance.timeOrigin + performance.now()) * 1000;
    onPluginRequest(backend.server, (plugin, response) => {
      calls[plugin] = (calls[plugin] ?? 0) + 1;
      if (plugin === 'catalog') catalogCallsAt.push(Date.now());
      if (tailRecords.on) {
        const atUs = nowUs();
        if (plugin === 'catalog' || plugin === 'permission') {
          response.once('finish', () =>
            tailRecords.pluginCalls.push({ startUs: atUs, endUs: nowUs() }),
          );
        } else if (response.socket?.remotePort !== undefined) {
          tailRecords.takenUp.push({ port: response.socket.remotePort, atUs });
        }
      }
      const handled = handledMs[plugin];
      if (!handled) return;
      const arrived = process.hrtime.bigint();
      response.once('finish', () =>
        handled.push(Number(process.hrtime.bigint() - arrived) / 1e6),
      );
    });
    const get = async (
      request: RouteRequest,
      name: string,
      as = authorization,
    ) => {
      const response = await fetch(url + request.path.replace('{name}', name), {
        method: request.method,
        headers: {
          authorization: as,
          ...(request.body && { 'content-type': 'application/json' }),
        },
        body: request.body?.replace('{name}', name),
      });
      return { status: response.status, body: await response.text() };
    };

    console.log('[bench] waiting for the catalog to process the entities');
    for (const started = Date.now(); ;) {
      const { status } = await get(
        {
          method: 'GET',
          path: '/api/catalog/entities/by-name/component/default/{name}',
        },
        names[names.length - 1],
      );
      if (status === 200) break;
      if (Date.now() - started > 600_000)
        throw new Error('the catalog did not process the entities in 10 min');
      await new Promise(r => setTimeout(r, 1000));
    }

    // Heap of the watch cache: the first status request starts it and waits for its sync.
    collectGarbage();
    const heapBefore = process.memoryUsage().heapUsed;
    const syncStarted = Date.now();
    for (;;) {
      const { status, body } = await get(OURS, names[0]);
      if (status === 200) break;
      console.log(`[bench] first status: ${status} ${body.slice(0, 200)}`);
      await new Promise(r => setTimeout(r, 1000));
    }
    const syncSeconds = (Date.now() - syncStarted) / 1000;
    // Held here: once the observer is closed (the last phases), `cacheOf` would start a new one;
    // let go then, so that the closed cache's objects are garbage.
    let watchCache: ReturnType<typeof observer.cacheOf> | undefined =
      observer.cacheOf(TEST_CLUSTER);
    collectGarbage();
    const bytesPerPod = (process.memoryUsage().heapUsed - heapBefore) / pods;
    console.log(
      `[bench] watch cache synced in ${syncSeconds.toFixed(1)} s; heap per pod ${(bytesPerPod / 1024).toFixed(2)} KB (everything the cache holds, divided by pods)`,
    );
    const peerFirst = await get(PEER, names[0]);
    const peerPods = JSON.parse(peerFirst.body).items?.[0]?.resources?.find(
      (r: { type: string }) => r.type === 'pods',
    )?.resources?.length;
    if (peerFirst.status !== 200 || peerPods !== TASKMANAGERS + 1)
      throw new Error(
        `the peer's answer for ${names[0]}: ${peerFirst.status} ${peerFirst.body.slice(0, 500)}`,
      );

    if (CATALOG_PROCESSING_INTERVAL_S !== undefined) {
      console.log(
        `[bench] setting: the catalog reprocesses each entity every ${CATALOG_PROCESSING_INTERVAL_S} s (BENCH_CATALOG_PROCESSING_INTERVAL_S; Backstage's default 100–150 s)`,
      );
    }
    if (BACKEND_CORE !== undefined) {
      console.log(
        `[bench] setting: the backend's main thread on core ${BACKEND_CORE} with only the load generator (wrk, the pages) beside it, every other thread (the control plane, the API proxy, the churn, GC and libuv helpers) on the other cores (BENCH_BACKEND_CORE): as on a node of its own`,
      );
    }
    console.log(
      `[bench] setting: the simulated cluster (${[
        ...new Set(behindTheBackend().map(p => p.name)),
      ].join(
        ', ',
      )}, the API proxy's and the churn's threads) at ${describePriority(BEHIND_THE_BACKEND)} while measured, every thread and each process's autogroup (BENCH_PLANE_NICE${PLANE_IDLE ? ', BENCH_PLANE_IDLE' : ''}${PLANE_IDLE_GROUP ? ', BENCH_PLANE_IDLE_GROUP' : ''}): the backend first on the cores, as on machines of its own; one phase per repetition at nice 0`,
    );

    console.log(
      `[bench] setting: a full garbage collection before each phase's clocks start, so that a phase does not pay for the garbage of the phases before it (the peer's lists, the flat-out phases)`,
    );
    let planePriorityNow: PlanePriority | undefined;

    /**
     * Each of `viewed`'s pages opened once, 16 at a time, as `as`: the phases measure pages that
     * stay open, whose entities and answers our plugin keeps fresh while read; a page's first
     * read, which may wait for the catalog and the permission backend, is timed here.
     */
    const openPages = async (viewed: string[], as: string) => {
      const served = countCalls();
      const unread = [...viewed];
      const ms: number[] = [];
      let failed = 0;
      const started = Date.now();
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          for (let name = unread.pop(); name; name = unread.pop()) {
            const sent = performance.now();
            const { status } = await get(OURS, name, as);
            ms.push(performance.now() - sent);
            if (status !== 200) failed++;
          }
        }),
      );
      return {
        ...summarize(ms, failed, (Date.now() - started) / 1000),
        catalog: served('catalog') / viewed.length,
        permission: served('permission') / viewed.length,
      };
    };

    const phase = async (
      label: string,
      request: RouteRequest,
      viewed: string[],
      pollMs: number,
      as = authorization,
      planePriority = BEHIND_THE_BACKEND,
      churnReadsStatus = true,
    ): Promise<PhaseResult> => {
      if (planePriority !== planePriorityNow) {
        prioritizeAllThreads(
          behindTheBackend().map(p => p.pid),
          planePriority,
        );
        setThreadPriority(apiProxy!.threadId, planePriority);
        if (planePriorityNow !== undefined) {
          // Behind the backend, the cluster's own work (kwok's pod statuses and heartbeats, the
          // controllers' queues) falls behind while the backend is busy; at equal priority it
          // catches up at once, on the cores the phase measures: let it, before the clocks start.
          console.log(
            `[bench] the simulated cluster now at ${describePriority(planePriority)}: ${PRIORITY_SETTLE_S} s for it to settle`,
          );
          await new Promise(r => setTimeout(r, PRIORITY_SETTLE_S * 1000));
        }
        planePriorityNow = planePriority;
      }
      // Our pages opened before the clocks start (the peer keeps nothing between requests).
      const opened = request === OURS ? await openPages(viewed, as) : undefined;
      if (opened) {
        console.log(
          `[bench] ${label}: first opened its ${viewed.length} pages, 16 at a time: p50=${opened.p50.toFixed(2)}ms p99=${opened.p99.toFixed(2)}ms errors=${opened.errors}; per page: catalog ${opened.catalog.toFixed(2)}, permission ${opened.permission.toFixed(2)}`,
        );
      }
      // Each phase collects its own garbage only, not the phases' before it (the peer's lists
      // of 21,000 pods, the flat-out phases): as a JVM benchmark harness collects between runs.
      collectGarbage();
      // Before anything is measured: writing the profile holds the loop for a moment.
      const heapUsedMb = process.memoryUsage().heapUsed / 2 ** 20;
      if (heapSampling) {
        const profile = await heapSampling.take();
        const file = writeProfile(
          HEAP_PROFILE_DIR!,
          label,
          'heapprofile',
          profile,
        );
        console.log(
          `[bench] heap alive at the start of "${label}" (${heapUsedMb.toFixed(0)} MB used), by allocating package (sampled): ${largestOwners(
            bytesByOwner(profile),
            10,
            bytes => `${(bytes / 2 ** 20).toFixed(0)} MB`,
          )}; ${file}`,
        );
      }
      const allocations = ALLOCATION_PROFILE_DIR
        ? await startHeapSampling(ALLOCATION_PROFILE)
        : undefined;
      const apiBefore = await apiProxy!.counts();
      const computedBefore = { ...observer.statusesComputed };
      const causesBefore = { ...observer.recomputeCauses };
      const listsBefore = watchCache?.lists() ?? {};
      const changesBefore = watchCache?.changes() ?? {};
      const served = countCalls();
      const handledBefore = Object.fromEntries(
        Object.entries(handledMs).map(([route, ms]) => [route, ms.length]),
      );
      const started = Date.now();
      const cpuBefore = sampleCpu(behindTheBackend());
      const watching = watchThreadDelays();
      const profiler = PROFILE_DIR ? new Session() : undefined;
      let cpuProfile:
        { profile: Profiler.Profile; monotonicToWallUs: number } | undefined;
      if (profiler) {
        profiler.connect();
        await profiler.post('Profiler.enable');
        await profiler.post('Profiler.setSamplingInterval', { interval: 500 });
        await profiler.post('Profiler.start');
      }
      const pollTask: PollTask = {
        url,
        authorization: as,
        request,
        entities: viewed,
        clients: CLIENTS,
        pollMs,
        seconds: SECONDS,
      };
      const capture =
        pollMs > 0 ? await startWireCapture(backend.server.port()) : undefined;
      tailRecords.on = Boolean(capture);
      tailRecords.takenUp = [];
      tailRecords.pluginCalls = [];
      const wrk = startWrk(pollTask);
      const running = [
        wrk.result,
        runWorker<ChurnResult>('churnWorker.ts', {
          url,
          authorization,
          apiServer: {
            server: plane.server,
            ca: plane.admin.ca,
            token: plane.admin.token,
          },
          clusters: names.map((name, i) => ({
            namespace: namespaceOf(shape, i),
            name,
            taskManagers: TASKMANAGERS,
          })),
          perSecond: CHANGES_PER_SECOND,
          seconds: SECONDS,
          readsStatus: churnReadsStatus,
          priority: planePriority,
        } satisfies ChurnTask),
      ] as const;
      // The workers' threads inherit the main thread's core: move them off it.
      if (BACKEND_CORE !== undefined) {
        giveCore(
          Number(BACKEND_CORE),
          behindTheBackend().map(p => p.pid),
          [wrk.pid],
        );
      }
      const pagePorts = capture
        ? await tcpPortsOf(wrk.pid, CLIENTS)
        : undefined;
      const [load, churn] = await Promise.all(running);
      const cpu = coresUsed(cpuBefore, sampleCpu(behindTheBackend()));
      const delays = watching.stop();
      if (profiler) {
        const { profile } = await profiler.post('Profiler.stop');
        profiler.disconnect();
        // The profile's clock is the monotonic one (µs): with its offset to the wall clock, it
        // is read at the times of the wire's slowest requests.
        cpuProfile = {
          profile,
          monotonicToWallUs: nowUs() - Number(process.hrtime.bigint()) / 1000,
        };
        const file = writeProfile(PROFILE_DIR!, label, 'cpuprofile', profile);
        console.log(
          `[bench] CPU profile of the backend's main thread: ${file}`,
        );
      }
      const seconds = (Date.now() - started) / 1000;
      tailRecords.on = false;
      const captured = await capture?.stop(pagePorts!, seconds);
      const tail =
        captured &&
        wireTail(
          captured.requests,
          tailRecords.takenUp,
          delays.gcPauses,
          tailRecords.pluginCalls,
        );
      // The summary only: the requests themselves would stay in the backend's heap to the end.
      const atWire = captured && { ...captured, requests: undefined };
      if (allocations) {
        const profile = await allocations.take();
        await allocations.stop();
        const file = writeProfile(
          ALLOCATION_PROFILE_DIR!,
          label,
          `${ALLOCATION_PROFILE}.heapprofile`,
          profile,
        );
        const owners = bytesByOwner(profile);
        const total = owners.reduce((sum, [, bytes]) => sum + bytes, 0);
        console.log(
          `[bench]   ${ALLOCATION_PROFILE === 'survived' ? 'survived a young GC' : 'allocated'}, by the backend's main thread: ${(total / 2 ** 20 / seconds).toFixed(1)} MB/s; by package (sampled): ${largestOwners(
            owners,
            12,
            bytes => (bytes / 2 ** 20 / seconds).toFixed(2),
          )}; ${file}`,
        );
      }
      const apiAfter = await apiProxy!.counts();
      const apiPerSecond = perSecondSince(apiBefore, apiAfter, seconds);
      const statusesComputed = perSecondSince(
        computedBefore,
        observer.statusesComputed,
        seconds,
      );
      // Lists after the first sync: a watch whose history was lost (410 Gone) lists its kind again.
      const relists = Object.entries(watchCache?.lists() ?? {})
        .map(
          ([kind, lists]) => [kind, lists - (listsBefore[kind] ?? 0)] as const,
        )
        .filter(([, lists]) => lists > 0);
      const causes = perSecondSince(
        causesBefore,
        observer.recomputeCauses,
        seconds,
      );
      const changes = perSecondSince(
        changesBefore,
        watchCache?.changes() ?? {},
        seconds,
      );
      const nodes = await nodesState(plane.client);
      const route =
        { [PEER.path]: 'kubernetes', [FLOOR.path]: 'other' }[request.path] ??
        'flink-standalone';
      const atServer = summarize(
        handledMs[route].slice(handledBefore[route]),
        0,
        seconds,
      );
      const result: PhaseResult = {
        label,
        opened,
        atServer,
        atWire,
        callsPerRequest: {
          catalog: served('catalog') / served(route),
          permission: served('permission') / served(route),
        },
        catalogBusiestSecond: busiestSecond(
          catalogCallsAt.filter(
            at => at >= started && at < started + seconds * 1000,
          ),
          started,
        ),
        load,
        churn,
        apiPerSecond,
        statusesComputed,
        backend: delays,
        heapUsedAtStartMb: heapUsedMb,
        cpu,
      };
      const churnSummary = churnReadsStatus
        ? `change->status p50=${churn.delays.p50}ms p99=${churn.delays.p99}ms max=${churn.delays.max}ms (${churn.changes} changes, ${churn.unseen} unseen${churn.delays.firstError ? `, ${churn.delays.firstError}` : ''})`
        : `${churn.changes} changes, unread${churn.delays.firstError ? ` (${churn.delays.firstError})` : ''}`;
      console.log(
        `[bench] ${label}: p50=${load.p50.toFixed(2)}ms p99=${load.p99.toFixed(2)}ms max=${load.max.toFixed(1)}ms rps=${load.perSecond.toFixed(0)}${load.bytesPerAnswer === undefined ? '' : ` bytes/answer=${load.bytesPerAnswer.toFixed(0)}`} errors=${load.errors}${load.firstError ? ` (${load.firstError})` : ''}` +
          ` | ${churnSummary}` +
          ` | API/s ${Object.entries(apiPerSecond)
            .map(([k, v]) => `${k}=${v.toFixed(1)}`)
            .join(' ')}` +
          ` | per request: catalog ${result.callsPerRequest.catalog.toFixed(2)}, permission ${result.callsPerRequest.permission.toFixed(2)}` +
          ` (catalog requests in the busiest second: ${result.catalogBusiestSecond})` +
          ` | at the server p50=${atServer.p50.toFixed(2)}ms p99=${atServer.p99.toFixed(2)}ms max=${atServer.max.toFixed(1)}ms` +
          `${atWire ? ` | at the wire p50=${atWire.p50.toFixed(2)}ms p99=${atWire.p99.toFixed(2)}ms max=${atWire.max.toFixed(1)}ms (${atWire.samples} of wrk's ${load.samples} requests, ${atWire.dropped} packets dropped)` : ''}` +
          ` | event loop p99=${delays.eventLoopP99Ms.toFixed(1)}ms max=${delays.eventLoopMaxMs.toFixed(1)}ms, GC max ${delays.gcMaxMs.toFixed(1)}ms`,
      );
      if (tail) console.log(`[bench]   ${describeWireTail(tail)}`);
      if (tail && cpuProfile) {
        const waited = tailWaitByActivity(
          cpuProfile.profile,
          cpuProfile.monotonicToWallUs,
          tail.windows,
        );
        const total = waited.reduce((sum, [, ms]) => sum + ms, 0);
        console.log(
          `[bench]   the slowest 1 %'s ${total.toFixed(0)} ms of waiting before the main thread took them up, by what its CPU profile shows then (ms): ${waited
            .slice(0, 8)
            .map(([activity, ms]) => `${activity} ${ms.toFixed(1)}`)
            .join(', ')}`,
        );
      }
      console.log(
        `[bench]   heap used at the start ${heapUsedMb.toFixed(0)} MB; GC: ${describeGc(delays.gcByKind)}; statuses computed per second: by reads ${statusesComputed.onRead.toFixed(1)}, ahead of reads ${statusesComputed.ahead.toFixed(1)}; our watch cache's relists: ${relists.length === 0 ? 'none' : relists.map(([kind, n]) => `${kind} ${n}`).join(', ')}`,
      );
      console.log(
        `[bench]   statuses computed per second by cause: ${describeRates(causes)}; our watch cache's changes per second: ${describeRates(changes)}; at the end, nodes Ready ${nodes.ready} of ${nodes.total}, tainted ${nodes.tainted}`,
      );
      console.log(
        `[bench]   the backend's main thread waited for a core ${cpu.mainThreadWaitMsPerSecond.toFixed(1)} ms per second; cores busy ${cpu.machineBusy.toFixed(2)} of ${cpu.machineCores.toFixed(0)} (taken by the hypervisor: ${cpu.machineStolen.toFixed(2)}): ${Object.entries(
          cpu.byName,
        )
          .sort((a, b) => b[1] - a[1])
          .map(([name, cores]) => `${name} ${cores.toFixed(2)}`)
          .join(', ')}`,
      );
      return result;
    };

    const runs: Record<string, PhaseResult>[] = [];
    for (let rep = 1; rep <= REPETITIONS; rep++) {
      console.log(`[bench] repetition ${rep}/${REPETITIONS}`);
      const run: Record<string, PhaseResult> = {};
      const measure = async (
        key: string,
        ...args: Parameters<typeof phase>
      ) => {
        if (!PHASES || PHASES.includes(key)) run[key] = await phase(...args);
      };
      await measure(
        'oursPolling',
        `ours, ${CLIENTS} clients polling every ${POLL_MS} ms`,
        OURS,
        names,
        POLL_MS,
      );
      // The floor right after ours, in the same conditions: after a change of priority the
      // simulated cluster catches up for a while (the floor used to come after the phase below).
      await measure(
        'floorPolling',
        `Backstage's liveness route in the same backend (the floor), ${CLIENTS} clients polling every ${POLL_MS} ms`,
        FLOOR,
        names,
        POLL_MS,
      );
      await measure(
        'oursPollingAtEqualPriority',
        `ours, ${CLIENTS} clients polling every ${POLL_MS} ms, the simulated cluster at the backend's priority (nice 0)`,
        OURS,
        names,
        POLL_MS,
        authorization,
        EQUAL_PRIORITY,
      );
      await measure(
        'peerPolling',
        `peer, ${CLIENTS} clients polling every ${POLL_MS} ms`,
        PEER,
        names,
        POLL_MS,
      );
      // Flat out, the backend takes every core it can: behind it, the simulated cluster starves
      // (its scheduler then stayed busy for the rest of a run, and its heartbeats fell behind).
      await measure(
        'oursFlat',
        `ours, ${CLIENTS} clients flat out, the simulated cluster at nice 0`,
        OURS,
        names,
        0,
        authorization,
        EQUAL_PRIORITY,
      );
      await measure(
        'peerFlat',
        `peer, ${CLIENTS} clients flat out, the simulated cluster at nice 0`,
        PEER,
        names,
        0,
        authorization,
        EQUAL_PRIORITY,
      );
      await measure(
        'oursConditional',
        `ours, ${CLIENTS} clients polling every ${POLL_MS} ms as the owner (conditional decision)`,
        OURS,
        names,
        POLL_MS,
        ownerAuthorization,
      );
      for (const viewed of VIEWED) {
        await measure(
          `viewed${viewed}`,
          `ours, ${CLIENTS} clients polling ${viewed} clusters`,
          OURS,
          names.slice(0, viewed),
          POLL_MS,
        );
      }
      runs.push(run);
    }
    /**
     * What our plugin's background work costs every other route of the backend: the floor again,
     * with our observer closed (its watches stopped, its cache and statuses released; nothing
     * reads our route, so nothing starts them again), as in a backend without our plugin. At the
     * run's end, since a closed observer starts anew only by listing every pod again; the
     * cluster's changes go on, unread.
     */
    const withoutObserver: PhaseResult[] = [];
    if (!PHASES || PHASES.includes('floorWithoutObserver')) {
      observer.close();
      watchCache = undefined;
      console.log(
        `[bench] our observer closed (watches stopped, cache released) for the floor's last ${REPETITIONS} phases`,
      );
      for (let rep = 1; rep <= REPETITIONS; rep++) {
        withoutObserver.push(
          await phase(
            `Backstage's liveness route with our observer closed (the floor without our plugin's work), ${CLIENTS} clients polling every ${POLL_MS} ms`,
            FLOOR,
            names,
            POLL_MS,
            authorization,
            BEHIND_THE_BACKEND,
            false,
          ),
        );
      }
    }
    await backend.stop();
    await heapSampling?.stop();
    if (PHASES) return; // a diagnostic run: the phases' lines above are its figures

    const all = (pick: (run: Record<string, PhaseResult>) => number) =>
      runs.map(pick);
    // Our phases are those that opened their pages first.
    const oursPhases = (run: Record<string, PhaseResult>) =>
      Object.values(run).filter(p => p.opened);
    // 3 requests per refresh, 20 refreshes a second, and a bucket holding one second's worth
    // (full at a phase's start): over a phase, the sustained rate plus one second's burst.
    const restRate = 3 * FLINK_REST_REFRESH_DEFAULTS.maxRefreshesPerSecond;
    const restBound = `${restRate}/s, ${(restRate * (1 + 1 / SECONDS)).toFixed(0)}/s over a ${SECONDS} s phase with the bucket's burst`;
    const lines = [
      `status p99 at ${CLIENTS} clients polling (ms), ours: ${spread(
        all(r => r.oursPolling.load.p99),
        2,
      )}; peer: ${spread(all(r => r.peerPolling.load.p99))}`,
      `status p99 at the server at ${CLIENTS} clients polling (ms), ours: ${spread(
        all(r => r.oursPolling.atServer.p99),
        2,
      )}; peer: ${spread(all(r => r.peerPolling.atServer.p99))}`,
      `status p99 at the wire (at the backend's socket, without the load generator's own delays) at ${CLIENTS} clients polling (ms), ours: ${spread(
        all(r => r.oursPolling.atWire!.p99),
        2,
      )}; the floor: ${spread(
        all(r => r.floorPolling.atWire!.p99),
        2,
      )}; ours with the simulated cluster at the backend's priority: ${spread(
        all(r => r.oursPollingAtEqualPriority.atWire!.p99),
        2,
      )}; packets the capture dropped: ${Math.max(...all(r => r.oursPolling.atWire!.dropped + r.floorPolling.atWire!.dropped + r.oursPollingAtEqualPriority.atWire!.dropped))}`,
      `the floor, Backstage's liveness route in the same backend under the same load (ms): p99 ${spread(
        all(r => r.floorPolling.load.p99),
        2,
      )}, at the server ${spread(
        all(r => r.floorPolling.atServer.p99),
        2,
      )}; p50 ${spread(
        all(r => r.floorPolling.load.p50),
        2,
      )}`,
      `the floor with our observer closed, at the run's end (its watches stopped, its cache released; ${REPETITIONS} phases): p99 at the wire ${spread(
        withoutObserver.map(p => p.atWire!.p99),
        2,
      )}, at the server ${spread(
        withoutObserver.map(p => p.atServer.p99),
        2,
      )}; heap used at a phase's start ${spread(
        withoutObserver.map(p => p.heapUsedAtStartMb),
        0,
      )} MB (with it running: ${spread(
        all(r => r.floorPolling.heapUsedAtStartMb),
        0,
      )}); young GCs per phase ${spread(
        withoutObserver.map(p => p.backend.gcByKind.scavenge?.count ?? 0),
        0,
      )} (with it running: ${spread(
        all(r => r.floorPolling.backend.gcByKind.scavenge?.count ?? 0),
        0,
      )}); the backend's main thread waited for a core (ms per second) ${spread(
        withoutObserver.map(p => p.cpu.mainThreadWaitMsPerSecond),
      )} (with it running: ${spread(
        all(r => r.floorPolling.cpu.mainThreadWaitMsPerSecond),
      )})`,
      `event loop delay max while ours polled (ms): ${spread(all(r => r.oursPolling.backend.eventLoopMaxMs))}; GC pause max: ${spread(all(r => r.oursPolling.backend.gcMaxMs))}`,
      `the backend's main thread waited for a core while ours polled (ms per second): ${spread(all(r => r.oursPolling.cpu.mainThreadWaitMsPerSecond))}`,
      `catalog requests in the busiest second while ours polled: ${spread(
        all(r => r.oursPolling.catalogBusiestSecond),
        0,
      )}`,
      `status p99 at ${CLIENTS} clients polling with the simulated cluster at the backend's priority (ms), ours: ${spread(
        all(r => r.oursPollingAtEqualPriority.load.p99),
        2,
      )}; at the server: ${spread(
        all(r => r.oursPollingAtEqualPriority.atServer.p99),
        2,
      )}; p50: ${spread(
        all(r => r.oursPollingAtEqualPriority.load.p50),
        2,
      )}; the backend's main thread waited for a core (ms per second): ${spread(all(r => r.oursPollingAtEqualPriority.cpu.mainThreadWaitMsPerSecond))}`,
      `cores busy while ours polled: ${spread(
        all(r => r.oursPolling.cpu.machineBusy),
        2,
      )} of ${runs[0].oursPolling.cpu.machineCores.toFixed(0)}; the backend's main thread: ${spread(
        all(r => r.oursPolling.cpu.byName[BACKEND_MAIN_THREAD]),
        2,
      )}`,
      `statuses computed per second while ours polled, by reads: ${spread(
        all(r => r.oursPolling.statusesComputed.onRead),
        1,
      )}; ahead of reads: ${spread(
        all(r => r.oursPolling.statusesComputed.ahead),
        1,
      )}`,
      `status p50 at ${CLIENTS} clients polling (ms), ours: ${spread(
        all(r => r.oursPolling.load.p50),
        2,
      )}; peer: ${spread(all(r => r.peerPolling.load.p50))}`,
      `throughput flat out (req/s), ours: ${spread(
        all(r => r.oursFlat.load.perSecond),
        0,
      )}; peer: ${spread(
        all(r => r.peerFlat.load.perSecond),
        0,
      )}; ratio: ${spread(all(r => r.oursFlat.load.perSecond / r.peerFlat.load.perSecond))}x`,
      `change->status under ${CLIENTS} polling clients (ms), p50: ${spread(
        all(r => r.oursPolling.churn.delays.p50),
        0,
      )}; p99: ${spread(
        all(r => r.oursPolling.churn.delays.p99),
        0,
      )}; max: ${spread(
        all(r => r.oursPolling.churn.delays.max),
        0,
      )}`,
      `API requests/s while polling, ours: list ${spread(all(r => r.oursPolling.apiPerSecond.list))}, watch ${spread(all(r => r.oursPolling.apiPerSecond.watch))}, proxy ${spread(all(r => r.oursPolling.apiPerSecond.proxy))}; peer: list ${spread(all(r => r.peerPolling.apiPerSecond.list))}, proxy ${spread(all(r => r.peerPolling.apiPerSecond.proxy))}`,
      ...[...VIEWED, CLUSTERS].map(
        viewed =>
          `Flink REST requests/s with ${viewed} clusters viewed: ${spread(all(r => (viewed === CLUSTERS ? r.oursPolling : r[`viewed${viewed}`]).apiPerSecond.proxy))} (bound ${restBound})`,
      ),
      `heap per cached pod: ${(bytesPerPod / 1024).toFixed(2)} KB; watch cache sync ${syncSeconds.toFixed(1)} s`,
      `catalog and permission requests per status request while polling, ours: ${spread(
        all(r => r.oursPolling.callsPerRequest.catalog),
        2,
      )} and ${spread(
        all(r => r.oursPolling.callsPerRequest.permission),
        2,
      )}; ours as the owner (conditional): ${spread(
        all(r => r.oursConditional.callsPerRequest.catalog),
        2,
      )} and ${spread(
        all(r => r.oursConditional.callsPerRequest.permission),
        2,
      )}; peer: ${spread(
        all(r => r.peerPolling.callsPerRequest.catalog),
        2,
      )} and ${spread(
        all(r => r.peerPolling.callsPerRequest.permission),
        2,
      )}`,
      `status p99 as the owner (conditional decision, ms): ${spread(
        all(r => r.oursConditional.load.p99),
        2,
      )}; p50: ${spread(
        all(r => r.oursConditional.load.p50),
        2,
      )}`,
      `a page's first read (opening it, 16 at a time; ms), ours as a reader: p50 ${spread(
        all(r => r.oursPolling.opened!.p50),
        2,
      )}, p99 ${spread(
        all(r => r.oursPolling.opened!.p99),
        2,
      )}; as the owner: p50 ${spread(
        all(r => r.oursConditional.opened!.p50),
        2,
      )}, p99 ${spread(
        all(r => r.oursConditional.opened!.p99),
        2,
      )}`,
      `errors, ours (every phase of ours, first reads included): ${runs.reduce((n, r) => n + oursPhases(r).reduce((m, p) => m + p.load.errors + (p.opened?.errors ?? 0), 0), 0)}; peer: ${runs.reduce((n, r) => n + r.peerPolling.load.errors + r.peerFlat.load.errors, 0)}; changes unseen: ${runs.reduce((n, r) => n + Object.values(r).reduce((m, p) => m + p.churn.unseen, 0), 0)}`,
    ];
    console.log(
      `\nbench:observer ${new Date().toISOString().slice(0, 10)}, ${REPETITIONS} runs (min/median/max), @backstage/plugin-kubernetes-backend ${require('@backstage/plugin-kubernetes-backend/package.json').version} as the peer, ${((Date.now() - totalStarted) / 1000).toFixed(0)} s in all`,
    );
    for (const line of lines) console.log(`  ${line}`);
  } finally {
    await apiProxy?.close();
    await postgres?.stop();
    await plane.stop();
    removeIdleGroup();
  }
}

main().then(
  () => process.exit(0),
  error => {
    console.error(error);
    process.exit(1);
  },
);
