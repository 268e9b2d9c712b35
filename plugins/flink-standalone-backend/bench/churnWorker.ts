/**
 * The cluster's own life while the benchmark measures, in a worker thread: every 1/`perSecond` s
 * a TaskManager pod is deleted (its StatefulSet recreates it, the scheduler places it, kwok runs
 * it, the controllers write events), and our status route is read until the change shows: the
 * change→status delay (unless `readsStatus` is false: the changes only, with our observer
 * closed). The cluster's life is not on the backend's cores in production: the thread takes the
 * simulated cluster's priority.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { KubeClient } from '@flink-standalone/testenv';
import {
  callingThreadId,
  setThreadPriority,
  type PlanePriority,
} from './cpuUsage';
import { summarize, type LatencySummary } from './latency';

export interface ChurnTask {
  url: string;
  authorization: string;
  /** The API server, as the cluster's admin: the changes are not the backend's requests. */
  apiServer: { server: string; ca: string; token: string };
  /** Namespace, cluster name and TaskManager count of each cluster to change. */
  clusters: { namespace: string; name: string; taskManagers: number }[];
  perSecond: number;
  seconds: number;
  /** Whether each change is followed in our status route (false: the changes go on unread). */
  readsStatus: boolean;
  /** This worker's thread's place on the cores: the simulated cluster's. */
  priority: PlanePriority;
}

export interface ChurnResult {
  changes: number;
  /** Changes that did not show in the status within 30 s. */
  unseen: number;
  delays: LatencySummary;
}

const sleep = (ms: number) =>
  new Promise(resolve => setTimeout(resolve, Math.max(0, ms)));

/** Our status of cluster `name`: the answer's status and body. */
async function readStatus(
  task: ChurnTask,
  name: string,
): Promise<{ status: number; body: string }> {
  try {
    const answer = await fetch(
      `${task.url}/api/flink-standalone/entities/default/component/${name}/status`,
      { headers: { authorization: task.authorization } },
    );
    return { status: answer.status, body: await answer.text() };
  } catch (error) {
    return { status: 0, body: String(error) };
  }
}

/** The pod as our status shows it: absent, or with what tells an old pod from its successor. */
function podInStatus(body: string, pod: string) {
  const status = JSON.parse(body).status as {
    pods: { name: string; startTime?: string; deletionTimestamp?: string }[];
  };
  return status.pods.find(p => p.name === pod);
}

/**
 * Reads our status of cluster `name` until the deleted pod shows the change (terminating, gone
 * or replaced): the delay from the deletion, or none after 30 s.
 */
async function untilShown(
  task: ChurnTask,
  name: string,
  pod: string,
  startTime: string | undefined,
  changedAt: number,
): Promise<{ delay?: number; errors: string[] }> {
  const errors: string[] = [];
  while (Date.now() - changedAt < 30_000) {
    const answer = await readStatus(task, name);
    if (answer.status === 200) {
      const shown = podInStatus(answer.body, pod);
      if (!shown || shown.deletionTimestamp || shown.startTime !== startTime)
        return { delay: Date.now() - changedAt, errors };
    } else {
      errors.push(`${answer.status} ${answer.body.slice(0, 300)}`);
    }
    await sleep(10);
  }
  return { errors };
}

async function churn(task: ChurnTask): Promise<ChurnResult> {
  const api = new KubeClient(task.apiServer);
  const delays: number[] = [];
  let changes = 0;
  let unseen = 0;
  let errors = 0;
  let firstError: string | undefined;
  const deadline = Date.now() + task.seconds * 1000;
  const probes: ReturnType<typeof untilShown>[] = [];
  for (let next = Date.now(); next < deadline; next += 1000 / task.perSecond) {
    await sleep(next - Date.now());
    const cluster =
      task.clusters[Math.floor(Math.random() * task.clusters.length)];
    const pod = `${cluster.name}-taskmanager-${Math.floor(Math.random() * cluster.taskManagers)}`;
    const deleted = await api.raw(
      'DELETE',
      `/api/v1/namespaces/${cluster.namespace}/pods/${pod}`,
    );
    const changedAt = Date.now();
    if (deleted.status !== 200) {
      // A pod of this ordinal being recreated right now: not a change of ours.
      if (deleted.status !== 404) {
        errors++;
        firstError ??= `DELETE ${deleted.status} ${deleted.text.slice(0, 300)}`;
      }
      continue;
    }
    changes++;
    if (!task.readsStatus) continue;
    const startTime = JSON.parse(deleted.text).status?.startTime;
    probes.push(untilShown(task, cluster.name, pod, startTime, changedAt));
  }
  for (const probe of await Promise.all(probes)) {
    if (probe.delay === undefined) unseen++;
    else delays.push(probe.delay);
    errors += probe.errors.length;
    firstError ??= probe.errors[0];
  }
  api.close();
  return {
    changes,
    unseen,
    delays: summarize(delays, errors, task.seconds, firstError),
  };
}

if (parentPort) {
  const port = parentPort;
  setThreadPriority(callingThreadId(), (workerData as ChurnTask).priority);
  churn(workerData as ChurnTask).then(result => port.postMessage(result));
}
