/**
 * Where the machine's cores went during a phase, from /proc (Linux): the backend's main thread
 * (its event loop, where status requests wait), the rest of the benchmark process (the churn's
 * and API proxy's threads, GC and libuv helpers), the load generator, and each process of the
 * control plane. A status request waits whenever the backend's thread is runnable but a core is busy
 * elsewhere; these figures say how busy "elsewhere" was.
 */
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  rmdirSync,
  writeFileSync,
} from 'node:fs';
import { cpus, setPriority } from 'node:os';

/** The name under which the backend's main thread is reported. */
export const BACKEND_MAIN_THREAD = 'backend main thread';

/** Linux reports CPU time in USER_HZ ticks, 100 per second on every common architecture. */
const TICKS_PER_SECOND = 100;

export interface CpuSample {
  at: number;
  /**
   * Busy and total ticks of the machine, all cores; `stolen`, of the busy ones, those its
   * hypervisor gave to other machines while this one's cores had work (steal).
   */
  machine: { busy: number; total: number; stolen: number };
  /** Ticks used so far, by name. */
  used: Record<string, number>;
  /** Nanoseconds the backend's main thread has waited so far, runnable, for a core. */
  mainThreadWaitNs: number;
}

/**
 * utime + stime of a process or thread, from its stat file (or with `children`, of its child
 * processes that ended and were waited for: cutime + cstime); 0 once it is gone.
 */
function ticks(statFile: string, children = false): number {
  try {
    const stat = readFileSync(statFile, 'utf8');
    // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15,
    // cutime 16, cstime 17.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const at = children ? 13 : 11;
    return Number(fields[at]) + Number(fields[at + 1]);
  } catch {
    return 0;
  }
}

function machineTicks(): CpuSample['machine'] {
  const [, ...values] = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]
    .trim()
    .split(/\s+/)
    .map(Number);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = values;
  const busy = user + nice + system + irq + softirq + steal;
  return { busy, total: busy + idle + iowait, stolen: steal };
}

/** Time a thread has spent runnable but waiting for a core (the kernel's schedstat), in ns. */
function runQueueWaitNs(tid: number): number {
  const [, waiting] = readFileSync(
    `/proc/${process.pid}/task/${tid}/schedstat`,
    'utf8',
  )
    .trim()
    .split(' ');
  return Number(waiting);
}

/**
 * A process whose CPU time is counted: with `endedChildren`, also that of its children that
 * ended (a server forking one process per connection: a connection closed during a phase moves
 * its time from its own process to this one's cutime, so the sum never goes back).
 */
export interface CountedProcess {
  name: string;
  pid: number;
  endedChildren?: boolean;
}

export function sampleCpu(processes: CountedProcess[]): CpuSample {
  const own = ticks(`/proc/${process.pid}/stat`);
  const mainThread = ticks(`/proc/${process.pid}/task/${process.pid}/stat`);
  const used: Record<string, number> = {
    [BACKEND_MAIN_THREAD]: mainThread,
    'bench process, other threads': own - mainThread,
    // Once it has ended (and a phase's taskset calls, next to nothing).
    'wrk (the load generator)': ticks(`/proc/${process.pid}/stat`, true),
  };
  for (const { name, pid, endedChildren } of processes) {
    used[name] =
      (used[name] ?? 0) +
      ticks(`/proc/${pid}/stat`) +
      (endedChildren ? ticks(`/proc/${pid}/stat`, true) : 0);
  }
  return {
    at: Date.now(),
    machine: machineTicks(),
    used,
    mainThreadWaitNs: runQueueWaitNs(process.pid),
  };
}

