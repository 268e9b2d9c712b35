import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { cacheDir, packageFile } from './paths';
import { freePorts } from './ports';
import {
  FatalError,
  ManagedProcess,
  onProcessExit,
  removeWorkDir,
  waitFor,
} from './processes';
import { cleanUpRun, removeRunState, RunState, writeRunState } from './state';

const run = promisify(execFile);

/** Flink versions whose runtime jars the Maven registry serves (flink-dist is not served). */
export const FLINK_VERSIONS: Record<string, string> = {
  '2.2': '2.2.1',
  '2.1': '2.1.3',
  '2.0': '2.0.2',
  '1.20': '1.20.5',
};
export const DEFAULT_FLINK_VERSION = '2.2.1';

export interface FlinkSessionOptions {
  /** "2.2", "1.20" or a full version such as "2.2.1". Default 2.2.1. */
  version?: string;
  /** TaskManagers started with the JobManager. Default 1. */
  taskManagers?: number;
  slotsPerTaskManager?: number;
  /** Extra Flink configuration keys. */
  configuration?: Record<string, string | number | boolean>;
  log?: (line: string) => void;
  readyTimeoutMs?: number;
}

export interface FlinkSession {
  version: string;
  /** http://127.0.0.1:<port> — the JobManager's REST endpoint. */
  restUrl: string;
  /** Resource ids of the TaskManagers, by index (killed ones included). */
  taskManagerIds: string[];
  /** SIGKILLs TaskManager i (like a lost pod); /overview drops it after the heartbeat timeout. */
  killTaskManager(index: number): Promise<void>;
  /** Starts one more TaskManager and returns its index once it is registered. */
  startTaskManager(): Promise<number>;
  /** GET a REST path (e.g. "/overview") and parse the JSON. */
  rest<T = any>(restPath: string): Promise<T>;
  stop(): Promise<void>;
}

export function resolveFlinkVersion(version = DEFAULT_FLINK_VERSION): string {
  return FLINK_VERSIONS[version] ?? version;
}

const POM = packageFile('flink', 'pom.xml');

