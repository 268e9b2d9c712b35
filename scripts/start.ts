/* eslint-disable no-console */
/**
 * `npm start`: the example Backstage app (backend on :7007, frontend on :3000) with both plugins.
 * When app-config.local.yaml configures no Kubernetes cluster, it first starts the embedded local
 * control plane and a real local Flink session cluster, and deploys the example catalog's clusters
 * (their pods are simulated by kwok; the `local-real-flink` entry's REST is the real Flink).
 * Ctrl-C stops everything it started.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';
import { parseClusterSpec, renderCluster } from '@flink-standalone/plugin-flink-standalone-common';
import { ClusterRegistry, applyCluster } from '@flink-standalone/plugin-flink-standalone-node';
import { ControlPlane, FlinkSession, ManagedProcess, startControlPlane, startFlinkSession } from '@flink-standalone/testenv';
import { ConfigReader } from '@backstage/config';
import type { KubernetesObject } from '@kubernetes/client-node';

const ROOT = resolve(__dirname, '..');
const LOCAL_CONFIG = resolve(ROOT, 'app-config.local.yaml');

/** The example clusters the example catalog's components point at. */
const EXAMPLE_CLUSTERS = [
  { name: 'orders-session', namespace: 'streaming', component: 'orders-analytics', flinkVersion: '2.1', taskManager: { replicas: 3, slots: 2, volumeClaimTemplates: [{ name: 'flink-data', storage: '1Gi' }] } },
  { name: 'sandbox', namespace: 'flink-sandbox', flinkVersion: '2.3' },
  { name: 'demo', namespace: 'flink-demo', component: 'local-flink-demo', flinkVersion: '2.2', taskManager: { replicas: 2, slots: 2, volumeClaimTemplates: [{ name: 'flink-data', storage: '1Gi' }] } },
];

function userConfiguredCluster(): boolean {
  if (!existsSync(LOCAL_CONFIG)) return false;
  const local = parse(readFileSync(LOCAL_CONFIG, 'utf8')) ?? {};
  return (local.kubernetes?.clusterLocatorMethods ?? []).some((m: any) => (m.clusters ?? []).length > 0);
}

const children: ManagedProcess[] = [];
let plane: ControlPlane | undefined;
let flink: FlinkSession | undefined;

async function stopAll() {
  await Promise.all(children.map(child => child.stop(10_000)));
  await flink?.stop().catch(() => {});
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

async function embeddedEnvironment(): Promise<NodeJS.ProcessEnv> {
  console.log('[start] no Kubernetes cluster in app-config.local.yaml: starting the embedded control plane');
  plane = await startControlPlane({ log: line => console.log(`[k8s] ${line}`) });
  console.log('[start] starting a real local Flink session cluster (2 TaskManagers)');
  flink = await startFlinkSession({ version: '2.2', taskManagers: 2, slotsPerTaskManager: 2, log: line => console.log(`[flink] ${line}`) });
  const registry = ClusterRegistry.fromConfig(
    new ConfigReader({ flinkStandalone: { clusters: [{ name: 'local', kubeconfig: { path: plane.kubeconfigPath } }] } }),
  );
  for (const spec of EXAMPLE_CLUSTERS) {
    if (!(await plane.client.find(`/api/v1/namespaces/${spec.namespace}`))) {
      await plane.client.create('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: spec.namespace } });
    }
    await applyCluster(registry.get('local'), renderCluster(parseClusterSpec(spec)) as KubernetesObject[]);
    console.log(`[start] applied example cluster ${spec.namespace}/${spec.name}`);
  }
  return { FLINK_STANDALONE_KUBECONFIG: plane.kubeconfigPath, FLINK_STANDALONE_LOCAL_FLINK_URL: flink.restUrl };
}

async function main() {
  process.once('SIGINT', () => void stopAll().then(() => process.exit(0)));
  process.once('SIGTERM', () => void stopAll().then(() => process.exit(0)));
  const env = userConfiguredCluster() ? {} : await embeddedEnvironment();
  const configArgs = ['--config', resolve(ROOT, 'app-config.yaml'), ...(existsSync(LOCAL_CONFIG) ? ['--config', LOCAL_CONFIG] : [])];
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