/** Cores used between two samples: the machine's, and by name. */
export function coresUsed(before: CpuSample, after: CpuSample) {
  const seconds = (after.at - before.at) / 1000;
  const cores = (t: number) => t / TICKS_PER_SECOND / seconds;
  return {
    machineBusy: cores(after.machine.busy - before.machine.busy),
    machineCores:
      (after.machine.total - before.machine.total) / TICKS_PER_SECOND / seconds,
    /** Of the cores busy, those the hypervisor took for other machines (steal). */
    machineStolen: cores(after.machine.stolen - before.machine.stolen),
    /** How long, per second, the backend's main thread was ready to run with no core free. */
    mainThreadWaitMsPerSecond:
      (after.mainThreadWaitNs - before.mainThreadWaitNs) / 1e6 / seconds,
    byName: Object.fromEntries(
      Object.entries(after.used).map(([name, t]) => [
        name,
        cores(t - (before.used[name] ?? 0)),
      ]),
    ),
  };
}

/** The kernel's id of the calling thread (a worker's own, in a worker). */
export function callingThreadId(): number {
  return Number(readlinkSync('/proc/thread-self').split('/').pop());
}

/** The scheduler's autogroup of a process (its session's), e.g. `/autogroup-42`; none when off. */
function autogroupOf(pid: number | 'self'): string | undefined {
  if (!existsSync(`/proc/${pid}/autogroup`)) return undefined;
  return readFileSync(`/proc/${pid}/autogroup`, 'utf8').split(' ')[0];
}

/** cgroup v1's cpu hierarchy, where a thread (not only a process) can be moved on its own. */
const CPU_CGROUPS = '/sys/fs/cgroup/cpu';
const IDLE_GROUP = `${CPU_CGROUPS}/flink-standalone-bench-plane`;

/**
 * Where the simulated cluster's threads stand on the cores: a nice value; whether they run
 * under `SCHED_IDLE`, the policy whose threads a woken thread of any other policy preempts at
 * once (a nice value only lowers a thread's share: the kernel may let it finish its slice first);
 * and whether they run in a cpu cgroup marked idle (`cpu.idle`), which makes the same promise
 * between groups: with autogroups on, the scheduler compares the backend's group with theirs,
 * not the threads, so `SCHED_IDLE` threads in groups of their own are not preempted at once.
 */
export interface PlanePriority {
  nice: number;
  idle: boolean;
  idleGroup: boolean;
}

/** The backend's own priority. */
export const EQUAL_PRIORITY: PlanePriority = {
  nice: 0,
  idle: false,
  idleGroup: false,
};

export function describePriority({
  nice,
  idle,
  idleGroup,
}: PlanePriority): string {
  return [
    idleGroup && `in an idle cpu cgroup (${IDLE_GROUP})`,
    idle && 'SCHED_IDLE',
    `nice ${nice}`,
  ]
    .filter(Boolean)
    .join(', ');
}

/** Whether this kernel offers an idle cpu cgroup where threads can be moved one by one. */
function idleGroupAvailable(): boolean {
  return existsSync(`${CPU_CGROUPS}/cpu.idle`);
}

/** Creates the idle group once (a run that crashed may have left it). */
function ensureIdleGroup(): string {
  if (!idleGroupAvailable()) {
    throw new Error(
      `an idle cpu cgroup needs cgroup v1's cpu controller with cpu.idle (Linux 5.15 or later) at ${CPU_CGROUPS}`,
    );
  }
  if (!existsSync(IDLE_GROUP)) mkdirSync(IDLE_GROUP);
  writeFileSync(`${IDLE_GROUP}/cpu.idle`, '1');
  return IDLE_GROUP;
}

/**
 * Moves a process (every thread) or one thread into the idle group, or back to the root group
 * where the simulated cluster's processes start and autogroups apply; nothing is moved back when
 * the idle group was never made (the default: nice alone).
 */
function placeInGroup(
  id: number,
  what: 'process' | 'thread',
  inIdleGroup: boolean,
): void {
  if (!inIdleGroup && !existsSync(IDLE_GROUP)) return;
  const group = inIdleGroup ? ensureIdleGroup() : CPU_CGROUPS;
  writeFileSync(
    `${group}/${what === 'process' ? 'cgroup.procs' : 'tasks'}`,
    String(id),
  );
}

