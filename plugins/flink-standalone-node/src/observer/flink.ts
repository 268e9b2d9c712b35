import type {
  FlinkRestSummary,
  RestUnreachableReason,
} from '@flink-standalone/plugin-flink-standalone-common';
import type { V1Node } from '@kubernetes/client-node';
import {
  componentLabel,
  isPodReady,
  isSimulatedNode,
  isTerminating,
} from './kube';
import type { ClusterSnapshot, FlinkRestObservation } from './types';

/** What the snapshot tells about the JobManager, to explain an unreachable REST API. */
export interface JobManagerFacts {
  ready: boolean;
  onSimulatedNodes: boolean;
}

/** REST is served by a JobManager: is one Ready, and do its pods run anywhere a Flink process could? */
export function jobManagerFacts(
  snapshot: Pick<ClusterSnapshot, 'pods' | 'nodes'>,
): JobManagerFacts {
  const live = snapshot.pods.filter(
    pod => componentLabel(pod.metadata) === 'jobmanager' && !isTerminating(pod),
  );
  const placed = live
    .map(pod =>
      snapshot.nodes.find(n => n.metadata?.name === pod.spec?.nodeName),
    )
    .filter((node): node is V1Node => node !== undefined);
  return {
    ready: live.some(isPodReady),
    onSimulatedNodes: placed.length > 0 && placed.every(isSimulatedNode),
  };
}

export function summarizeRest(
  rest: FlinkRestObservation | undefined,
  jobManager: JobManagerFacts,
): FlinkRestSummary {
  if (rest?.reachable) {
    const { overview } = rest;
    return {
      reachable: true,
      fetchedAt: rest.fetchedAt,
      version: overview?.flinkVersion,
      taskManagersRegistered:
        overview?.taskmanagers ?? rest.taskManagers?.length,
      slotsTotal:
        overview?.slotsTotal ?? sum(rest.taskManagers, tm => tm.slotsNumber),
      slotsFree:
        overview?.slotsAvailable ?? sum(rest.taskManagers, tm => tm.freeSlots),
      jobsByState: jobsByState(rest),
      lastRestore: rest.lastRestore,
    };
  }
  return {
    reachable: false,
    fetchedAt: rest?.fetchedAt,
    unreachableReason: unreachableReason(rest, jobManager),
    error: rest?.error,
    jobsByState: {},
  };
}

/**
 * The snapshot explains more than the fetcher can: no JobManager, then simulated nodes. Before
 * the first answer nothing is known: a direct REST URL may reach a real Flink.
 */
function unreachableReason(
  rest: FlinkRestObservation | undefined,
  jobManager: JobManagerFacts,
): RestUnreachableReason | undefined {
  if (!rest) return jobManager.ready ? undefined : 'NotRunning';
  if (jobManager.onSimulatedNodes) return 'SimulatedNodes';
  if (!jobManager.ready) return 'NotRunning';
  return rest.unreachableReason ?? 'Error';
}

/** From /jobs/overview when fetched, else the counts in /overview. */
function jobsByState(rest: FlinkRestObservation): Record<string, number> {
  if (rest.jobs) {
    const counts: Record<string, number> = {};
    for (const job of rest.jobs)
      counts[job.state] = (counts[job.state] ?? 0) + 1;
    return counts;
  }
  const overview = rest.overview;
  if (!overview) return {};
  const counts = {
    RUNNING: overview.jobsRunning,
    FINISHED: overview.jobsFinished,
    CANCELED: overview.jobsCancelled,
    FAILED: overview.jobsFailed,
  };
  return Object.fromEntries(Object.entries(counts).filter(([, n]) => n > 0));
}

function sum<T>(items: T[] | undefined, value: (item: T) => number) {
  return items?.reduce((total, item) => total + value(item), 0);
}

/** One sentence on the REST API, for the state message and the condition. */
export function restMessage(flink: FlinkRestSummary): string {
  if (flink.reachable) {
    return `Flink ${flink.version ?? '(version unknown)'} REST API answers`;
  }
  switch (flink.unreachableReason) {
    case 'SimulatedNodes':
      return 'REST not reachable: pods run on simulated (kwok) nodes, no Flink process runs in them';
    case 'NotRunning':
      return 'REST not reachable: no JobManager pod is Ready';
    case 'Error':
      return `REST not reachable: ${flink.error ?? 'request failed'}`;
    default:
      return 'REST not queried yet';
  }
}
