import { BRIDGE, POD_SUBNET } from './host';

/**
 * The configuration files of a real node: containerd, the CNI network and the kubelet. Pure
 * functions of the node's layout, so the choices read in one place.
 */

export interface NodeLayout {
  /** The node's folder (temporary: state, kubelet root, logs, CNI, volumes). */
  dir: string;
  /** containerd's root (persistent in the cache: imported images survive the run). */
  containerdRoot: string;
  containerdState: string;
  containerdSocket: string;
  cniConfDir: string;
  cniDataDir: string;
  kubeletRoot: string;
  podLogsDir: string;
  /** Where the node's local volumes live (one folder per PV). */
  volumesDir: string;
}

/** containerd 1.6 (config version 2) with the CRI plugin as this machine needs it. */
export function containerdConfig(
  layout: NodeLayout,
  sandboxImage: string,
): string {
  const cri = 'plugins."io.containerd.grpc.v1.cri"';
  return [
    'version = 2',
    `root = ${JSON.stringify(layout.containerdRoot)}`,
    `state = ${JSON.stringify(layout.containerdState)}`,
    // Snapshotters for other file systems only log errors at start.
    'disabled_plugins = ["io.containerd.snapshotter.v1.aufs", "io.containerd.snapshotter.v1.btrfs", "io.containerd.snapshotter.v1.devmapper", "io.containerd.snapshotter.v1.zfs"]',
    '[grpc]',
    `  address = ${JSON.stringify(layout.containerdSocket)}`,
    '[ttrpc]',
    `  address = ${JSON.stringify(`${layout.containerdSocket}.ttrpc`)}`,
    `[${cri}]`,
    `  sandbox_image = ${JSON.stringify(sandboxImage)}`,
    // Without CAP_SYS_RESOURCE a negative oom_score_adj fails every container start.
    '  restrict_oom_score_adj = true',
    '  netns_mounts_under_state_dir = true',
    '  enable_selinux = false',
    `[${cri}.containerd]`,
    '  snapshotter = "overlayfs"',
    '  default_runtime_name = "runc"',
    `[${cri}.containerd.runtimes.runc]`,
    '  runtime_type = "io.containerd.runc.v2"',
    `[${cri}.containerd.runtimes.runc.options]`,
    '  SystemdCgroup = false',
    `  Root = ${JSON.stringify(`${layout.containerdState}/runc`)}`,
    `[${cri}.cni]`,
    '  bin_dir = "/usr/lib/cni"',
    `  conf_dir = ${JSON.stringify(layout.cniConfDir)}`,
    '',
  ].join('\n');
}

/** A bridge network with host-local addresses; pods reach each other and the host, nothing else. */
export function cniNetwork(layout: NodeLayout): object {
  return {
    cniVersion: '1.0.0',
    name: 'flink-standalone',
    plugins: [
      {
        type: 'bridge',
        bridge: BRIDGE,
        isGateway: true,
        // No masquerading: pods have no business beyond this machine.
        ipMasq: false,
        hairpinMode: true,
        ipam: {
          type: 'host-local',
          ranges: [[{ subnet: POD_SUBNET }]],
          routes: [{ dst: '0.0.0.0/0' }],
          dataDir: layout.cniDataDir,
        },
      },
    ],
  };
}

export interface KubeletSettings {
  nodeAddress: string;
  clientCaFile: string;
  clusterDns: string;
  clusterDomain: string;
  resolvConf: string;
  port: number;
  healthzPort: number;
}

/** The kubelet evicts pods (and taints its node DiskPressure) below this much free disk. */
export const EVICTION_FREE_DISK_FLOOR = '512Mi';

/** KubeletConfiguration (JSON is YAML) for cgroup v1 with the cgroupfs driver, webhook authn/authz. */
export function kubeletConfig(layout: NodeLayout, s: KubeletSettings): string {
  return JSON.stringify(
    {
      apiVersion: 'kubelet.config.k8s.io/v1beta1',
      kind: 'KubeletConfiguration',
      address: s.nodeAddress,
      port: s.port,
      readOnlyPort: 0,
      healthzBindAddress: '127.0.0.1',
      healthzPort: s.healthzPort,
      authentication: {
        anonymous: { enabled: false },
        webhook: { enabled: true },
        x509: { clientCAFile: s.clientCaFile },
      },
      authorization: { mode: 'Webhook' },
      containerRuntimeEndpoint: `unix://${layout.containerdSocket}`,
      cgroupDriver: 'cgroupfs',
      // This machine mounts cgroup v1 hierarchies (cgroup2 only as "unified").
      failCgroupV1: false,
      failSwapOn: false,
      clusterDNS: [s.clusterDns],
      clusterDomain: s.clusterDomain,
      resolvConf: s.resolvConf,
      podLogsDir: layout.podLogsDir,
      volumePluginDir: `${layout.dir}/volume-plugins`,
      // Images are imported, never pulled: never collect them.
      imageGCHighThresholdPercent: 100,
      imageGCLowThresholdPercent: 99,
      // Absolute floors, not percentages: on a large, nearly full disk (1% of 250 GB is 2.5 GB) a
      // percentage put the node under DiskPressure, its taint kept every pod Pending, and every
      // test timed out waiting for Ready. startRealNode checks the free space before it starts.
      evictionHard: {
        'memory.available': '100Mi',
        'nodefs.available': EVICTION_FREE_DISK_FLOOR,
        'imagefs.available': EVICTION_FREE_DISK_FLOOR,
      },
      // CPU limits are not enforced: on a 2-core machine, pods request little CPU so that several fit,
      // and a JVM throttled to its small request would take a minute to start. Requests still count
      // for scheduling, memory limits stay enforced (OOMKilled is real).
      cpuCFSQuota: false,
      // Node status every 2 s: the observer and the tests see changes quickly.
      nodeStatusUpdateFrequency: '2s',
      syncFrequency: '10s',
      fileCheckFrequency: '10s',
      serializeImagePulls: false,
      maxPods: 60,
      shutdownGracePeriod: '0s',
    },
    null,
    2,
  );
}
