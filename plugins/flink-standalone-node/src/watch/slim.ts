import type {
  CoreV1Event,
  KubernetesObject,
  V1Deployment,
  V1Node,
  V1PersistentVolumeClaim,
  V1Pod,
  V1StatefulSet,
} from '@kubernetes/client-node';

/**
 * What the observer reads of each kind, and nothing else: the watch cache holds thousands of
 * pods, so managedFields, pod specs' containers and env, and annotations never reach memory.
 */

function slimMetadata(metadata: any = {}) {
  return {
    name: metadata.name,
    namespace: metadata.namespace,
    uid: metadata.uid,
    resourceVersion: metadata.resourceVersion,
    generation: metadata.generation,
    labels: metadata.labels,
    creationTimestamp: metadata.creationTimestamp,
    deletionTimestamp: metadata.deletionTimestamp,
    deletionGracePeriodSeconds: metadata.deletionGracePeriodSeconds,
    finalizers: metadata.finalizers,
    ownerReferences: metadata.ownerReferences?.map((o: any) => ({
      kind: o.kind,
      name: o.name,
      uid: o.uid,
      apiVersion: o.apiVersion,
      controller: o.controller,
    })),
  };
}

function slimContainerStatus(status: any) {
  return {
    name: status.name,
    ready: status.ready,
    restartCount: status.restartCount,
    started: status.started,
    state: status.state,
    lastState: status.lastState,
    image: status.image,
  };
}

export function slimPod(pod: any): V1Pod {
  return {
    kind: 'Pod',
    metadata: slimMetadata(pod.metadata),
    spec: {
      nodeName: pod.spec?.nodeName,
      containers: (pod.spec?.containers ?? []).map((c: any) => ({
        name: c.name,
        image: c.image,
      })),
      // Only the claims: which volume of the pod is which PVC.
      volumes: (pod.spec?.volumes ?? [])
        .filter((v: any) => v.persistentVolumeClaim || v.ephemeral)
        .map((v: any) => ({
          name: v.name,
          ...(v.persistentVolumeClaim && {
            persistentVolumeClaim: {
              claimName: v.persistentVolumeClaim.claimName,
            },
          }),
          ...(v.ephemeral && { ephemeral: {} }),
        })),
    },
    status: {
      phase: pod.status?.phase,
      reason: pod.status?.reason,
      message: pod.status?.message,
      podIP: pod.status?.podIP,
      startTime: pod.status?.startTime,
      conditions: pod.status?.conditions?.map((c: any) => ({
        type: c.type,
        status: c.status,
        reason: c.reason,
        message: c.message,
        lastTransitionTime: c.lastTransitionTime,
      })),
      containerStatuses:
        pod.status?.containerStatuses?.map(slimContainerStatus),
      initContainerStatuses:
        pod.status?.initContainerStatuses?.map(slimContainerStatus),
    },
  } as V1Pod;
}

export function slimWorkload(workload: any): V1StatefulSet | V1Deployment {
  const { template, ...spec } = workload.spec ?? {};
  return {
    kind: workload.kind,
    apiVersion: 'apps/v1',
    metadata: {
      ...slimMetadata(workload.metadata),
      annotations: workload.metadata?.annotations,
    },
    spec: {
      ...spec,
      // The pod template is large and the observer needs none of it but its labels.
      template: { metadata: { labels: template?.metadata?.labels } },
    },
    status: workload.status,
  } as V1StatefulSet;
}

export function slimClaim(claim: any): V1PersistentVolumeClaim {
  return {
    kind: 'PersistentVolumeClaim',
    metadata: slimMetadata(claim.metadata),
    spec: {
      accessModes: claim.spec?.accessModes,
      storageClassName: claim.spec?.storageClassName,
      volumeName: claim.spec?.volumeName,
      resources: { requests: claim.spec?.resources?.requests },
    },
    status: {
      phase: claim.status?.phase,
      capacity: claim.status?.capacity,
      accessModes: claim.status?.accessModes,
    },
  } as V1PersistentVolumeClaim;
}

export function slimEvent(event: any): CoreV1Event {
  return {
    kind: 'Event',
    metadata: {
      name: event.metadata?.name,
      namespace: event.metadata?.namespace,
      uid: event.metadata?.uid,
    },
    involvedObject: {
      kind: event.involvedObject?.kind,
      name: event.involvedObject?.name,
      namespace: event.involvedObject?.namespace,
      uid: event.involvedObject?.uid,
    },
    reason: event.reason,
    message: event.message,
    type: event.type,
    count: event.count,
    firstTimestamp: event.firstTimestamp,
    lastTimestamp:
      event.lastTimestamp ??
      event.eventTime ??
      event.metadata?.creationTimestamp,
    eventTime: event.eventTime,
  } as CoreV1Event;
}

export function slimNode(node: any): V1Node {
  return {
    kind: 'Node',
    metadata: {
      name: node.metadata?.name,
      labels: node.metadata?.labels,
      annotations: node.metadata?.annotations,
      uid: node.metadata?.uid,
    },
    spec: {
      unschedulable: node.spec?.unschedulable,
      taints: node.spec?.taints,
    },
    status: {
      conditions: node.status?.conditions
        ?.filter((c: any) => c.type === 'Ready')
        .map((c: any) => ({
          type: c.type,
          status: c.status,
          reason: c.reason,
          lastTransitionTime: c.lastTransitionTime,
        })),
    },
  } as V1Node;
}

export type Slimmer = (object: any) => KubernetesObject;
