import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { KubeClient } from '../kubeClient';
import { renderKubeconfig, writeKubeconfig } from '../kubeconfig';
import { isNodeReady } from '../nodes';
import { cacheDir, packageFile, resolveBinary } from '../paths';
import {
  kubeletCertificate,
  KUBELET_API_CLIENT,
  NODE_ADDRESS,
  Pki,
} from '../pki';
import { freePorts } from '../ports';
import { FatalError, ManagedProcess, waitFor } from '../processes';
import {
  apiServerLookup,
  ClusterDns,
  CLUSTER_DOMAIN,
  startClusterDns,
} from './clusterDns';
import {
  cniNetwork,
  containerdConfig,
  kubeletConfig,
  NodeLayout,
} from './config';
import { checkFreeDisk } from './disk';
import {
  cleanUpRealNodeHost,
  clearDeadNodeLeftovers,
  HostNetwork,
  releaseRealNodeLock,
  takeRealNodeLock,
  setUpHostNetwork,
} from './host';

const run = promisify(execFile);

/** The label every real node carries (fake nodes carry `type=kwok`). */
export const REAL_NODE_LABEL = 'flink-standalone.io/node';
/**
 * Real nodes are tainted: only pods that ask for one run real containers there. A namespace asks
 * with `realNodeNamespaceAnnotations()` (admission plugins PodNodeSelector and
 * PodTolerationRestriction add the node selector and toleration to its pods), so rendered
 * manifests run unmodified.
 */
export const REAL_NODE_TAINT = {
  key: REAL_NODE_LABEL,
  value: 'real',
  effect: 'NoSchedule',
};

/** The sandbox ("pause") image, built locally by images/build-images.sh. */
export const PAUSE_IMAGE = 'registry.k8s.io/pause:3.10';
/** Flink versions whose images a real node imports unless told otherwise. */
export const DEFAULT_NODE_FLINK_VERSIONS = ['2.2', '1.20'];

const BUILD_IMAGES = packageFile('images', 'build-images.sh');

export interface RealNodeOptions {
  /** Node name; default `real-node-0`. */
  name?: string;
  /**
   * Flink versions (major.minor) whose locally built images are imported; default
   * FLINK_STANDALONE_NODE_FLINK_VERSIONS (space-separated), else 2.2 and 1.20.
   */
  flinkVersions?: string[];
}

export interface RealNode {
  name: string;
  /** The node's InternalIP (on `lo`): kubelet, cluster DNS. */
  address: string;
  /** Annotations that place a namespace's pods on this node. */
  namespaceAnnotations: Record<string, string>;
  /** Folder of the node's local volumes (one folder per PV). */
  volumesDir: string;
  /** What `k8s:down` needs to clean up after a crash. */
  cleanup: RealNodeCleanup;
  /** containerd's and the kubelet's processes, for the run's state file. */
  processes(): ManagedProcess[];
  /** The kubelet's and containerd's logs, for failing tests. */
  logTail(lines?: number): string;
  /** Stops the kubelet only: the node goes NotReady, its containers keep running (a lost node). */
  stopKubelet(): Promise<void>;
  /** Starts the kubelet again after stopKubelet(). */
  startKubelet(): Promise<void>;
  stop(): Promise<void>;
}

export interface RealNodeCleanup {
  workDir: string;
  containerdSocket: string;
  network: HostNetwork;
}

/** What a real node needs from the plane it joins. */
export interface PlaneAccess {
  client: KubeClient;
  server: string;
  pki: Pki;
  apiServerPort: number;
  workDir: string;
  log: (line: string) => void;
  timeoutMs: number;
}

/** Annotations that give every pod of a namespace the real node's selector and toleration. */
export function realNodeNamespaceAnnotations(
  nodeName: string,
): Record<string, string> {
  return {
    'scheduler.alpha.kubernetes.io/node-selector': `${REAL_NODE_LABEL}=${nodeName}`,
    'scheduler.alpha.kubernetes.io/defaultTolerations': JSON.stringify([
      {
        key: REAL_NODE_TAINT.key,
        operator: 'Equal',
        value: REAL_NODE_TAINT.value,
        effect: REAL_NODE_TAINT.effect,
      },
    ]),
  };
}

/** Throws an error that says what to install when the host cannot run a real node. */
export function checkRealNodePrerequisites(): void {
  const missing = ['containerd', 'runc', 'ctr', 'iptables', 'ip']
    .filter(tool => !hasCommand(tool))
    .concat(
      fs.existsSync('/usr/lib/cni/bridge')
        ? []
        : ['containernetworking-plugins (/usr/lib/cni)'],
    );
  if (process.getuid?.() !== 0) missing.push('root');
  if (missing.length) {
    throw new Error(
      `a real node needs ${missing.join(', ')}: run "bash packages/testenv/scripts/ensure-real-node.sh" (Debian packages, as root)`,
    );
  }
}

