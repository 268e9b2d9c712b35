import type {
  V1ContainerStateTerminated,
  CoreV1Event,
  V1ContainerStatus,
  V1Pod,
} from '@kubernetes/client-node';
import type {
  ClusterError,
  ClusterErrorReason,
  FlinkComponent,
} from '@flink-standalone/plugin-flink-standalone-common';
import {
  COMPONENT_TITLE,
  containerStatuses,
  isPodReady,
  isStatefulSet,
  isTerminating,
  objectRef,
  workloadKind,
} from './kube';
import { eventTime } from './events';
import type { Workload } from './types';

/** Container waiting reasons that do not go away by waiting. */
const WAITING_ERRORS: ReadonlySet<string> = new Set<ClusterErrorReason>([
  'CrashLoopBackOff',
  'ImagePullBackOff',
  'ErrImagePull',
  'RunContainerError',
  'CreateContainerConfigError',
]);

const VOLUME_EVENT_ERRORS: ReadonlySet<string> = new Set<ClusterErrorReason>([
  'FailedMount',
  'FailedAttachVolume',
]);

/** The pods of one component (in display order), and its workload if it exists. */
export interface ComponentObjects {
  component: FlinkComponent;
  workload?: Workload;
  pods: V1Pod[];
}

/** Errors of one component: the workload's first, then its pods' in order. */
export function componentErrors(
  objects: ComponentObjects,
  events: CoreV1Event[],
): ClusterError[] {
  const errors: ClusterError[] = [];
  const workloadError = objects.workload
    ? failedCreate(objects.component, objects.workload, events)
    : undefined;
  if (workloadError) errors.push(workloadError);
  for (const pod of objects.pods) {
    // A pod on its way out is replaced; its errors are history.
    if (!isTerminating(pod))
      addPodErrors(errors, objects.component, pod, events);
  }
  return errors;
}

/**
 * A mount that fails once and then succeeds is normal (e.g. the kubelet's ConfigMap cache not yet
 * synced for a pod just bound to it); one that keeps failing is retried within seconds (backoff from
 * 0.5 s) and reported again. Counted from events only, so the status does not depend on the clock.
 */
const REPEATED_MOUNT_FAILURES = 2;

function timesReported(
  events: CoreV1Event[],
  reason: string | undefined,
): number {
  return events
    .filter(e => e.reason === reason)
    .reduce((total, e) => total + Math.max(e.count ?? 1, 1), 0);
}

/** How an error message names a pod: `TaskManager pod orders-taskmanager-1`. */
function podTitle(component: FlinkComponent, name: string): string {
  return `${COMPONENT_TITLE[component]} pod ${name}`;
}

/**
 * Adds a pod's errors to `errors`. Statuses are computed on every change of a viewed cluster and
 * most pods have no error: the healthy path allocates nothing.
 */
function addPodErrors(
  errors: ClusterError[],
  component: FlinkComponent,
  pod: V1Pod,
  events: CoreV1Event[],
): void {
  const name = pod.metadata?.name ?? '';
  for (const status of containerStatuses(pod)) {
    const found = containerError(status);
    if (found)
      errors.push({
        reason: found.reason,
        message: `${podTitle(component, name)}, container ${status.name}: ${found.message}`,
        component,
        object: objectRef('Pod', name),
        pod: name,
        container: status.name,
      });
  }
  // Mount failures are only reported as events, and stay in the event list after they clear.
  if (isPodReady(pod)) return;
  const volumeEvents = events.filter(
    e =>
      e.type === 'Warning' &&
      VOLUME_EVENT_ERRORS.has(e.reason ?? '') &&
      isAbout(e, 'Pod', name, pod.metadata?.uid),
  );
  for (const e of latestByReason(volumeEvents)) {
    if (timesReported(volumeEvents, e.reason) >= REPEATED_MOUNT_FAILURES)
      errors.push({
        reason: e.reason as ClusterErrorReason,
        message: `${podTitle(component, name)}: ${e.message ?? e.reason}`,
        component,
        object: objectRef('Pod', name),
        pod: name,
      });
  }
}