/** Removes the idle group once nothing runs in it (at the end of a run). */
export function removeIdleGroup(): void {
  if (!existsSync(IDLE_GROUP)) return;
  for (const tid of readFileSync(`${IDLE_GROUP}/tasks`, 'utf8')
    .split('\n')
    .filter(Boolean)) {
    writeFileSync(`${CPU_CGROUPS}/tasks`, tid);
  }
  rmdirSync(IDLE_GROUP);
}

/** `chrt`'s arguments for `idle`'s policy (with priority 0, which both policies require). */
function policyArgs(idle: boolean): string[] {
  return [idle ? '--idle' : '--other', '-p', '0'];
}

/** Gives one thread (a worker of this process, the calling one for instance) `priority`. */
export function setThreadPriority(tid: number, priority: PlanePriority): void {
  placeInGroup(tid, 'thread', priority.idleGroup);
  execFileSync('chrt', [...policyArgs(priority.idle), String(tid)], {
    stdio: 'ignore',
  });
  setPriority(tid, priority.nice);
}

/**
 * Gives every thread of these processes `priority` (on Linux a nice value and a policy are a
 * thread's; threads they start later inherit them), and their autogroups its nice value. With the
 * kernel's autogroups on (`kernel.sched_autogroup_enabled`, the default of most distributions),
 * the cores are shared first between sessions, each with the same weight whatever its threads'
 * nice values, and those values only rank threads within a session: the control plane's
 * processes each start a session of their own, so only their autogroups' nice puts them behind
 * the backend.
 */
export function prioritizeAllThreads(
  pids: number[],
  priority: PlanePriority,
): void {
  const own = autogroupOf('self');
  for (const pid of pids) {
    try {
      prioritizeProcess(pid, priority, own);
    } catch (error) {
      // A process that ended meanwhile (a database connection's) needs no priority.
      if (existsSync(`/proc/${pid}`)) throw error;
    }
  }
}

function prioritizeProcess(
  pid: number,
  priority: PlanePriority,
  ownAutogroup: string | undefined,
): void {
  placeInGroup(pid, 'process', priority.idleGroup);
  execFileSync('chrt', ['-a', ...policyArgs(priority.idle), String(pid)], {
    stdio: 'ignore',
  });
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      setPriority(Number(tid), priority.nice);
    } catch (error) {
      // A thread that ended meanwhile needs no priority.
      if (existsSync(`/proc/${pid}/task/${tid}`)) throw error;
    }
  }
  const group = autogroupOf(pid);
  // Never the benchmark's own session: the backend would be reniced with it.
  if (group && group !== ownAutogroup) {
    writeFileSync(`/proc/${pid}/autogroup`, String(priority.nice));
  }
}

/**
 * Gives the backend's main thread a core of its own, as on a node where the API server, etcd and
 * the kubelets do not share the backend's cores: the main thread runs on `core` with only the
 * processes `alongside` (the pages' load generator, whose requests it answers); every other
 * thread of this process (the API proxy, the churn, GC and libuv helpers) and every thread of
 * `pids` (the control plane) on the other cores. Threads started later inherit their creator's
 * cores: call it again after starting threads.
 */
export function giveCore(
  core: number,
  pids: number[],
  alongside: number[] = [],
): void {
  // Every core of the machine (availableParallelism() counts the caller's own: 1 once pinned).
  const others = cpus()
    .map((_, c) => c)
    .filter(c => c !== core)
    .join(',');
  const taskset = (...args: string[]) =>
    execFileSync('taskset', args, { stdio: 'ignore' });
  for (const tid of readdirSync(`/proc/${process.pid}/task`)) {
    try {
      taskset(
        '-p',
        '-c',
        Number(tid) === process.pid ? String(core) : others,
        tid,
      );
    } catch (error) {
      // A thread that ended meanwhile (a worker of the phase before) needs no core.
      if (existsSync(`/proc/${process.pid}/task/${tid}`)) throw error;
    }
  }
  for (const pid of pids) taskset('-a', '-p', '-c', others, String(pid));
  for (const pid of alongside)
    taskset('-a', '-p', '-c', String(core), String(pid));
}
