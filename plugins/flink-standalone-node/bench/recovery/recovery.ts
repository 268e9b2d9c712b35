/**
 * `npm run bench:recovery`: what a StatefulSet with local recovery buys, measured on real pods.
 *
 * One real node (kubelet + containerd + runc) from packages/testenv, the example job of the
 * `flink:2.2-examples` image with RocksDB incremental checkpoints, checkpoint storage on a
 * throttled pass-through FUSE mount that stands in for S3 (see throttlefs.py and README.md), and
 * three ways to run TaskManagers (A, B, C) against three failures (kill, delete, node lost).
 * Writes RESULTS.md beside this file. `--dry-run` renders the specs and exits.
 */
import {
  ChildProcess,
  execFile,
  execFileSync,
  spawn,
} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ConfigReader } from '@backstage/config';
import {
  ClusterSpecInput,
  parseClusterSpec,
  renderCluster,
} from '@flink-standalone/plugin-flink-standalone-common';
import {
  ControlPlane,
  KubeObject,
  createTestNamespace,
  startControlPlane,
  waitFor,
} from '@flink-standalone/testenv';
import type { KubernetesObject } from '@kubernetes/client-node';
import { ClusterRegistry } from '../../src/cluster/ClusterRegistry';
import { applyCluster } from '../../src/apply/applyCluster';
import { waitForReady } from '../../src/apply/waitForReady';
import { FlinkObserver } from '../../src/service/FlinkObserver';
import {
  logTimestamp,
  taskManagerRestoreSource,
} from '../../src/rest/restores';

const run = promisify(execFile);
const HERE = __dirname;

// ------------------------------------------------------------------------------------------
// Settings (environment variables; every one printed with the results)

const env = (name: string, fallback: string) => process.env[name] ?? fallback;
const num = (name: string, fallback: number) =>
  Number(env(name, String(fallback)));

const S = {
  runs: num('BENCH_RUNS', 3),
  variants: env('BENCH_VARIANTS', 'A,B,C').split(','),
  failures: env('BENCH_FAILURES', 'kill,delete,node').split(',') as Failure[],
  /** Total keyed state of the job, MiB (keys × bytes per key). */
  stateMiB: num('BENCH_STATE_MB', 256),
  stateBytesPerKey: num('BENCH_STATE_BYTES', 4096),
  /** Records per second per subtask (the example job's --rate). */
  rate: num('BENCH_RATE', 4000),
  parallelism: 2,
  checkpointMs: num('BENCH_CHECKPOINT_MS', 10_000),
  /** Bandwidth of the stand-in for S3, MB/s per direction, shared by all pods. */
  bandwidthMBps: num('BENCH_BANDWIDTH_MBPS', 25),
  /** How long the node stays away in the node-lost failure before its kubelet is back. */
  nodeDownS: num('BENCH_NODE_DOWN_S', 10),
  podStartReplicas: env('BENCH_POD_START_REPLICAS', '2,4')
    .split(',')
    .filter(Boolean)
    .map(Number),
  taskManagerMemory: env('BENCH_TM_MEMORY', '2Gi'),
  flinkVersion: '2.2',
  image: 'flink:2.2-examples',
  /** When set (this machine's protocol with the test suite), run only while the file exists. */
  goFile: process.env.BENCH_GO_FILE,
  dryRun: process.argv.includes('--dry-run'),
  results: env('BENCH_RESULTS', path.join(HERE, 'RESULTS.md')),
  /** The TaskManagers' logs after each recovery. */
  logDir: env(
    'BENCH_LOG_DIR',
    path.join(os.tmpdir(), 'flink-bench-recovery-logs'),
  ),
};
const KEYS = Math.round((S.stateMiB * 1024 * 1024) / S.stateBytesPerKey);
const NAME = 'bench';
const REMOTE_MOUNT = '/opt/flink/remote';

type Failure = 'kill' | 'delete' | 'node';
const FAILURE_TEXT: Record<Failure, string> = {
  kill: 'TM process killed (SIGKILL from the node; kubelet restarts the container in place)',
  delete: 'TM pod deleted (graceful delete; the controller makes a new pod)',
  node: `node lost (kubelet stopped + TM container SIGKILLed, pod force-deleted, kubelet back after ${S.nodeDownS} s)`,
};
const VARIANT_TEXT: Record<string, string> = {
  A: 'StatefulSet + claims + local recovery (default)',
  B: 'StatefulSet + claims, localRecovery: false',
  C: 'Deployment + generic ephemeral volumes',
};

/** Settings the bench changes from the product's defaults, each with its reason. */
const CHANGED: [string, string, string][] = [
  [
    'state.backend.type',
    'rocksdb',
    'large state lives in RocksDB in production',
  ],
  [
    'state.backend.incremental',
    'true',
    'the realistic production setting for large state: a checkpoint uploads only new SST files',
  ],
  [
    'execution.checkpointing.dir',
    `file://${REMOTE_MOUNT}/checkpoints`,
    'the stand-in for S3: a throttled FUSE mount shared by all pods (see README)',
  ],
  [
    'state.backend.rocksdb.compression.per.level',
    'NO_COMPRESSION',
    "the example job's padding is zeros; Snappy would shrink it to nothing, real state does not shrink like that",
  ],
  [
    'execution.checkpointing.num-retained',
    '1',
    'default; stated because it bounds what storage holds',
  ],
  [
    'traces.reporter.slf4j.factory.class',
    'org.apache.flink.traces.slf4j.Slf4jTraceReporterFactory',
    'logs the JobInitialization span (restored bytes, download time)',
  ],
  [
    'restart-strategy',
    'fixed-delay, 1 s, 1000 attempts',
    'the default exponential delay would add its own waiting to every figure',
  ],
  [
    'heartbeat.timeout',
    '20 s',
    'the default 50 s would dominate the node-lost figures; a dead TM whose port refuses is found sooner anyway',
  ],
];