/** OOMKilled explains a CrashLoopBackOff better than the back-off itself does. */
function containerError(
  status: V1ContainerStatus,
): { reason: ClusterErrorReason; message: string } | undefined {
  if (status.state?.running) return undefined;
  const terminated = status.state?.terminated ?? status.lastState?.terminated;
  if (terminated?.reason === 'OOMKilled') {
    return {
      reason: 'OOMKilled',
      message:
        `killed for exceeding its memory limit (OOMKilled, exit code ${terminated.exitCode}), ` +
        `restarted ${status.restartCount ?? 0} times`,
    };
  }
  const waiting = status.state?.waiting;
  if (waiting?.reason && WAITING_ERRORS.has(waiting.reason)) {
    const lastExit =
      waiting.reason === 'CrashLoopBackOff'
        ? describeExit(status.lastState?.terminated)
        : '';
    return {
      reason: waiting.reason as ClusterErrorReason,
      message: `${waiting.reason}: ${waiting.message ?? 'no message'}${lastExit}`,
    };
  }
  return undefined;
}

/** Lines of a termination message kept in a status (the kubelet keeps up to 4 KiB). */
const LAST_MESSAGE_LINES = 5;
/** The kubelet keeps at most this much of a log as the message: its first line may be cut. */
const LOG_FALLBACK_BYTES = 2048;
/** Java stack frames say where, not why: the exception lines around them do. */
const STACK_FRAME = /^\s+(at |\.\.\. \d+ more)/;

/**
 * Why the container last stopped: exit code, reason and the end of its termination message (with
 * the rendered `FallbackToLogsOnError` policy, the last lines of its log when it failed).
 */
function describeExit(
  terminated: V1ContainerStateTerminated | undefined,
): string {
  if (!terminated) return '';
  const message = terminated.message ?? '';
  const whole = Buffer.byteLength(message) < LOG_FALLBACK_BYTES;
  const lines = message
    .split('\n')
    .slice(whole ? 0 : 1)
    .filter(line => line.trim() && !STACK_FRAME.test(line))
    .slice(-LAST_MESSAGE_LINES);
  const reason = terminated.reason ? ` (${terminated.reason})` : '';
  return `; last exit: code ${terminated.exitCode}${reason}${lines.length ? `, last output:\n${lines.join('\n')}` : ''}`;
}

/**
 * FailedCreate comes as an event on the StatefulSet, or on a Deployment's ReplicaSet (which the
 * Deployment also shows as its ReplicaFailure condition). It matters while pods are missing.
 */
function failedCreate(
  component: FlinkComponent,
  workload: Workload,
  events: CoreV1Event[],
): ClusterError | undefined {
  const name = workload.metadata?.name ?? '';
  const kind = workloadKind(workload);
  const error = (message: string): ClusterError => ({
    reason: 'FailedCreate',
    message: `${COMPONENT_TITLE[component]} ${kind} ${name}: ${message}`,
    component,
    object: objectRef(kind, name),
  });
  if (!isStatefulSet(workload)) {
    const failure = (workload.status?.conditions ?? []).find(
      c => c.type === 'ReplicaFailure' && c.status === 'True',
    );
    if (failure) return error(failure.message ?? failure.reason ?? '');
  }
  const missingPods =
    (workload.status?.replicas ?? 0) < (workload.spec?.replicas ?? 1);
  if (!missingPods) return undefined;
  const [latest] = latestByReason(
    events.filter(
      e =>
        e.type === 'Warning' &&
        e.reason === 'FailedCreate' &&
        (isAbout(e, kind, name, workload.metadata?.uid) ||
          (kind === 'Deployment' && isReplicaSetOf(e, name))),
    ),
  );
  return latest ? error(latest.message ?? 'FailedCreate') : undefined;
}

/** A ReplicaSet of Deployment <name> is <name>-<pod-template-hash>. */
function isReplicaSetOf(event: CoreV1Event, deployment: string): boolean {
  const { kind, name = '' } = event.involvedObject;
  const prefix = `${deployment}-`;
  return (
    kind === 'ReplicaSet' &&
    name.startsWith(prefix) &&
    /^[a-z0-9]+$/.test(name.slice(prefix.length))
  );
}

/** An event about this object; a uid, when both have one, tells apart a re-created namesake. */
function isAbout(
  event: CoreV1Event,
  kind: string,
  name: string,
  uid: string | undefined,
): boolean {
  const object = event.involvedObject;
  return (
    object.kind === kind &&
    object.name === name &&
    (!object.uid || !uid || object.uid === uid)
  );
}

/** The newest event of each reason. */
function latestByReason(events: CoreV1Event[]): CoreV1Event[] {
  const latest = new Map<string, CoreV1Event>();
  for (const event of events) {
    const seen = latest.get(event.reason ?? '');
    if (!seen || eventTime(event) > eventTime(seen))
      latest.set(event.reason ?? '', event);
  }
  return [...latest.values()];
}