/** The runtime classpath of a Flink version, assembled once with Maven into the cache. */
export async function ensureFlinkClasspath(
  version: string,
  log: (line: string) => void = () => {},
): Promise<string> {
  const lib = path.join(cacheDir(), 'flink', version, 'lib');
  const done = path.join(lib, '.complete');
  if (fs.existsSync(done)) return lib;
  const started = Date.now();
  log(`assembling the Flink ${version} classpath with Maven into ${lib}`);
  const tmp = `${lib}.tmp-${process.pid}`;
  await run(
    'mvn',
    [
      '-B',
      '-q',
      '-f',
      POM,
      'dependency:copy-dependencies',
      `-Dflink.version=${version}`,
      `-DoutputDirectory=${tmp}`,
      '-DincludeScope=runtime',
    ],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  fs.rmSync(lib, { recursive: true, force: true });
  fs.renameSync(tmp, lib);
  fs.writeFileSync(done, `${new Date().toISOString()}\n`);
  log(
    `Flink ${version} classpath ready in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  return lib;
}

/** What Flink's own scripts add for Java 17 (env.java.opts.all in the distribution's config). */
const JAVA_17_OPTS = [
  '--add-exports=java.base/sun.net.util=ALL-UNNAMED',
  '--add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED',
  '--add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED',
  ...[
    'java.lang',
    'java.net',
    'java.io',
    'java.nio',
    'sun.nio.ch',
    'java.lang.reflect',
    'java.text',
    'java.time',
    'java.util',
    'java.util.concurrent',
    'java.util.concurrent.atomic',
    'java.util.concurrent.locks',
  ].map(pkg => `--add-opens=java.base/${pkg}=ALL-UNNAMED`),
];

/**
 * TaskManagerRunner started without Flink's scripts needs every memory component spelled out
 * (the scripts compute them with BashJavaUtils); these fit the JVM flags in taskManagerJvm().
 */
const TM_MEMORY = {
  'taskmanager.memory.framework.heap.size': '64m',
  'taskmanager.memory.task.heap.size': '96m',
  'taskmanager.memory.framework.off-heap.size': '64m',
  'taskmanager.memory.task.off-heap.size': '0m',
  'taskmanager.memory.managed.size': '32m',
  'taskmanager.memory.network.min': '32m',
  'taskmanager.memory.network.max': '32m',
  'taskmanager.memory.jvm-metaspace.size': '128m',
  'taskmanager.memory.jvm-overhead.min': '64m',
  'taskmanager.memory.jvm-overhead.max': '64m',
  'taskmanager.cpu.cores': '1',
};
const TM_JVM = [
  '-Xms160m',
  '-Xmx160m',
  '-XX:MaxDirectMemorySize=96m',
  '-XX:MaxMetaspaceSize=128m',
];
const JM_JVM = ['-Xms128m', '-Xmx256m', '-XX:MaxMetaspaceSize=192m'];
// Fast start on 2 cores matters more than peak throughput here.
const COMMON_JVM = ['-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1'];

const LOG4J = `rootLogger.level = INFO
rootLogger.appenderRef.file.ref = File
appender.file.name = File
appender.file.type = File
appender.file.fileName = \${sys:log.file}
appender.file.layout.type = PatternLayout
appender.file.layout.pattern = %d{HH:mm:ss,SSS} %-5p %c{1} - %m%n
logger.pekko.name = org.apache.pekko
logger.pekko.level = WARN
logger.akka.name = akka
logger.akka.level = WARN
`;

function configuration(
  ports: { rpc: number; rest: number; blob: number },
  options: FlinkSessionOptions,
): Record<string, string> {
  const config: Record<string, string | number | boolean> = {
    'jobmanager.rpc.address': '127.0.0.1',
    'jobmanager.rpc.port': ports.rpc,
    'jobmanager.bind-host': '127.0.0.1',
    'rest.address': '127.0.0.1',
    'rest.bind-address': '127.0.0.1',
    'rest.port': ports.rest,
    'blob.server.port': ports.blob,
    'taskmanager.host': '127.0.0.1',
    'taskmanager.bind-host': '127.0.0.1',
    'taskmanager.rpc.port': 0,
    'taskmanager.data.port': 0,
    'taskmanager.numberOfTaskSlots': options.slotsPerTaskManager ?? 1,
    // A killed TaskManager must leave /overview within seconds, not the default 50 s.
    'heartbeat.interval': 1000,
    'heartbeat.timeout': 5000,
    ...TM_MEMORY,
    ...options.configuration,
  };
  return Object.fromEntries(
    Object.entries(config).map(([k, v]) => [k, String(v)]),
  );
}

/** Flink 2.x reads config.yaml; 1.x reads flink-conf.yaml. Flat "key: value" lines suit both. */
function writeConfDir(
  dir: string,
  version: string,
  config: Record<string, string>,
): void {
  fs.mkdirSync(dir, { recursive: true });
  const file =
    Number(version.split('.')[0]) >= 2 ? 'config.yaml' : 'flink-conf.yaml';
  // Unquoted: the legacy flink-conf.yaml parser keeps quotes as part of the value.
  const lines = Object.entries(config).map(([k, v]) => `${k}: ${v}`);
  fs.writeFileSync(path.join(dir, file), `${lines.join('\n')}\n`);
  fs.writeFileSync(path.join(dir, 'log4j.properties'), LOG4J);
}

function javaBinary(): string {
  return process.env.JAVA_HOME
    ? path.join(process.env.JAVA_HOME, 'bin', 'java')
    : 'java';
}

class Session {
  readonly taskManagers: ManagedProcess[] = [];
  readonly taskManagerIds: string[] = [];
  readonly killed = new Set<number>();
  jobManager!: ManagedProcess;
  private unregisterExit: () => void = () => {};
  readonly stateId: string;

  constructor(
    readonly workDir: string,
    readonly classpath: string,
    readonly slotsPerTaskManager: number,
    readonly restUrl: string,
  ) {
    this.stateId = `flink-session-${process.pid}-${new URL(restUrl).port}`;
  }

  private java(
    name: string,
    mainClass: string,
    jvm: string[],
    args: string[],
  ): ManagedProcess {
    const logFile = path.join(this.workDir, 'logs', `${name}.log`);
    return ManagedProcess.start({
      name,
      command: javaBinary(),
      args: [
        ...COMMON_JVM,
        ...jvm,
        ...JAVA_17_OPTS,
        // Flink's temporary files (io.tmp.dirs defaults to it: the RPC system's jar, the JAAS
        // file, I/O and shuffle folders) in the work folder, removed with it, not in /tmp.
        `-Djava.io.tmpdir=${path.join(this.workDir, 'tmp')}`,
        `-Dlog.file=${logFile}`,
        `-Dlog4j.configurationFile=file:${path.join(this.workDir, 'conf', 'log4j.properties')}`,
        '-cp',
        `${this.classpath}/*`,
        mainClass,
        '--configDir',
        path.join(this.workDir, 'conf'),
        ...args,
      ],
      logFile: path.join(this.workDir, 'logs', `${name}.out`),
      // Flink loads ./plugins relative to its working directory: keep it inside the work folder.
      cwd: this.workDir,
      env: { FLINK_PLUGINS_DIR: path.join(this.workDir, 'plugins') },
    });
  }

  startJobManager(): void {
    this.jobManager = this.java(
      'jobmanager',
      'org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint',
      JM_JVM,
      [],
    );
    this.saveState();
  }

  /** Starts TaskManager number `index` with a stable resource id, as a StatefulSet pod would have. */
  startTaskManager(): number {
    const index = this.taskManagers.length;
    const id = `taskmanager-${index}`;
    this.taskManagers.push(
      this.java(
        id,
        'org.apache.flink.runtime.taskexecutor.TaskManagerRunner',
        TM_JVM,
        [`-Dtaskmanager.resource-id=${id}`],
      ),
    );
    this.taskManagerIds.push(id);
    this.saveState();
    return index;
  }

  async rest<T>(restPath: string): Promise<T> {
    const res = await fetch(new URL(restPath, this.restUrl), {
      signal: AbortSignal.timeout(5000),
    });
    if (!res.ok)
      throw new Error(`GET ${restPath}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  }

  async waitForTaskManagers(count: number, timeoutMs: number): Promise<void> {
    await waitFor(
      `${count} TaskManagers registered at ${this.restUrl}`,
      async () => {
        const expectedAlive = this.taskManagers.filter(
          (_, i) => !this.killed.has(i),
        );
        for (const proc of [this.jobManager, ...expectedAlive]) {
          if (!proc.alive)
            throw new FatalError(
              `${proc.name} exited:\n${proc.logTail()}\n${this.logTail(proc.name)}`,
            );
        }
        // A TaskManager is counted before its slots are reported: wait for both.
        const overview = await this.rest<{
          taskmanagers: number;
          'slots-total': number;
        }>('/overview');
        return (
          overview.taskmanagers === count &&
          overview['slots-total'] === count * this.slotsPerTaskManager
        );
      },
      { timeoutMs, intervalMs: 250 },
    );
  }

  /** The last lines of a process's Flink log file (its stdout is nearly empty). */
  logTail(name: string, lines = 30): string {
    try {
      const text = fs.readFileSync(
        path.join(this.workDir, 'logs', `${name}.log`),
        'utf8',
      );
      return text.split('\n').slice(-lines).join('\n');
    } catch {
      return '';
    }
  }

  liveTaskManagers(): number {
    return this.taskManagers.filter(p => p.alive).length;
  }

  state(): RunState {
    return {
      kind: 'flink-session',
      ownerPid: process.pid,
      workDir: this.workDir,
      processes: [this.jobManager, ...this.taskManagers]
        .filter(Boolean)
        .map(p => ({ name: p.name, pid: p.pid })),
      restUrl: this.restUrl,
      startedAt: new Date().toISOString(),
    };
  }

  saveState(): void {
    writeRunState(this.stateId, this.state());
  }

  guardExit(): void {
    this.unregisterExit = onProcessExit(() =>
      cleanUpRun(this.stateId, this.state()),
    );
  }

  async stop(): Promise<void> {
    await Promise.all(this.taskManagers.map(p => p.stop(3000)));
    await this.jobManager?.stop(3000);
    removeWorkDir(this.workDir);
    removeRunState(this.stateId);
    this.unregisterExit();
  }
}

/**
 * Starts a real Flink session cluster (StandaloneSessionClusterEntrypoint + TaskManagerRunner)
 * on 127.0.0.1 from the published runtime jars, and resolves when all TaskManagers registered.
 */
export async function startFlinkSession(
  options: FlinkSessionOptions = {},
): Promise<FlinkSession> {
  const version = resolveFlinkVersion(options.version);
  const timeoutMs = options.readyTimeoutMs ?? 120_000;
  const count = options.taskManagers ?? 1;
  const classpath = await ensureFlinkClasspath(version, options.log);
  const workDir = fs.mkdtempSync(
    path.join(os.tmpdir(), 'flink-standalone-flink-'),
  );
  fs.mkdirSync(path.join(workDir, 'logs'));
  fs.mkdirSync(path.join(workDir, 'plugins'));
  fs.mkdirSync(path.join(workDir, 'tmp'));
  const [rpc, rest, blob] = await freePorts(3);
  writeConfDir(
    path.join(workDir, 'conf'),
    version,
    configuration({ rpc, rest, blob }, options),
  );
  const session = new Session(
    workDir,
    classpath,
    options.slotsPerTaskManager ?? 1,
    `http://127.0.0.1:${rest}`,
  );
  session.guardExit();
  try {
    session.startJobManager();
    for (let i = 0; i < count; i++) session.startTaskManager();
    await session.waitForTaskManagers(count, timeoutMs);
  } catch (error) {
    await session.stop();
    throw error;
  }
  return {
    version,
    restUrl: session.restUrl,
    taskManagerIds: session.taskManagerIds,
    rest: restPath => session.rest(restPath),
    killTaskManager: async index => {
      const proc = session.taskManagers[index];
      if (!proc) throw new Error(`no TaskManager ${index}`);
      session.killed.add(index);
      await proc.kill();
    },
    startTaskManager: async () => {
      const index = session.startTaskManager();
      await session.waitForTaskManagers(session.liveTaskManagers(), timeoutMs);
      return index;
    },
    stop: () => session.stop(),
  };
}
