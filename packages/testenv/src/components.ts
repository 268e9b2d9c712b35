import path from 'node:path';
import { Pki } from './pki';
import { PlaneBinaryName, packageFile } from './paths';

/** Where every component of one control plane listens and keeps its files. */
export interface PlaneLayout {
  workDir: string;
  logDir: string;
  pki: Pki;
  etcdClientPort: number;
  etcdPeerPort: number;
  apiServerPort: number;
  controllerManagerPort: number;
  schedulerPort: number;
  kwokPort: number;
  /** Kubeconfig files the components use, one identity each. */
  kubeconfigs: { controllerManager: string; scheduler: string; kwok: string };
}

export interface ComponentSpec {
  name: string;
  binary: PlaneBinaryName;
  args: string[];
}

export const SERVICE_CLUSTER_IP_RANGE = '10.0.0.0/24';
export const SERVICE_ACCOUNT_ISSUER =
  'https://kubernetes.default.svc.cluster.local';
export const KWOK_NODE_ANNOTATION = 'kwok.x-k8s.io/node';
/** kwok leaves the status of pods and nodes with this annotation to us (fault helpers). */
export const KWOK_CUSTOM_STATUS_ANNOTATION = 'kwok.x-k8s.io/status';

export function etcd(l: PlaneLayout): ComponentSpec {
  const client = `http://127.0.0.1:${l.etcdClientPort}`;
  const peer = `http://127.0.0.1:${l.etcdPeerPort}`;
  return {
    name: 'etcd',
    binary: 'etcd',
    args: [
      '--name=testenv',
      `--data-dir=${path.join(l.workDir, 'etcd')}`,
      `--listen-client-urls=${client}`,
      `--advertise-client-urls=${client}`,
      `--listen-peer-urls=${peer}`,
      `--initial-advertise-peer-urls=${peer}`,
      `--initial-cluster=testenv=${peer}`,
      // Test data: durability is not worth the fsync latency.
      '--unsafe-no-fsync=true',
      '--log-level=warn',
    ],
  };
}

export function apiServer(l: PlaneLayout): ComponentSpec {
  const { pki } = l;
  return {
    name: 'kube-apiserver',
    binary: 'kube-apiserver',
    args: [
      `--etcd-servers=http://127.0.0.1:${l.etcdClientPort}`,
      '--bind-address=127.0.0.1',
      '--advertise-address=127.0.0.1',
      // The reconciler refuses loopback addresses for the kubernetes Service's endpoints.
      '--endpoint-reconciler-type=none',
      `--secure-port=${l.apiServerPort}`,
      `--cert-dir=${path.join(l.workDir, 'apiserver')}`,
      `--tls-cert-file=${pki.apiServer.certFile}`,
      `--tls-private-key-file=${pki.apiServer.keyFile}`,
      `--client-ca-file=${pki.caFile}`,
      `--token-auth-file=${pki.tokenAuthFile}`,
      // Aggregation-layer settings; without them every delegating component logs errors.
      `--requestheader-client-ca-file=${pki.caFile}`,
      '--requestheader-allowed-names=front-proxy-client',
      '--requestheader-username-headers=X-Remote-User',
      '--requestheader-group-headers=X-Remote-Group',
      '--requestheader-extra-headers-prefix=X-Remote-Extra-',
      '--anonymous-auth=false',
      // Node authorizer + NodeRestriction: a real node's kubelet may touch only its own node and pods.
      '--authorization-mode=Node,RBAC',
      // PodNodeSelector/PodTolerationRestriction: a namespace annotation places its pods on the real
      // node, so rendered manifests run there unmodified.
      '--enable-admission-plugins=NodeRestriction,PodNodeSelector,PodTolerationRestriction',
      `--kubelet-client-certificate=${pki.kubeletClient.certFile}`,
      `--kubelet-client-key=${pki.kubeletClient.keyFile}`,
      // logs/exec and the service proxy reach a real node at its (non-loopback) InternalIP.
      '--kubelet-preferred-address-types=InternalIP',
      `--service-account-issuer=${SERVICE_ACCOUNT_ISSUER}`,
      `--service-account-key-file=${pki.serviceAccountPublicKeyFile}`,
      `--service-account-signing-key-file=${pki.serviceAccountKeyFile}`,
      `--service-cluster-ip-range=${SERVICE_CLUSTER_IP_RANGE}`,
      '--allow-privileged=true',
      '--profiling=false',
      '--v=1',
    ],
  };
}