function flinkConfiguration(): Record<string, string> {
  return {
    'state.backend.type': 'rocksdb',
    'state.backend.incremental': 'true',
    'execution.checkpointing.dir': `file://${REMOTE_MOUNT}/checkpoints`,
    'execution.checkpointing.num-retained': '1',
    'state.backend.rocksdb.compression.per.level': 'NO_COMPRESSION',
    'traces.reporter.slf4j.factory.class':
      'org.apache.flink.traces.slf4j.Slf4jTraceReporterFactory',
    'restart-strategy.type': 'fixed-delay',
    'restart-strategy.fixed-delay.delay': '1 s',
    'restart-strategy.fixed-delay.attempts': '1000',
    'heartbeat.timeout': '20000',
  };
}

function specInput(variant: string, namespace: string): ClusterSpecInput {
  const deployment = variant === 'C';
  return {
    name: NAME,
    namespace,
    flinkVersion: S.flinkVersion,
    image: S.image,
    mode: 'application',
    job: {
      jarURI: 'local:///opt/flink/usrlib/keyed-counter-job.jar',
      entryClass: 'flinkstandalone.examples.KeyedCounterJob',
      args: [
        '--keys',
        String(KEYS),
        '--rate',
        String(S.rate),
        '--state-bytes',
        String(S.stateBytesPerKey),
        '--report-every',
        '1000000',
        '--checkpoint-interval',
        String(S.checkpointMs),
      ],
      parallelism: S.parallelism,
    },
    jobManager: { resources: { cpu: '250m', memory: '1Gi' } },
    taskManager: {
      workload: deployment ? 'Deployment' : 'StatefulSet',
      replicas: S.parallelism,
      // One slot per TaskManager: a subtask's local state belongs to its slot allocation.
      slots: 1,
      resources: { cpu: '250m', memory: S.taskManagerMemory },
      volumeClaimTemplates: [
        {
          name: 'flink-data',
          storage: `${Math.max(2, Math.ceil((S.stateMiB * 4) / 1024))}Gi`,
        },
      ],
      ...(variant === 'B' && { localRecovery: false }),
    },
    flinkConfiguration: flinkConfiguration(),
  } as ClusterSpecInput;
}

/** The only change to the rendered manifests: the stand-in for S3, a hostPath on every Flink pod. */
function withRemoteStorage(objects: any[], hostDir: string): any[] {
  return objects.map(o => {
    const pod = o.spec?.template?.spec;
    if (!pod || !['Deployment', 'StatefulSet'].includes(o.kind)) return o;
    const copy = JSON.parse(JSON.stringify(o));
    const p = copy.spec.template.spec;
    p.volumes = [
      ...(p.volumes ?? []),
      {
        name: 'remote-storage',
        hostPath: { path: hostDir, type: 'Directory' },
      },
    ];
    for (const c of p.containers) {
      c.volumeMounts = [
        ...(c.volumeMounts ?? []),
        {
          name: 'remote-storage',
          mountPath: REMOTE_MOUNT,
        },
      ];
    }
    return copy;
  });
}

// ------------------------------------------------------------------------------------------
// Small helpers

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));
const started = Date.now();
function log(line: string) {
  const t = ((Date.now() - started) / 1000).toFixed(0).padStart(5);
  process.stdout.write(`[recovery ${t} s] ${line}\n`);
}
const s = (ms: number | undefined) =>
  ms === undefined || Number.isNaN(ms) ? '—' : (ms / 1000).toFixed(1);
const mb = (b: number | undefined) =>
  b === undefined ? '—' : (b / 1e6).toFixed(0);

function stats(values: (number | undefined)[]): string {
  const v = values
    .filter((x): x is number => typeof x === 'number' && !Number.isNaN(x))
    .sort((a, b) => a - b);
  if (!v.length) return '—';
  const med =
    v.length % 2
      ? v[(v.length - 1) / 2]
      : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  return v.length === 1
    ? s(v[0])
    : `${s(v[0])} / ${s(med)} / ${s(v[v.length - 1])}`;
}
function statsMB(values: (number | undefined)[]): string {
  const v = values
    .filter((x): x is number => typeof x === 'number')
    .sort((a, b) => a - b);
  if (!v.length) return '—';
  const med = v[Math.floor((v.length - 1) / 2)];
  return v.length === 1
    ? mb(v[0])
    : `${mb(v[0])} / ${mb(med)} / ${mb(v[v.length - 1])}`;
}

