import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isAlive } from '../processes';

/**
 * What a real node changes on the host, and how to undo it. Every function here is synchronous
 * so that it also runs from an exit handler and from `k8s:down` after a crash.
 */

/** One real node per machine: the pid of the process that runs it. */
export const REAL_NODE_LOCK_FILE = '/run/flink-standalone-real-node.pid';

/** The CNI bridge of the real node's pods. */
export const BRIDGE = 'fsbr0';
/** Pod addresses on the real node (host-local IPAM on the bridge). */
export const POD_SUBNET = '10.89.0.0/24';
export const BRIDGE_ADDRESS = '10.89.0.1';

/** Host settings of one real node: where pods reach the API server. */
export interface HostNetwork {
  /** Added to `lo`: the kubelet's node IP, cluster DNS and the API server's kubelet target. */
  nodeAddress: string;
  /** The `kubernetes` Service's ClusterIP, which pods use (no kube-proxy here). */
  apiServiceIp: string;
  /** The API server's port on 127.0.0.1. */
  apiServerPort: number;
}

function run(command: string, args: string[]): string {
  return execFileSync(command, args, { encoding: 'utf8', stdio: 'pipe' });
}

function attempt(command: string, args: string[]): boolean {
  try {
    run(command, args);
    return true;
  } catch {
    return false;
  }
}

/** Marks the rules a real node adds, so that a later one finds those a killed node left. */
const RULE_COMMENT = 'flink-standalone-testenv';

/** The DNAT rule that stands in for kube-proxy for the one ClusterIP pods need: the API server's. */
function apiServiceRule(net: HostNetwork): string[] {
  return [
    'PREROUTING',
    '-i',
    BRIDGE,
    '-d',
    `${net.apiServiceIp}/32`,
    '-p',
    'tcp',
    '--dport',
    '443',
    '-j',
    'DNAT',
    '--to-destination',
    `127.0.0.1:${net.apiServerPort}`,
    '-m',
    'comment',
    '--comment',
    RULE_COMMENT,
  ];
}

/**
 * Gives the host the node address, makes the bridge (so its sysctl can be set before the first
 * pod), and lets pods reach the API server's ClusterIP on the API server's loopback port.
 */
export function setUpHostNetwork(net: HostNetwork): void {
  tearDownHostNetwork(net);
  run('ip', ['addr', 'add', `${net.nodeAddress}/32`, 'dev', 'lo']);
  run('ip', ['link', 'add', BRIDGE, 'type', 'bridge']);
  run('ip', ['addr', 'add', `${BRIDGE_ADDRESS}/24`, 'dev', BRIDGE]);
  run('ip', ['link', 'set', BRIDGE, 'up']);
  // A DNAT to 127.0.0.1 is only routed for packets from this interface with route_localnet.
  fs.writeFileSync(`/proc/sys/net/ipv4/conf/${BRIDGE}/route_localnet`, '1');
  run('iptables', ['-t', 'nat', '-A', ...apiServiceRule(net)]);
}

/** A real node's folder inside a control plane's work folder (see nodeLayout). */
const NODE_FOLDER = /^.*\/flink-standalone-k8s-[^/]+\/node(?=\/|$)/;

/**
 * What a real node killed without its cleanup (SIGKILL, a lost session) left on the host: DNAT
 * rules to another API server port (the first one would take pods' API traffic to a dead port)
 * and mounts under another node's folder. Called with the lock held, so no other real node can
 * own them; the live node's own rule and folder are kept. Answers what it removed.
 */
export function clearDeadNodeLeftovers(live: {
  workDir: string;
  apiServerPort: number;
}): string[] {
  const rules = run('iptables', ['-t', 'nat', '-S', 'PREROUTING'])
    .split('\n')
    .filter(
      line =>
        line.includes(`--comment ${RULE_COMMENT}`) &&
        !line.includes(`--to-destination 127.0.0.1:${live.apiServerPort}`),
    );
  for (const rule of rules) {
    attempt('iptables', [
      '-t',
      'nat',
      ...rule.replace(/^-A /, '-D ').trim().split(/\s+/),
    ]);
  }
  const deadFolders = new Set(
    mountsUnder(os.tmpdir())
      .map(point => NODE_FOLDER.exec(point)?.[0])
      .filter(
        (dir): dir is string => dir !== undefined && dir !== live.workDir,
      ),
  );
  for (const dir of deadFolders) unmountAll(dir);
  return [
    ...rules.map(rule => `iptables rule ${rule}`),
    ...[...deadFolders].map(dir => `mounts under ${dir}`),
  ];
}

/** Undoes setUpHostNetwork; whatever is already gone is skipped. */
export function tearDownHostNetwork(net: HostNetwork): void {
  while (attempt('iptables', ['-t', 'nat', '-D', ...apiServiceRule(net)]));
  attempt('ip', ['link', 'del', BRIDGE]);
  attempt('ip', ['addr', 'del', `${net.nodeAddress}/32`, 'dev', 'lo']);
}

/** Mount points at or below a folder, deepest first. */
export function mountsUnder(dir: string): string[] {
  const prefix = dir.endsWith('/') ? dir : `${dir}/`;
  return fs
    .readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .map(line => line.split(' ')[4])
    .filter(
      (point): point is string =>
        Boolean(point) && (point === dir || point.startsWith(prefix)),
    )
    .map(point => point.replace(/\\040/g, ' '))
    .sort((a, b) => b.length - a.length);
}