export function controllerManager(
  l: PlaneLayout,
  pvBinderSyncPeriodSeconds = 1,
): ComponentSpec {
  const kubeconfig = l.kubeconfigs.controllerManager;
  return {
    name: 'kube-controller-manager',
    binary: 'kube-controller-manager',
    args: [
      `--kubeconfig=${kubeconfig}`,
      `--authentication-kubeconfig=${kubeconfig}`,
      `--authorization-kubeconfig=${kubeconfig}`,
      '--bind-address=127.0.0.1',
      `--secure-port=${l.controllerManagerPort}`,
      `--cert-dir=${path.join(l.workDir, 'controller-manager')}`,
      '--leader-elect=false',
      // All default controllers: statefulset, replicaset, deployment, PV binder, GC, endpoints,
      // endpointslice, namespace, serviceaccount(-token), node-lifecycle, root CA publisher, …
      '--controllers=*',
      // Each controller acts as its own ServiceAccount, with its bootstrap RBAC role, as in kubeadm.
      '--use-service-account-credentials=true',
      `--service-account-private-key-file=${l.pki.serviceAccountKeyFile}`,
      `--root-ca-file=${l.pki.caFile}`,
      `--cluster-signing-cert-file=${l.pki.caFile}`,
      `--cluster-signing-key-file=${l.pki.caKeyFile}`,
      '--kube-api-qps=200',
      '--kube-api-burst=400',
      // Static PVs are created after the claims; bind them within a second, not 15 s (each
      // period re-syncs every claim and volume: a benchmark with thousands keeps the default).
      `--pvclaimbinder-sync-period=${pvBinderSyncPeriodSeconds}s`,
      '--node-monitor-period=2s',
      '--v=1',
    ],
  };
}

export function scheduler(l: PlaneLayout): ComponentSpec {
  const kubeconfig = l.kubeconfigs.scheduler;
  return {
    name: 'kube-scheduler',
    binary: 'kube-scheduler',
    args: [
      `--kubeconfig=${kubeconfig}`,
      `--authentication-kubeconfig=${kubeconfig}`,
      `--authorization-kubeconfig=${kubeconfig}`,
      '--bind-address=127.0.0.1',
      `--secure-port=${l.schedulerPort}`,
      `--cert-dir=${path.join(l.workDir, 'scheduler')}`,
      '--leader-elect=false',
      '--v=1',
    ],
  };
}

/** The stages kwokctl would configure: kwok itself starts with none. */
export const KWOK_STAGES = packageFile('kwok', 'stages.yaml');

export function kwok(l: PlaneLayout): ComponentSpec {
  return {
    name: 'kwok',
    binary: 'kwok',
    args: [
      `--config=${KWOK_STAGES}`,
      `--kubeconfig=${l.kubeconfigs.kwok}`,
      // Leases tell the node-lifecycle controller the fake kubelets are alive.
      '--node-lease-duration-seconds=40',
      '--manage-all-nodes=false',
      `--manage-nodes-with-annotation-selector=${KWOK_NODE_ANNOTATION}=fake`,
      `--disregard-status-with-annotation-selector=${KWOK_CUSTOM_STATUS_ANNOTATION}=custom`,
      '--cidr=10.244.0.1/16',
      '--node-ip=127.0.0.1',
      `--server-address=127.0.0.1:${l.kwokPort}`,
    ],
  };
}
