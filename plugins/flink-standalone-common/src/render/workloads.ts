import type { Deployment, StatefulSet } from 'kubernetes-types/apps/v1';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1';
import type { ClusterSpec } from '../spec';
import {
  FlinkComponent,
  claimLabels,
  clusterLabels,
  selectorLabels,
} from './labels';
import { clusterObjectNames } from './names';
import { claimSpec, claimTemplates, renderPodTemplate } from './podTemplate';

/** @public */
export type FlinkWorkload = StatefulSet | Deployment;

function componentSpec(spec: ClusterSpec, component: FlinkComponent) {
  return component === 'jobmanager' ? spec.jobManager : spec.taskManager;
}

/** A suspended cluster keeps its workloads and claims, without pods. */
function replicasOf(spec: ClusterSpec, component: FlinkComponent): number {
  return spec.state === 'suspended'
    ? 0
    : componentSpec(spec, component).replicas;
}

function metadata(spec: ClusterSpec, component: FlinkComponent) {
  const names = clusterObjectNames(spec.name);
  return {
    name: component === 'jobmanager' ? names.jobManager : names.taskManager,
    namespace: spec.namespace,
    labels: clusterLabels(spec, component),
  };
}

/** The JobManager or TaskManager workload, of the kind the spec chose for it. */
export function renderWorkload(
  spec: ClusterSpec,
  component: FlinkComponent,
  configHash: string,
): FlinkWorkload {
  const { workload } = componentSpec(spec, component);
  return workload === 'StatefulSet'
    ? renderStatefulSet(spec, component, configHash)
    : renderDeployment(spec, component, configHash);
}

function renderStatefulSet(
  spec: ClusterSpec,
  component: FlinkComponent,
  configHash: string,
): StatefulSet {
  const names = clusterObjectNames(spec.name);
  const own = componentSpec(spec, component);
  const templates = claimTemplates(spec, component);
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: metadata(spec, component),
    spec: {
      // Each workload's own governing Service: the JobManager's headless Service, or the
      // TaskManagers' (the original proposal named one it never created).
      serviceName:
        component === 'jobmanager'
          ? names.jobManagerService
          : names.taskManagerService,
      replicas: replicasOf(spec, component),
      podManagementPolicy:
        component === 'taskmanager'
          ? spec.taskManager.podManagementPolicy
          : 'Parallel',
      selector: { matchLabels: selectorLabels(spec, component) },
      updateStrategy: { type: 'RollingUpdate' },
      // Explicit, so claims do not silently outlive their cluster.
      persistentVolumeClaimRetentionPolicy: {
        whenDeleted: own.pvcRetention.whenDeleted,
        // Suspending is a pause, not a scale-down: the claims (and what is on them) stay.
        whenScaled:
          spec.state === 'suspended' ? 'Retain' : own.pvcRetention.whenScaled,
      },
      template: renderPodTemplate({
        spec,
        component,
        workload: 'StatefulSet',
        configHash,
      }),
      // This component's own templates only (the original proposal gave the TMs the JM's).
      ...(templates.length > 0 && {
        volumeClaimTemplates: templates.map(t => ({
          metadata: {
            name: t.name,
            labels: { ...claimLabels(spec, component), ...t.labels },
            ...(Object.keys(t.annotations).length > 0 && {
              annotations: t.annotations,
            }),
          },
          spec: claimSpec(t),
        })),
      }),
    },
  };
}

function renderDeployment(
  spec: ClusterSpec,
  component: FlinkComponent,
  configHash: string,
): Deployment {
  // A lone JobManager without HA must never overlap with its successor.
  const recreate = component === 'jobmanager' && !spec.highAvailability;
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: metadata(spec, component),
    spec: {
      replicas: replicasOf(spec, component),
      selector: { matchLabels: selectorLabels(spec, component) },
      strategy: recreate ? { type: 'Recreate' } : { type: 'RollingUpdate' },
      template: renderPodTemplate({
        spec,
        component,
        workload: 'Deployment',
        configHash,
      }),
    },
  };
}

export function renderPodDisruptionBudget(
  spec: ClusterSpec,
): PodDisruptionBudget | undefined {
  const budget = spec.taskManager.podDisruptionBudget;
  if (!budget) return undefined;
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: {
      name: clusterObjectNames(spec.name).podDisruptionBudget,
      namespace: spec.namespace,
      labels: clusterLabels(spec, 'taskmanager'),
    },
    spec: {
      maxUnavailable: budget.maxUnavailable,
      selector: { matchLabels: selectorLabels(spec, 'taskmanager') },
    },
  };
}