class Stop extends Error {}
let interrupted: string | undefined;
function checkGo() {
  if (interrupted) throw new Stop(`interrupted (${interrupted})`);
  if (S.goFile && !fs.existsSync(S.goFile))
    throw new Stop(`${S.goFile} is gone: the machine is needed elsewhere`);
}

// ------------------------------------------------------------------------------------------
// The stand-in for S3

interface Remote {
  hostDir: string;
  stats(): { bytesRead: number; bytesWritten: number };
  stop(): Promise<void>;
}

async function startRemote(): Promise<Remote> {
  const python = '/usr/bin/python3';
  const probe = await run(python, ['-c', 'import fusepy']).then(
    () => true,
    () => false,
  );
  if (!probe) {
    log(
      'installing Debian packages python3-fusepy and fuse3 (the throttled stand-in for S3)',
    );
    await run(
      'apt-get',
      [
        '-o',
        'DPkg::Lock::Timeout=300',
        'install',
        '-y',
        '-q',
        '--no-install-recommends',
        'python3-fusepy',
        'fuse3',
      ],
      {
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
        maxBuffer: 16 << 20,
      },
    );
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flink-bench-remote-'));
  const data = path.join(dir, 'data');
  const mnt = path.join(dir, 'mnt');
  const statsFile = path.join(dir, 'stats.json');
  fs.mkdirSync(path.join(data, 'checkpoints'), { recursive: true });
  fs.mkdirSync(mnt);
  fs.chmodSync(data, 0o777);
  fs.chmodSync(path.join(data, 'checkpoints'), 0o777);
  const logFd = fs.openSync(path.join(dir, 'throttlefs.log'), 'a');
  const child: ChildProcess = spawn(
    python,
    [
      path.join(HERE, 'throttlefs.py'),
      data,
      mnt,
      String(S.bandwidthMBps),
      statsFile,
    ],
    {
      stdio: ['ignore', logFd, logFd],
    },
  );
  await waitFor(
    'the throttled mount',
    async () =>
      fs.readFileSync('/proc/mounts', 'utf8').includes(` ${mnt} fuse`) &&
      fs.existsSync(statsFile),
    {
      timeoutMs: 15_000,
    },
  );
  // The test environment's own signal handler exits the process: unmount whatever happens.
  process.once('exit', () => {
    try {
      execFileSync('umount', ['-l', mnt], { stdio: 'ignore' });
    } catch {
      // already unmounted
    }
    child.kill('SIGTERM');
  });
  log(
    `stand-in for S3: ${mnt} (backed by ${data}), ${S.bandwidthMBps} MB/s per direction`,
  );
  return {
    hostDir: mnt,
    stats: () => {
      try {
        return JSON.parse(fs.readFileSync(statsFile, 'utf8'));
      } catch {
        return { bytesRead: 0, bytesWritten: 0 };
      }
    },
    stop: async () => {
      await run('umount', ['-l', mnt]).catch(() => undefined);
      child.kill('SIGTERM');
      await sleep(300);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

// ------------------------------------------------------------------------------------------
// Cluster access

interface Ctx {
  plane: ControlPlane;
  registry: ClusterRegistry;
  observer: FlinkObserver;
  remote: Remote;
  namespace: string;
}

function registryFor(plane: ControlPlane): ClusterRegistry {
  return ClusterRegistry.fromConfig(
    new ConfigReader({
      kubernetes: {
        clusterLocatorMethods: [
          {
            type: 'config',
            clusters: [
              {
                name: 'local',
                url: plane.server,
                authProvider: 'serviceAccount',
                serviceAccountToken: plane.admin.token,
                caData: plane.admin.ca,
              },
            ],
          },
        ],
      },
      flinkStandalone: { clusters: [{ name: 'local' }] },
    }),
  );
}

const rest = <T = any>(c: Ctx, endpoint: string) =>
  c.plane.client.get<T>(
    `/api/v1/namespaces/${c.namespace}/services/${NAME}-rest:8081/proxy${endpoint}`,
  );

async function tmPods(c: Ctx): Promise<KubeObject[]> {
  const list = await c.plane.client.list(
    `/api/v1/namespaces/${c.namespace}/pods?labelSelector=${encodeURIComponent('component=taskmanager')}`,
  );
  return list.items.sort((a, b) =>
    a.metadata.name!.localeCompare(b.metadata.name!),
  );
}

async function logOf(c: Ctx, pod: string, previous = false): Promise<string> {
  const { status, text } = await c.plane.client.raw(
    'GET',
    `/api/v1/namespaces/${c.namespace}/pods/${pod}/log${previous ? '?previous=true' : ''}`,
  );
  return status === 200 ? text : '';
}

async function jobState(
  c: Ctx,
): Promise<{ jid: string; running: boolean } | undefined> {
  const { jobs } = await rest<{ jobs: { id: string; status: string }[] }>(
    c,
    '/jobs',
  );
  const job = jobs[0];
  if (!job) return undefined;
  if (job.status !== 'RUNNING') return { jid: job.id, running: false };
  const detail = await rest<{
    vertices: { parallelism: number; tasks: Record<string, number> }[];
  }>(c, `/jobs/${job.id}`);
  // Every subtask RUNNING: a vertex's own status is RUNNING as soon as one subtask runs.
  return {
    jid: job.id,
    running: detail.vertices.every(v => v.tasks?.RUNNING === v.parallelism),
  };
}

interface Checkpoints {
  counts: { completed: number; restored: number; failed: number };
  latest: {
    completed?: {
      id: number;
      trigger_timestamp: number;
      latest_ack_timestamp: number;
      checkpointed_size: number;
      state_size: number;
      end_to_end_duration: number;
    } | null;
    restored?: { id: number; restore_timestamp: number } | null;
  };
}
const checkpoints = (c: Ctx, jid: string) =>
  rest<Checkpoints>(c, `/jobs/${jid}/checkpoints`);

// ------------------------------------------------------------------------------------------
// One failure, measured

interface Measurement {
  variant: string;
  failure: Failure;
  run: number;
  victim: string;
  /** failure → job RUNNING with every task running (after a restore newer than the failure) */
  jobRunningMs?: number;
  /** failure → the replacement TaskManager registered with the JobManager */
  tmRegisteredMs?: number;
  /** the new pod (or restarted container): created/restarted → container running, → Ready */
  podCreatedMs?: number;
  containerStartedMs?: number;
  podReadyMs?: number;
  /** how long the old pod object stayed after the delete (Terminating) */
  terminatingMs?: number;
  /** bytes read through the throttled mount between the failure and RUNNING */
  remoteBytes?: number;
  /** JobInitialization span: restored bytes by location, max download time */
  spanBytes?: Record<string, number>;
  downloadMs?: number;
  /** per TM: 'local' | 'remote' | 'mixed' from RocksDB's restore log line */
  restoreKinds: string[];
  /** records the job processed again: (failure − restored checkpoint's trigger) × rate × parallelism */
  replayedRecords?: number;
  restoredCheckpoint?: number;
  note?: string;
}

async function kill(c: Ctx, pod: KubeObject) {
  const id = pod.status.containerStatuses?.[0]?.containerID?.replace(
    /^containerd:\/\//,
    '',
  );
  if (!id) throw new Error(`no container id for ${pod.metadata.name}`);
  await run('ctr', [
    '--address',
    c.plane.realNode!.cleanup.containerdSocket,
    '-n',
    'k8s.io',
    'tasks',
    'kill',
    '--signal',
    'SIGKILL',
    id,
  ]);
}

async function measure(
  c: Ctx,
  variant: string,
  failure: Failure,
  runNo: number,
  jid: string,
): Promise<Measurement> {
  const client = c.plane.client;
  // A fresh checkpoint after any previous restore, so every run restores a comparable one.
  const before = await checkpoints(c, jid);
  const lastId = before.latest.completed?.id ?? 0;
  await waitFor(
    'a new completed checkpoint',
    async () =>
      ((await checkpoints(c, jid)).latest.completed?.id ?? 0) > lastId,
    { timeoutMs: 300_000, intervalMs: 500 },
  );
  const pods = await tmPods(c);
  const victim = pods[(runNo + 1) % pods.length];
  const victimName = victim.metadata.name!;
  const oldUid = victim.metadata.uid;
  const oldRestarts = victim.status.containerStatuses?.[0]?.restartCount ?? 0;
  const restoredBefore = before.latest.restored?.id;
  const countsBefore = (await checkpoints(c, jid)).counts.restored;
  const remoteBefore = c.remote.stats().bytesRead;
  const m: Measurement = {
    variant,
    failure,
    run: runNo,
    victim: victimName,
    restoreKinds: [],
  };
  log(`${variant} ${failure} run ${runNo}: victim ${victimName}`);

  let oldGoneAt: number | undefined;
  let nodeBackAt: number | undefined;
  // The node goes silent first; the failure instant is the kill.
  if (failure === 'node') await c.plane.realNode!.stopKubelet();
  const t0 = Date.now();
  if (failure === 'kill') {
    await kill(c, victim);
  } else if (failure === 'delete') {
    await client.delete(`/api/v1/namespaces/${c.namespace}/pods/${victimName}`);
  } else {
    try {
      await kill(c, victim);
      await client.delete(
        `/api/v1/namespaces/${c.namespace}/pods/${victimName}`,
        { gracePeriodSeconds: 0 },
      );
      oldGoneAt = Date.now();
      await sleep(S.nodeDownS * 1000);
    } finally {
      // The node comes back whatever happened (a run that stops here must not leave it away).
      await c.plane.realNode!.startKubelet();
    }
    nodeBackAt = Date.now();
  }

  // Poll everything until the job runs again with a newer restore.
  let newPod: KubeObject | undefined;
  let runningSince: number | undefined;
  let restoreTimestamp: number | undefined;
  const deadline = Date.now() + 600_000;
  while (Date.now() < deadline) {
    const now = Date.now() - t0;
    const current = (await tmPods(c).catch(() => [])) as KubeObject[];
    if (failure !== 'kill') {
      if (
        oldGoneAt === undefined &&
        !current.some(p => p.metadata.uid === oldUid)
      )
        oldGoneAt = Date.now();
      const fresh = current.find(
        p =>
          p.metadata.uid !== oldUid &&
          !pods.some(o => o.metadata.uid === p.metadata.uid),
      );
      if (fresh) {
        newPod = fresh;
        m.podCreatedMs ??= now;
      }
    } else {
      const p = current.find(x => x.metadata.uid === oldUid);
      if (
        p &&
        (p.status.containerStatuses?.[0]?.restartCount ?? 0) > oldRestarts
      ) {
        newPod = p;
        m.podCreatedMs ??= now; // the restarted container's creation stands in for the pod's
      }
    }
    if (newPod) {
      const cs = newPod.status?.containerStatuses?.[0];
      const restarted =
        failure !== 'kill' || (cs?.restartCount ?? 0) > oldRestarts;
      if (restarted && cs?.state?.running) m.containerStartedMs ??= now;
      if (restarted && cs?.ready) m.podReadyMs ??= now;
    }
    const cp = await checkpoints(c, jid).catch(() => undefined);
    const job = await jobState(c).catch(() => undefined);
    // RUNNING with every task (one slot per TaskManager: both TaskManagers serve again), after a
    // restore, seen twice in a row (a second failover right after the first is not recovery).
    if (
      cp &&
      cp.counts.restored > countsBefore &&
      job?.running &&
      m.containerStartedMs !== undefined
    ) {
      if (runningSince === undefined) {
        runningSince = now;
        m.restoredCheckpoint = cp.latest.restored?.id;
        restoreTimestamp = cp.latest.restored?.restore_timestamp;
      } else {
        m.jobRunningMs = runningSince;
        break;
      }
    } else runningSince = undefined;
    await sleep(250);
  }
  if (m.jobRunningMs === undefined)
    m.note = 'job not RUNNING within 10 minutes';
  if (failure !== 'kill' && oldGoneAt !== undefined)
    m.terminatingMs = oldGoneAt - t0;
  if (nodeBackAt) m.note = `node back after ${s(nodeBackAt - t0)} s`;
  m.remoteBytes = c.remote.stats().bytesRead - remoteBefore;

  // The replacement TaskManager's own clock for its registration (same host clock, UTC).
  const replacement =
    failure === 'kill' || variant !== 'C' ? victimName : newPod?.metadata.name;
  if (replacement) {
    const line = (await logOf(c, replacement))
      .split('\n')
      .find(l => l.includes('Successful registration at resource manager'));
    const at = line && logTimestamp(line);
    if (at) m.tmRegisteredMs = at - t0;
  }
  // Which checkpoint, and what it cost to replay.
  if (
    m.restoredCheckpoint !== undefined &&
    m.restoredCheckpoint !== restoredBefore
  ) {
    const detail = await rest<{ trigger_timestamp: number }>(
      c,
      `/jobs/${jid}/checkpoints/details/${m.restoredCheckpoint}`,
    ).catch(() => undefined);
    if (detail)
      m.replayedRecords = Math.round(
        ((t0 - detail.trigger_timestamp) / 1000) * S.rate * S.parallelism,
      );
  }
  // Flink's own account: each TaskManager's restore lines (read as the observer reads them),
  // the JobInitialization span.
  await sleep(1000);
  for (const p of restoreTimestamp === undefined ? [] : await tmPods(c)) {
    const text = await logOf(c, p.metadata.name!);
    const source = taskManagerRestoreSource(text, restoreTimestamp!);
    // Kept for whoever wants to see why a restore went where it went.
    fs.mkdirSync(S.logDir, { recursive: true });
    fs.writeFileSync(
      path.join(
        S.logDir,
        `${variant}-${failure}-${runNo}-${p.metadata.name}.log`,
      ),
      text,
    );
    m.restoreKinds.push(
      `${p.metadata.name!.replace(`${NAME}-taskmanager-`, 'tm-')}:${source}`,
    );
  }
  const jm = (
    await c.plane.client.list(
      `/api/v1/namespaces/${c.namespace}/pods?labelSelector=${encodeURIComponent('component=jobmanager')}`,
    )
  ).items[0];
  const jmLog = jm ? await logOf(c, jm.metadata.name!) : '';
  const spans = jmLog
    .split('\n')
    .filter(l => l.includes('name=JobInitialization'));
  const span = spans[spans.length - 1];
  if (span) {
    m.spanBytes = {};
    for (const match of span.matchAll(
      /sumRestoredStateSizeBytes\.(\w+)=(\d+)/g,
    ))
      m.spanBytes[match[1]] = Number(match[2]);
    const dl = /maxDownloadStateDurationMs=(\d+)/.exec(span);
    if (dl) m.downloadMs = Number(dl[1]);
  }
  log(
    `  → RUNNING ${s(m.jobRunningMs)} s, TM registered ${s(m.tmRegisteredMs)} s, container started ${s(m.containerStartedMs)} s, ` +
      `remote read ${mb(m.remoteBytes)} MB, restores [${m.restoreKinds.join(' ')}], replayed ≈ ${m.replayedRecords ?? '—'}${m.note ? ` (${m.note})` : ''}`,
  );
  return m;
}

// ------------------------------------------------------------------------------------------
// One variant: deploy, fill the state, fail it runs × failures times

async function freshNamespace(plane: ControlPlane, prefix: string) {
  return createTestNamespace(
    plane.client,
    prefix,
    plane.realNode!.namespaceAnnotations,
  );
}

async function dropNamespace(plane: ControlPlane, namespace: string) {
  await plane.client.delete(`/api/v1/namespaces/${namespace}`);
  await waitFor(
    `pods of ${namespace} gone`,
    async () =>
      (await plane.client.list(`/api/v1/namespaces/${namespace}/pods`)).items
        .length === 0,
    {
      timeoutMs: 120_000,
      intervalMs: 500,
    },
  );
}

async function runVariant(
  base: Omit<Ctx, 'namespace'>,
  variant: string,
  out: Measurement[],
) {
  const namespace = await freshNamespace(
    base.plane,
    `rec-${variant.toLowerCase()}`,
  );
  const c: Ctx = { ...base, namespace };
  try {
    const spec = parseClusterSpec(specInput(variant, namespace));
    const objects = withRemoteStorage(
      renderCluster(spec) as any[],
      c.remote.hostDir,
    );
    await applyCluster(c.registry.get('local'), objects as KubernetesObject[]);
    const t = Date.now();
    await waitForReady(
      c.observer,
      { cluster: 'local', namespace, name: NAME },
      { timeoutMs: 300_000, pollMs: 500 },
    );
    const { jid } = await waitFor(
      'the job running',
      async () => {
        const j = await jobState(c).catch(() => undefined);
        return j?.running ? j : undefined;
      },
      { timeoutMs: 300_000, intervalMs: 1000 },
    );
    log(
      `${variant}: cluster READY and job RUNNING in ${s(Date.now() - t)} s; filling ${S.stateMiB} MiB of state (${KEYS} keys × ${S.stateBytesPerKey} B)`,
    );
    const full = await waitFor(
      'the state filled and checkpointed',
      async () => {
        checkGo();
        const cp = (await checkpoints(c, jid)).latest.completed;
        return cp && cp.state_size >= S.stateMiB * 1024 * 1024 * 0.95
          ? cp
          : undefined;
      },
      { timeoutMs: 900_000, intervalMs: 2000 },
    );
    log(
      `${variant}: checkpoint ${full.id}: full size ${mb(full.state_size)} MB, uploaded ${mb(full.checkpointed_size)} MB, ${s(full.end_to_end_duration)} s`,
    );
    for (const failure of S.failures) {
      for (let r = 1; r <= S.runs; r++) {
        checkGo();
        out.push(await measure(c, variant, failure, r, jid));
      }
    }
  } finally {
    await dropNamespace(base.plane, namespace).catch(e =>
      log(`cleanup of ${namespace}: ${e.message}`),
    );
  }
}

// ------------------------------------------------------------------------------------------
// Pod start: StatefulSet vs Deployment TaskManagers at a few replica counts

interface PodStart {
  kind: string;
  replicas: number;
  /** apply → last TM pod container running / Ready (max over pods) */
  allStartedMs?: number;
  allReadyMs?: number;
  /** per pod: created → container running (median over pods) */
  createdToStartedMs?: number;
  /** deleting one TM pod: delete → object gone; → replacement Ready */
  terminatingMs?: number;
  replacementReadyMs?: number;
}

/** The TaskManager workloads compared: the StatefulSet under both pod management policies. */
const POD_START_KINDS = [
  {
    label: 'StatefulSet, Parallel (default)',
    workload: 'StatefulSet',
    policy: 'Parallel',
    prefix: 'sts-par',
  },
  {
    label: 'StatefulSet, OrderedReady',
    workload: 'StatefulSet',
    policy: 'OrderedReady',
    prefix: 'sts-ord',
  },
  {
    label: 'Deployment',
    workload: 'Deployment',
    policy: undefined,
    prefix: 'dep',
  },
] as const;

async function podStart(
  base: Omit<Ctx, 'namespace'>,
  kind: (typeof POD_START_KINDS)[number],
  replicas: number,
): Promise<PodStart> {
  const namespace = await freshNamespace(base.plane, `start-${kind.prefix}`);
  const c: Ctx = { ...base, namespace };
  const r: PodStart = { kind: kind.label, replicas };
  try {
    const spec = parseClusterSpec({
      name: NAME,
      namespace,
      flinkVersion: S.flinkVersion,
      jobManager: { resources: { cpu: '100m', memory: '1Gi' } },
      taskManager: {
        workload: kind.workload,
        ...(kind.policy && { podManagementPolicy: kind.policy }),
        replicas,
        slots: 1,
        resources: { cpu: '100m', memory: '1Gi' },
        volumeClaimTemplates: [{ name: 'flink-data', storage: '1Gi' }],
      },
    } as ClusterSpecInput);
    const t0 = Date.now();
    await applyCluster(
      c.registry.get('local'),
      renderCluster(spec) as KubernetesObject[],
    );
    const seen = new Map<
      string,
      { created: number; started?: number; ready?: number }
    >();
    await waitFor(
      'TaskManagers Ready',
      async () => {
        const pods = await tmPods(c);
        for (const p of pods) {
          const e = seen.get(p.metadata.uid!) ?? { created: Date.now() - t0 };
          const cs = p.status?.containerStatuses?.[0];
          if (cs?.state?.running) e.started ??= Date.now() - t0;
          if (cs?.ready) e.ready ??= Date.now() - t0;
          seen.set(p.metadata.uid!, e);
        }
        return (
          pods.length === replicas &&
          [...seen.values()].filter(e => e.ready !== undefined).length >=
            replicas
        );
      },
      { timeoutMs: 300_000, intervalMs: 200 },
    );
    const v = [...seen.values()];
    r.allStartedMs = Math.max(...v.map(e => e.started ?? NaN));
    r.allReadyMs = Math.max(...v.map(e => e.ready ?? NaN));
    const d = v.map(e => (e.started ?? NaN) - e.created).sort((a, b) => a - b);
    r.createdToStartedMs = d[Math.floor((d.length - 1) / 2)];
    // Terminating: delete one TM pod (default grace period), time until it is gone and its replacement Ready.
    const victim = (await tmPods(c))[0];
    const t1 = Date.now();
    await c.plane.client.delete(
      `/api/v1/namespaces/${namespace}/pods/${victim.metadata.name}`,
    );
    await waitFor(
      'the replacement Ready',
      async () => {
        const pods = await tmPods(c);
        if (
          r.terminatingMs === undefined &&
          !pods.some(p => p.metadata.uid === victim.metadata.uid)
        )
          r.terminatingMs = Date.now() - t1;
        const fresh = pods.find(
          p =>
            p.metadata.uid !== victim.metadata.uid &&
            !seen.has(p.metadata.uid!),
        );
        if (fresh?.status?.containerStatuses?.[0]?.ready)
          r.replacementReadyMs ??= Date.now() - t1;
        return (
          r.terminatingMs !== undefined && r.replacementReadyMs !== undefined
        );
      },
      { timeoutMs: 180_000, intervalMs: 200 },
    );
    log(
      `pod start ${kind.label} ×${replicas}: all started ${s(r.allStartedMs)} s, all Ready ${s(r.allReadyMs)} s; one pod deleted: Terminating ${s(r.terminatingMs)} s, replacement Ready ${s(r.replacementReadyMs)} s`,
    );
  } finally {
    await dropNamespace(base.plane, namespace).catch(e =>
      log(`cleanup of ${namespace}: ${e.message}`),
    );
  }
  return r;
}

// ------------------------------------------------------------------------------------------
// Report

function settingsText(machine: string): string[] {
  return [
    `- Date: ${new Date().toISOString()}; machine: ${machine}`,
    `- Flink ${S.flinkVersion} (image \`${S.image}\`, the example job \`KeyedCounterJob\`), parallelism ${S.parallelism}, ${S.parallelism} TaskManagers × 1 slot, TM memory ${S.taskManagerMemory}, CPU request 250m (not enforced)`,
    `- Keyed state ${S.stateMiB} MiB (${KEYS} keys × ${S.stateBytesPerKey} B), RocksDB, incremental checkpoints every ${S.checkpointMs / 1000} s, ${S.rate} records/s per subtask`,
    `- Remote checkpoint storage: a FUSE pass-through mount throttled to ${S.bandwidthMBps} MB/s per direction, shared by all pods, page cache bypassed (direct_io)`,
    `- Runs per cell: ${S.runs}; node lost: the node stays away ${S.nodeDownS} s`,
    `- Settings changed from the product's defaults:`,
    ...CHANGED.map(([k, v, why]) => `  - \`${k}: ${v}\`: ${why}`),
  ];
}

function tables(ms: Measurement[], starts: PodStart[]): string[] {
  const lines = [
    '| variant | failure | runs | failure → job RUNNING (s) | → TM registered (s) | new pod/container → running (s) | old pod gone (s) | read from remote (MB) | restore per TM (last run) | replayed records (≈) |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const v of S.variants) {
    for (const f of S.failures) {
      const cell = ms.filter(m => m.variant === v && m.failure === f);
      if (!cell.length) continue;
      const last = cell[cell.length - 1];
      lines.push(
        `| ${v} | ${f} | ${cell.length} | ${stats(cell.map(m => m.jobRunningMs))} | ${stats(cell.map(m => m.tmRegisteredMs))} | ${stats(cell.map(m => (m.containerStartedMs ?? NaN) - (m.podCreatedMs ?? NaN)))} | ${stats(cell.map(m => m.terminatingMs))} | ${statsMB(cell.map(m => m.remoteBytes))} | ${last.restoreKinds.join(' ') || '—'} | ${stats(cell.map(m => (m.replayedRecords === undefined ? undefined : m.replayedRecords * 1000))).replace(/\.0/g, '')} |`,
      );
    }
  }
  lines.push(
    '',
    'Cells: min / median / max. Times from the failure (the SIGKILL, the delete call, the kubelet stop).',
  );
  if (starts.length) {
    lines.push(
      '',
      '| TM workload | replicas | apply → all TM containers running (s) | apply → all TMs Ready (s) | pod created → running, median (s) | one pod deleted: Terminating (s) | → replacement Ready (s) |',
      '| --- | --- | --- | --- | --- | --- | --- |',
      ...starts.map(
        p =>
          `| ${p.kind} | ${p.replicas} | ${s(p.allStartedMs)} | ${s(p.allReadyMs)} | ${s(p.createdToStartedMs)} | ${s(p.terminatingMs)} | ${s(p.replacementReadyMs)} |`,
      ),
    );
  }
  return lines;
}

function summaryLines(ms: Measurement[]): string[] {
  return S.variants.map(v => {
    const parts = S.failures.map(f => {
      const cell = ms.filter(m => m.variant === v && m.failure === f);
      return `${f} ${stats(cell.map(m => m.jobRunningMs))} s (remote ${statsMB(cell.map(m => m.remoteBytes))} MB)`;
    });
    return `${v} ${VARIANT_TEXT[v]}: ${parts.join('; ')}`;
  });
}

async function machineText(): Promise<string> {
  const cpus = os.cpus();
  // The load average says whether something else shared the 2 cores during the run.
  const load = os
    .loadavg()
    .map(l => l.toFixed(1))
    .join(' ');
  return `${os.hostname()}, ${cpus.length} × ${cpus[0]?.model ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Linux ${os.release()}, Node ${process.version}, load average ${load} (1/5/15 min)`;
}

function writeResults(
  ms: Measurement[],
  starts: PodStart[],
  machine: string,
  partial: string | undefined,
) {
  const text = [
    '# Recovery benchmark: latest run',
    '',
    `Written by \`npm run bench:recovery\`${partial ? ` — **partial run: ${partial}**` : ''}.`,
    '',
    '## Settings',
    ...settingsText(machine),
    `- Load average when the run ended: ${os
      .loadavg()
      .map(l => l.toFixed(1))
      .join(' ')} (1/5/15 min)`,
    '',
    '## Failures',
    ...S.failures.map(f => `- **${f}**: ${FAILURE_TEXT[f]}`),
    '',
    '## Variants',
    ...S.variants.map(v => `- **${v}**: ${VARIANT_TEXT[v]}`),
    '',
    '## Summary (median seconds from the failure to the job RUNNING again)',
    ...summaryLines(ms).map(l => `- ${l}`),
    '',
    '## Table',
    ...tables(ms, starts),
    '',
    '## Raw measurements',
    '```json',
    JSON.stringify({ recovery: ms, podStart: starts }, null, 1),
    '```',
    '',
  ].join('\n');
  fs.writeFileSync(S.results, text);
  log(`wrote ${S.results}`);
}

// ------------------------------------------------------------------------------------------

async function main() {
  const machine = await machineText();
  log('settings:');
  for (const l of settingsText(machine)) log(`  ${l}`);
  if (S.dryRun) {
    for (const v of S.variants) {
      const objects = withRemoteStorage(
        renderCluster(parseClusterSpec(specInput(v, 'bench-dry-run'))) as any[],
        '/tmp/remote',
      );
      const file = path.join(os.tmpdir(), `bench-recovery-${v}.json`);
      fs.writeFileSync(file, JSON.stringify(objects, null, 1));
      const tm = objects.find(
        o =>
          ['StatefulSet', 'Deployment'].includes(o.kind) &&
          o.metadata.labels?.component === 'taskmanager',
      );
      log(
        `dry run ${v}: ${objects.length} objects (${objects.map(o => o.kind).join(', ')}); TM ${tm.kind}, args ${JSON.stringify(tm.spec.template.spec.containers[0].args)}; written to ${file}`,
      );
    }
    return;
  }
  if (S.goFile) {
    log(`waiting for ${S.goFile} (the machine's real node is shared)`);
    await waitFor(`${S.goFile}`, () => fs.existsSync(S.goFile!), {
      timeoutMs: 24 * 3600_000,
      intervalMs: 5000,
    });
  }
  const remote = await startRemote();
  let plane: ControlPlane | undefined;
  const ms: Measurement[] = [];
  const starts: PodStart[] = [];
  let partial: string | undefined;
  // Ctrl-C or SIGTERM: stop at the next check, then report what was measured and clean up.
  const stopAfterStep = (signal: NodeJS.Signals) => {
    interrupted = signal;
    log(`${signal}: stopping after the current step`);
  };
  process.once('SIGINT', stopAfterStep);
  process.once('SIGTERM', stopAfterStep);
  try {
    log('starting the control plane with a real node (flink 2.2 images)');
    plane = await startControlPlane({
      nodes: 1,
      realNode: { flinkVersions: [S.flinkVersion] },
      log: l => log(`  plane: ${l}`),
      readyTimeoutMs: 180_000,
    });
    const registry = registryFor(plane);
    const observer = new FlinkObserver({ registry });
    const base = { plane, registry, observer, remote };
    try {
      for (const v of S.variants) {
        checkGo();
        await runVariant(base, v, ms);
      }
      for (const kind of POD_START_KINDS) {
        for (const n of S.podStartReplicas) {
          checkGo();
          starts.push(await podStart(base, kind, n));
        }
      }
    } finally {
      observer.close();
    }
  } catch (error) {
    partial =
      error instanceof Stop
        ? error.message
        : `failed: ${(error as Error).message.split('\n')[0]}`;
    log(`stopped early: ${(error as Error).stack ?? error}`);
  } finally {
    const table = tables(ms, starts);
    process.stdout.write(
      `\n${summaryLines(ms).join('\n')}\n\n${table.join('\n')}\n\n`,
    );
    if (ms.length || starts.length) writeResults(ms, starts, machine, partial);
    await plane?.stop().catch(e => log(`stopping the plane: ${e.message}`));
    await remote.stop();
    log(`done in ${s(Date.now() - started)} s`);
  }
  if (partial) process.exitCode = 1;
}

main().catch(error => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