function hasCommand(name: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function nodeLayout(workDir: string): NodeLayout {
  const dir = path.join(workDir, 'node');
  const layout: NodeLayout = {
    dir,
    // Persistent: the imported images (about 1 GB) survive the run.
    containerdRoot: path.join(cacheDir(), 'containerd', 'root'),
    containerdState: path.join(dir, 'containerd'),
    containerdSocket: path.join(dir, 'containerd', 'containerd.sock'),
    cniConfDir: path.join(dir, 'cni', 'net.d'),
    cniDataDir: path.join(dir, 'cni', 'ipam'),
    kubeletRoot: path.join(dir, 'kubelet'),
    podLogsDir: path.join(dir, 'pod-logs'),
    volumesDir: path.join(dir, 'volumes'),
  };
  for (const folder of Object.values(layout)) {
    if (!folder.endsWith('.sock')) fs.mkdirSync(folder, { recursive: true });
  }
  return layout;
}

async function bindKubeletApiClient(client: KubeClient): Promise<void> {
  const name = 'flink-standalone-testenv:kubelet-api-admin';
  if (
    await client.find(
      `/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/${name}`,
    )
  )
    return;
  await client.create(
    '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings',
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name },
      roleRef: {
        apiGroup: 'rbac.authorization.k8s.io',
        kind: 'ClusterRole',
        name: 'system:kubelet-api-admin',
      },
      subjects: [
        {
          apiGroup: 'rbac.authorization.k8s.io',
          kind: 'User',
          name: KUBELET_API_CLIENT,
        },
      ],
    },
  );
}

