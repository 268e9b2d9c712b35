import type { CoreV1Event } from '@kubernetes/client-node';
import type { ClusterEvent } from '@flink-standalone/plugin-flink-standalone-common';
import { epochMs, objectRef } from './kube';

/** When the event last happened, in whichever field the reporter filled (events.k8s.io or core). */
export function eventTime(event: CoreV1Event): number {
  return (
    epochMs(event.lastTimestamp) ??
    epochMs(event.series?.lastObservedTime) ??
    epochMs(event.eventTime) ??
    epochMs(event.firstTimestamp) ??
    epochMs(event.metadata?.creationTimestamp) ??
    0
  );
}

export function recentEvents(
  events: CoreV1Event[],
  max: number,
): ClusterEvent[] {
  return [...events]
    .sort((a, b) => eventTime(b) - eventTime(a))
    .slice(0, max)
    .map(event => {
      const time = eventTime(event);
      return {
        type: event.type ?? 'Normal',
        reason: event.reason ?? '',
        message: event.message ?? '',
        object: objectRef(event.involvedObject.kind, event.involvedObject.name),
        count: event.series?.count ?? event.count ?? 1,
        ...(time > 0 && { lastTimestamp: new Date(time).toISOString() }),
      };
    });
}
