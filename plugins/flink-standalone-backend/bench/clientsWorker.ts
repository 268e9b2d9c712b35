/**
 * The benchmark's load, in a worker thread so it does not share the backend's event loop.
 *
 * - `poll`: each client is one open entity page asking for one of `entities` every `pollMs`
 *   from a random phase of its own (independent pages, not a lockstep burst); `pollMs` 0 asks
 *   again as soon as the answer is in (flat out).
 * - `churn`: the cluster's own life while measured: every 1/`perSecond` s a TaskManager pod is
 *   deleted (its StatefulSet recreates it, the scheduler places it, kwok runs it, the controllers
 *   write events), and our status route is read until the change shows: the change→status delay.
 */
import { parentPort, workerData } from 'node:worker_threads';
import http from 'node:http';
import { KubeClient } from '@flink-standalone/testenv';
import { ThreadDelays, watchThreadDelays } from './threadDelays';

export interface RouteRequest {
  method: 'GET' | 'POST';
  /** With `{name}` for the entity's name. */
  path: string;
  /** JSON, with `{name}` for the entity's name. */
  body?: string;
}

export interface PollTask {
  task: 'poll';
  url: string;
  authorization: string;
  request: RouteRequest;
  entities: string[];
  clients: number;
  pollMs: number;
  seconds: number;
}

export interface ChurnTask {
  task: 'churn';
  url: string;
  authorization: string;
  /** The API server, as the cluster's admin: the changes are not the backend's requests. */
  apiServer: { server: string; ca: string; token: string };
  /** Namespace, cluster name and TaskManager count of each cluster to change. */
  clusters: { namespace: string; name: string; taskManagers: number }[];
  perSecond: number;
  seconds: number;
}

export interface LatencySummary {
  samples: number;
  errors: number;
  firstError?: string;
  p50: number;
  p99: number;
  max: number;
  perSecond: number;
}

export interface PollResult extends LatencySummary {
  /** The load generator's own delays while it measured: they are in every latency above. */
  instrument: ThreadDelays;
}

export interface ChurnResult {
  changes: number;
  /** Changes that did not show in the status within 30 s. */
  unseen: number;
  delays: LatencySummary;
}

const sleep = (ms: number) =>
  new Promise(resolve => setTimeout(resolve, Math.max(0, ms)));

export function summarize(
  latencies: number[],
  errors: number,
  seconds: number,
  firstError?: string,
): LatencySummary {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return {
    samples: sorted.length,
    errors,
    firstError,
    p50: at(0.5),
    p99: at(0.99),
    max: sorted[sorted.length - 1] ?? NaN,
    perSecond: sorted.length / seconds,
  };
}

/**
 * One request, timed to its last byte. The body is kept only when `keepBody` says so or the
 * answer is an error: 100 pages' status answers would otherwise be garbage for the load
 * generator's own GC, whose pauses would show as the route's latency.
 */
function send(
  agent: http.Agent,
  url: string,
  authorization: string,
  request: RouteRequest,
  name: string,
  keepBody: boolean,
): Promise<{ status: number; body: string; ms: number }> {
  const started = process.hrtime.bigint();
  const body = request.body?.replace('{name}', name);
  return new Promise(resolve => {
    const req = http.request(
      url + request.path.replace('{name}', name),
      {
        method: request.method,
        agent,
        headers: {
          authorization,
          ...(body && { 'content-type': 'application/json' }),
        },
      },
      res => {
        const chunks: Buffer[] = [];
        const keep = keepBody || res.statusCode !== 200;
        res.on('data', chunk => {
          if (keep) chunks.push(chunk);
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
            ms: Number(process.hrtime.bigint() - started) / 1e6,
          }),
        );
      },
    );
    req.on('error', error =>
      resolve({ status: 0, body: String(error), ms: 0 }),
    );
    req.end(body);
  });
}

async function poll(task: PollTask): Promise<PollResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: task.clients });
  const instrument = watchThreadDelays();
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  const deadline = Date.now() + task.seconds * 1000;
  await Promise.all(
    Array.from({ length: task.clients }, async () => {
      let next = Date.now() + Math.random() * task.pollMs;
      for (;;) {
        if (task.pollMs) await sleep(next - Date.now());
        if (Date.now() >= deadline) return;
        const name =
          task.entities[Math.floor(Math.random() * task.entities.length)];
        const answer = await send(
          agent,
          task.url,
          task.authorization,
          task.request,
          name,
          false,
        );
        if (answer.status === 200) latencies.push(answer.ms);
        else {
          errors++;
          firstError ??= `${answer.status} ${answer.body.slice(0, 300)}`;
        }
        next += task.pollMs;
      }
    }),
  );
  agent.destroy();
  return {
    ...summarize(latencies, errors, task.seconds, firstError),
    instrument: instrument.stop(),
  };
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
  agent: http.Agent,
  task: ChurnTask,
  name: string,
  pod: string,
  startTime: string | undefined,
  changedAt: number,
): Promise<{ delay?: number; errors: string[] }> {
  const errors: string[] = [];
  const request: RouteRequest = {
    method: 'GET',
    path: '/api/flink-standalone/entities/default/component/{name}/status',
  };
  while (Date.now() - changedAt < 30_000) {
    const answer = await send(
      agent,
      task.url,
      task.authorization,
      request,
      name,
      true,
    );
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
  const agent = new http.Agent({ keepAlive: true });
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
    const startTime = JSON.parse(deleted.text).status?.startTime;
    probes.push(
      untilShown(agent, task, cluster.name, pod, startTime, changedAt),
    );
  }
  for (const probe of await Promise.all(probes)) {
    if (probe.delay === undefined) unseen++;
    else delays.push(probe.delay);
    errors += probe.errors.length;
    firstError ??= probe.errors[0];
  }
  agent.destroy();
  api.close();
  return {
    changes,
    unseen,
    delays: summarize(delays, errors, task.seconds, firstError),
  };
}

if (parentPort) {
  const port = parentPort;
  const task = workerData as PollTask | ChurnTask;
  (task.task === 'poll' ? poll(task) : churn(task)).then(result =>
    port.postMessage(result),
  );
}