/** Imports the pause image and the Flink images (built once, cached) into the node's containerd. */
async function importImages(
  socket: string,
  versions: string[],
  log: (line: string) => void,
) {
  const started = Date.now();
  await run(
    'bash',
    [BUILD_IMAGES, 'import', '--address', socket, ...versions],
    {
      maxBuffer: 16 * 1024 * 1024,
    },
  ).catch(error => {
    throw new Error(
      `importing the node's images failed: ${error.stderr || error.message}`,
    );
  });
  log(
    `images imported (pause, flink ${versions.join(', ')}) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
}

/**
 * Starts a real node beside the fake ones: containerd + runc + CNI bridge, cluster DNS, and a
 * kubelet (identity `system:node:<name>`) registered with the plane, tainted so that only
 * namespaces that ask for it run there. Resolves when the node is Ready.
 */
export async function startRealNode(
  plane: PlaneAccess,
  options: RealNodeOptions = {},
): Promise<RealNode> {
  checkRealNodePrerequisites();
  const kubelet = resolveBinary('kubelet');
  const name = options.name ?? 'real-node-0';
  const versions =
    options.flinkVersions ??
    process.env.FLINK_STANDALONE_NODE_FLINK_VERSIONS?.split(/\s+/).filter(
      Boolean,
    ) ??
    DEFAULT_NODE_FLINK_VERSIONS;
  const layout = nodeLayout(plane.workDir);
  checkFreeDisk([layout.kubeletRoot, layout.containerdRoot]);
  takeRealNodeLock();
  for (const leftover of clearDeadNodeLeftovers({
    workDir: layout.dir,
    apiServerPort: plane.apiServerPort,
  })) {
    plane.log(`removed what a killed real node left: ${leftover}`);
  }
  const network: HostNetwork = {
    nodeAddress: NODE_ADDRESS,
    apiServiceIp: '10.0.0.1',
    apiServerPort: plane.apiServerPort,
  };
  const cleanup: RealNodeCleanup = {
    workDir: layout.dir,
    containerdSocket: layout.containerdSocket,
    network,
  };
  const logFile = (n: string) => path.join(plane.workDir, 'logs', `${n}.log`);
  let containerd: ManagedProcess | undefined;
  let kubeletProcess: ManagedProcess | undefined;
  let dns: ClusterDns | undefined;
  const started = Date.now();
  const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;

  const stopAll = async () => {
    await deletePodsOnNode(plane.client, name).catch(() => undefined);
    await waitForNoContainers(layout.containerdSocket).catch(() => undefined);
    await kubeletProcess?.stop(5000);
    await dns?.stop();
    await containerd?.stop(5000);
    cleanUpRealNodeHost(cleanup);
    releaseRealNodeLock();
  };

  try {
    setUpHostNetwork(network);
    fs.writeFileSync(
      path.join(layout.dir, 'containerd.toml'),
      containerdConfig(layout, PAUSE_IMAGE),
    );
    fs.writeFileSync(
      path.join(layout.cniConfDir, '10-flink-standalone.conflist'),
      JSON.stringify(cniNetwork(layout), null, 2),
    );
    containerd = ManagedProcess.start({
      name: 'containerd',
      command: 'containerd',
      args: ['--config', path.join(layout.dir, 'containerd.toml')],
      logFile: logFile('containerd'),
    });
    await waitFor(
      'containerd to answer',
      async () => {
        if (!containerd!.alive)
          throw new FatalError(
            `containerd exited:\n${containerd!.logTail(20)}`,
          );
        return run('ctr', [
          '--address',
          layout.containerdSocket,
          'version',
        ]).then(
          () => true,
          () => false,
        );
      },
      { timeoutMs: plane.timeoutMs, intervalMs: 200 },
    );
    plane.log(`containerd ready (${elapsed()})`);
    await importImages(layout.containerdSocket, versions, plane.log);

    await bindKubeletApiClient(plane.client);
    const cert = await kubeletCertificate(plane.pki, name);
    const kubeconfigPath = path.join(layout.dir, 'kubelet.kubeconfig');
    writeKubeconfig(
      kubeconfigPath,
      renderKubeconfig({
        clusterName: 'testenv',
        server: plane.server,
        ca: fs.readFileSync(plane.pki.caFile, 'utf8'),
        user: {
          name: `system:node:${name}`,
          cert: fs.readFileSync(cert.certFile, 'utf8'),
          key: fs.readFileSync(cert.keyFile, 'utf8'),
        },
      }),
    );
    dns = await startClusterDns(NODE_ADDRESS, apiServerLookup(plane.client));
    const resolvConf = path.join(layout.dir, 'resolv.conf');
    fs.writeFileSync(resolvConf, `nameserver ${NODE_ADDRESS}\n`);
    const [port, healthzPort] = await freePorts(2);
    const configFile = path.join(layout.dir, 'kubelet.json');
    fs.writeFileSync(
      configFile,
      kubeletConfig(layout, {
        nodeAddress: NODE_ADDRESS,
        clientCaFile: plane.pki.caFile,
        clusterDns: NODE_ADDRESS,
        clusterDomain: CLUSTER_DOMAIN,
        resolvConf,
        port,
        healthzPort,
      }),
    );
    const startKubelet = async () => {
      kubeletProcess = ManagedProcess.start({
        name: 'kubelet',
        command: kubelet,
        args: [
          `--config=${configFile}`,
          `--kubeconfig=${kubeconfigPath}`,
          `--root-dir=${layout.kubeletRoot}`,
          `--cert-dir=${path.join(layout.kubeletRoot, 'pki')}`,
          `--hostname-override=${name}`,
          `--node-ip=${NODE_ADDRESS}`,
          `--node-labels=${REAL_NODE_LABEL}=${name},type=real`,
          `--register-with-taints=${REAL_NODE_TAINT.key}=${REAL_NODE_TAINT.value}:${REAL_NODE_TAINT.effect}`,
          '--v=1',
        ],
        logFile: logFile('kubelet'),
      });
      await waitFor(
        `real node ${name} Ready`,
        async () => {
          if (!kubeletProcess!.alive)
            throw new FatalError(
              `kubelet exited:\n${kubeletProcess!.logTail(30)}`,
            );
          const node = await plane.client.find(`/api/v1/nodes/${name}`);
          return node && isNodeReady(node);
        },
        { timeoutMs: plane.timeoutMs, intervalMs: 250 },
      );
    };
    await startKubelet();
    plane.log(`real node ${name} Ready at ${NODE_ADDRESS} (${elapsed()})`);
    return {
      name,
      address: NODE_ADDRESS,
      namespaceAnnotations: realNodeNamespaceAnnotations(name),
      volumesDir: layout.volumesDir,
      cleanup,
      processes: () =>
        [containerd, kubeletProcess].filter((p): p is ManagedProcess =>
          Boolean(p?.alive),
        ),
      logTail: (lines = 40) =>
        [kubeletProcess, containerd]
          .map(p => `--- ${p?.name} ---\n${p?.logTail(lines) ?? ''}`)
          .join('\n'),
      stopKubelet: async () => {
        await kubeletProcess?.stop(5000);
      },
      startKubelet,
      stop: stopAll,
    };
  } catch (error) {
    await stopAll().catch(() => undefined);
    throw error;
  }
}

/** Deletes every pod bound to the node at once, so the kubelet tears their sandboxes down. */
async function deletePodsOnNode(
  client: KubeClient,
  nodeName: string,
): Promise<void> {
  const pods = await client.list(
    `/api/v1/pods?fieldSelector=${encodeURIComponent(`spec.nodeName=${nodeName}`)}`,
  );
  await Promise.all(
    pods.items.map(pod =>
      client
        .delete(
          `/api/v1/namespaces/${pod.metadata.namespace}/pods/${pod.metadata.name}`,
          {
            gracePeriodSeconds: 0,
          },
        )
        .catch(() => undefined),
    ),
  );
}

async function waitForNoContainers(socket: string): Promise<void> {
  await waitFor(
    'containers on the real node to stop',
    async () => {
      const { stdout } = await run('ctr', [
        '--address',
        socket,
        '-n',
        'k8s.io',
        'tasks',
        'ls',
        '-q',
      ]);
      return stdout.trim() === '';
    },
    { timeoutMs: 20_000, intervalMs: 250 },
  );
}
