/* eslint-disable no-console */
import path from 'node:path';
import { cleanUpStaleRuns } from './cleanup';
import { startControlPlane } from './controlPlane';
import { cacheDir } from './paths';
import { handleSignalsYourself } from './processes';

const USAGE = `usage: cli.ts up [--no-real-node] | down [--all]
  up    start the control plane with a real node in the foreground (Ctrl-C stops it)
  down  clean up after a crashed run (--all also stops running ones)`;

async function up(realNode: boolean): Promise<void> {
  await cleanUpStaleRuns();
  const kubeconfigPath = path.join(cacheDir(), 'kubeconfig');
  const plane = await startControlPlane({
    kubeconfigPath,
    realNode,
    readyTimeoutMs: 600_000,
    log: line => console.log(`[k8s:up] ${line}`),
  });
  console.log(`
Kubernetes control plane ready in ${(plane.startupMs / 1000).toFixed(1)} s at ${plane.server}
nodes: ${plane.nodes.join(', ')} (kwok)${plane.realNode ? `, ${plane.realNode.name} (real, at ${plane.realNode.address}; a namespace with these annotations runs its pods there: ${JSON.stringify(plane.realNode.namespaceAnnotations)})` : ''}; storage classes: ${plane.storageClasses.immediate} (default, Immediate), ${plane.storageClasses.waitForFirstConsumer} (WaitForFirstConsumer)

  export KUBECONFIG=${kubeconfigPath}
  kubectl get nodes -L topology.kubernetes.io/zone

kubectl is in ${path.join(cacheDir(), 'k8s')}/<version>/bin. Admin bearer token (group system:masters):
  ${plane.admin.token}
Logs: ${plane.workDir}/logs. Press Ctrl-C to stop.`);
  let stopping = false;
  const stop = async () => {
    // Ctrl-C reaches this process twice (directly and relayed by tsx): stop only once, and
    // keep a listener so the second signal cannot kill the process halfway through the stop.
    if (stopping) return;
    stopping = true;
    console.log('\n[k8s:up] stopping…');
    await plane.stop();
    process.exit(0);
  };
  handleSignalsYourself();
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // Keep the event loop alive until a signal arrives.
  setInterval(() => {}, 1 << 30);
}

async function down(all: boolean): Promise<void> {
  const cleaned = await cleanUpStaleRuns({ all });
  for (const { id, state } of cleaned) {
    console.log(
      `[k8s:down] ${id}: killed ${state.processes.map(p => `${p.name}(${p.pid})`).join(', ')}; removed ${state.workDir}`,
    );
  }
  if (!cleaned.length) console.log('[k8s:down] nothing to clean up');
}

async function main(): Promise<void> {
  const [command, ...args] = process.argv.slice(2);
  if (command === 'up') return up(!args.includes('--no-real-node'));
  if (command === 'down') return down(args.includes('--all'));
  console.error(USAGE);
  process.exitCode = 2;
  return undefined;
}

main().catch(error => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
