/* eslint-disable no-console */
/**
 * `npm start`: the example Backstage app (backend on :7007, frontend on :3000) with both plugins.
 * When app-config.local.yaml configures no Kubernetes cluster, it first starts the embedded local
 * control plane with a real node (kubelet, containerd, the locally built Flink images) beside the
 * fake kwok nodes, and deploys the example catalog's clusters: the small ones run real Flink on the
 * real node, the large one stays on kwok nodes (its pods are simulated). Ctrl-C stops everything.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';
import {
  ClusterSpecInput,
  parseClusterSpec,
  renderCluster,
} from '@flink-standalone/plugin-flink-standalone-common';
import {
  ClusterRegistry,
  applyCluster,
} from '@flink-standalone/plugin-flink-standalone-node';
import {
  ControlPlane,
  ManagedProcess,
  startControlPlane,
} from '@flink-standalone/testenv';
import { ConfigReader } from '@backstage/config';
import type { KubernetesObject } from '@kubernetes/client-node';

const ROOT = resolve(__dirname, '..');
const LOCAL_CONFIG = resolve(ROOT, 'app-config.local.yaml');

/** Small enough that the real node's 2 CPUs hold the examples and a cluster made from the template. */
const SMALL = {
  jobManager: { resources: { cpu: '100m', memory: '1Gi' } },
  taskManager: { resources: { cpu: '100m', memory: '1Gi' } },
};

/** The example clusters the example catalog's components point at, and where their pods run. */
const EXAMPLE_CLUSTERS: {
  placement: 'real' | 'kwok';
  spec: ClusterSpecInput;
}[] = [
  {
    placement: 'real',
    spec: {
      name: 'demo',
      namespace: 'flink-demo',
      component: 'local-flink-demo',
      flinkVersion: '2.2',
      // A running job with keyed state and checkpoints: the project's example job, in the image.
      image: 'flink:2.2-examples',
      mode: 'application',
      job: {
        jarURI: 'local:///opt/flink/usrlib/keyed-counter-job.jar',
        entryClass: 'flinkstandalone.examples.KeyedCounterJob',
        parallelism: 4,
      },
      jobManager: SMALL.jobManager,
      taskManager: {
        ...SMALL.taskManager,
        replicas: 2,
        slots: 2,
        volumeClaimTemplates: [{ name: 'flink-data', storage: '1Gi' }],
      },
    },
  },
  {
    placement: 'real',
    spec: {
      name: 'sandbox',
      namespace: 'flink-sandbox',
      flinkVersion: '1.20',
      ...SMALL,
    },
  },
  {
    placement: 'kwok',
    spec: {
      name: 'orders-session',
      namespace: 'streaming',
      component: 'orders-analytics',
      flinkVersion: '2.1',
      taskManager: {
        replicas: 3,
        slots: 2,
        volumeClaimTemplates: [{ name: 'flink-data', storage: '1Gi' }],
      },
    },
  },
];

/** The template's default namespace: clusters made from it run on the real node. */
const TEMPLATE_NAMESPACES = ['flink-apps'];

function userConfiguredCluster(): boolean {
  if (!existsSync(LOCAL_CONFIG)) return false;
  const local = parse(readFileSync(LOCAL_CONFIG, 'utf8')) ?? {};
  return (local.kubernetes?.clusterLocatorMethods ?? []).some(
    (m: any) => (m.clusters ?? []).length > 0,
  );
}

const children: ManagedProcess[] = [];
let plane: ControlPlane | undefined;

async function stopAll() {
  await Promise.all(children.map(child => child.stop(10_000)));
  await plane?.stop().catch(() => {});
}

/** npm in a process group of its own (stopping reaches the dev servers it starts), lines prefixed. */
function run(label: string, args: string[], env: NodeJS.ProcessEnv) {
  const child = ManagedProcess.start({
    name: label,
    command: 'npm',
    args,
    cwd: ROOT,
    env,
    onLine: line => line && console.log(`[${label}] ${line}`),
  });
  void child.exited.then(code => console.log(`[${label}] exited with ${code}`));
  children.push(child);
  return child;
}

async function ensureNamespace(
  name: string,
  annotations: Record<string, string>,
) {
  if (await plane!.client.find(`/api/v1/namespaces/${name}`)) return;
  await plane!.client.create('/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name, annotations },
  });
}

async function embeddedEnvironment(): Promise<NodeJS.ProcessEnv> {
  console.log(
    '[start] no Kubernetes cluster in app-config.local.yaml: starting the embedded control plane with a real node',
  );
  plane = await startControlPlane({
    realNode: true,
    readyTimeoutMs: 600_000,
    log: line => console.log(`[k8s] ${line}`),
  });
  const realNode = plane.realNode!;
  const registry = ClusterRegistry.fromConfig(
    new ConfigReader({
      flinkStandalone: {
        clusters: [
          { name: 'local', kubeconfig: { path: plane.kubeconfigPath } },
        ],
      },
    }),
  );
  for (const name of TEMPLATE_NAMESPACES)
    await ensureNamespace(name, realNode.namespaceAnnotations);
  for (const { placement, spec } of EXAMPLE_CLUSTERS) {
    await ensureNamespace(
      spec.namespace,
      placement === 'real' ? realNode.namespaceAnnotations : {},
    );
    await applyCluster(
      registry.get('local'),
      renderCluster(parseClusterSpec(spec)) as KubernetesObject[],
    );
    console.log(
      `[start] applied example cluster ${spec.namespace}/${spec.name} (${placement === 'real' ? `real pods on ${realNode.name}` : 'simulated pods on kwok nodes'})`,
    );
  }
  return { FLINK_STANDALONE_KUBECONFIG: plane.kubeconfigPath };
}

async function main() {
  process.once('SIGINT', () => void stopAll().then(() => process.exit(0)));
  process.once('SIGTERM', () => void stopAll().then(() => process.exit(0)));
  const env = userConfiguredCluster() ? {} : await embeddedEnvironment();
  const configArgs = [
    '--config',
    resolve(ROOT, 'app-config.yaml'),
    ...(existsSync(LOCAL_CONFIG) ? ['--config', LOCAL_CONFIG] : []),
  ];
  run('backend', ['run', 'start', '-w', 'backend', '--', ...configArgs], env);
  run('app', ['run', 'start', '-w', 'app', '--', ...configArgs], env);
  console.log(`
[start] Backstage is starting: open http://localhost:3000 (backend http://localhost:7007).
        Create a cluster from the template "Standalone Flink cluster", then watch it on its entity page.
        Ctrl-C stops everything.${env.FLINK_STANDALONE_KUBECONFIG ? `\n        kubectl: export KUBECONFIG=${env.FLINK_STANDALONE_KUBECONFIG}` : ''}`);
}

main().catch(async error => {
  console.error(error);
  await stopAll();
  process.exit(1);
});