/** Lazily unmounts everything below a folder (container roots, volumes, network namespaces). */
export function unmountAll(dir: string): void {
  for (const point of mountsUnder(dir)) attempt('umount', ['-l', point]);
}

/** The cgroup folders (v1: one per hierarchy) that the kubelet and containerd make. */
const NODE_CGROUPS = ['kubepods', 'k8s.io', 'kubepods.slice'];

function cgroupHierarchies(): string[] {
  const root = '/sys/fs/cgroup';
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root)
    .map(name => path.join(root, name))
    .filter(dir => fs.existsSync(path.join(dir, 'cgroup.procs')));
}

function cgroupTree(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  const children = fs
    .readdirSync(dir, { withFileTypes: true })
    .filter(entry => entry.isDirectory())
    .flatMap(entry => cgroupTree(path.join(dir, entry.name)));
  return [...children, dir];
}

/** Kills every process left in the node's cgroups, then removes the cgroups, deepest first. */
export function removeNodeCgroups(): void {
  const trees = cgroupHierarchies().flatMap(h =>
    NODE_CGROUPS.flatMap(name => cgroupTree(path.join(h, name))),
  );
  for (const dir of trees) {
    for (const pid of readPids(path.join(dir, 'cgroup.procs'))) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
  for (const dir of trees) {
    // A cgroup is removable once its last process has been reaped.
    for (let i = 0; i < 50 && fs.existsSync(dir); i++) {
      try {
        fs.rmdirSync(dir);
      } catch {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
      }
    }
  }
}

function readPids(file: string): number[] {
  try {
    return fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

/** Pids of processes whose command line contains `needle` (e.g. shims of one containerd). */
export function processesMentioning(needle: string): number[] {
  return fs
    .readdirSync('/proc')
    .filter(entry => /^\d+$/.test(entry))
    .filter(pid => {
      try {
        return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(needle);
      } catch {
        return false;
      }
    })
    .map(Number)
    .filter(pid => pid !== process.pid);
}

/**
 * Fixed places a kubelet writes to whatever it is told: its device-plugin and pod-resources
 * sockets, and symlinks to container logs. Only what points into this node's folder is removed,
 * and a folder only when that leaves it empty (another kubelet may live on the machine).
 */
function removeFixedNodePaths(workDir: string): void {
  for (const dir of [
    '/var/lib/kubelet/device-plugins',
    '/var/lib/kubelet/pod-resources',
  ]) {
    for (const entry of safeReaddir(dir)) {
      const file = path.join(dir, entry);
      if (fs.lstatSync(file).isSocket()) fs.rmSync(file, { force: true });
    }
  }
  for (const entry of safeReaddir('/var/log/containers')) {
    const link = path.join('/var/log/containers', entry);
    try {
      if (fs.readlinkSync(link).startsWith(workDir)) fs.rmSync(link);
    } catch {
      // not a symlink
    }
  }
  for (const dir of [
    '/var/lib/kubelet/device-plugins',
    '/var/lib/kubelet/pod-resources',
    '/var/lib/kubelet',
    '/var/log/containers',
    '/var/log/pods',
  ]) {
    try {
      fs.rmdirSync(dir);
    } catch {
      // missing, or not empty: not ours alone
    }
  }
}

function safeReaddir(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

/**
 * Removes what a stopped node leaves: its processes (shims mention the containerd socket), mounts,
 * cgroups, network, the fixed paths and containerd's shim sockets in /run/containerd.
 */
export function cleanUpRealNodeHost(options: {
  workDir: string;
  containerdSocket: string;
  network: HostNetwork;
}): void {
  for (const pid of processesMentioning(options.containerdSocket)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  removeNodeCgroups();
  unmountAll(options.workDir);
  tearDownHostNetwork(options.network);
  removeFixedNodePaths(options.workDir);
  releaseRealNodeLock();
  // containerd 1.6 puts shim sockets under /run/containerd whatever its state dir is; another
  // containerd on the machine may still use the folder.
  if (processesMentioning('containerd --config').length === 0) {
    fs.rmSync('/run/containerd', { recursive: true, force: true });
  }
}

function lockOwner(): number | undefined {
  try {
    return Number(fs.readFileSync(REAL_NODE_LOCK_FILE, 'utf8')) || undefined;
  } catch {
    return undefined;
  }
}

/** One real node per machine: kubelets and containerd share fixed host paths and the bridge. */
export function takeRealNodeLock(): void {
  const owner = lockOwner();
  if (owner && owner !== process.pid && isAlive(owner)) {
    throw new Error(
      `another real node is running on this machine (process ${owner}); stop it, or run "npm run k8s:down -- --all"`,
    );
  }
  fs.writeFileSync(REAL_NODE_LOCK_FILE, String(process.pid));
}

/** Removes the lock when this process holds it or its holder is gone. */
export function releaseRealNodeLock(): void {
  const owner = lockOwner();
  if (owner === undefined) return;
  if (owner === process.pid || !isAlive(owner)) {
    fs.rmSync(REAL_NODE_LOCK_FILE, { force: true });
  }
}
