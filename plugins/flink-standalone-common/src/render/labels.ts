import type { ClusterSpec } from '../spec/schema';
import {
  LABEL_APP,
  LABEL_COMPONENT,
  LABEL_KUBERNETES_ID,
  LABEL_TYPE,
  MANAGED_BY,
  TYPE_FLINK_STANDALONE,
} from '../spec/reserved';

/** @public */
export type FlinkComponent = 'jobmanager' | 'taskmanager';

/**
 * Labels on every object: the operator's (`app`, `type`), the recommended `app.kubernetes.io/*`,
 * and `backstage.io/kubernetes-id` so the stock Backstage Kubernetes plugin finds them too.
 *
 * @public
 */
export function clusterLabels(
  spec: ClusterSpec,
  component?: FlinkComponent,
): Record<string, string> {
  return {
    [LABEL_APP]: spec.name,
    ...(component && { [LABEL_COMPONENT]: component }),
    [LABEL_TYPE]: TYPE_FLINK_STANDALONE,
    'app.kubernetes.io/name': 'flink',
    'app.kubernetes.io/instance': spec.name,
    ...(component && { 'app.kubernetes.io/component': component }),
    'app.kubernetes.io/version': spec.flinkVersion,
    'app.kubernetes.io/managed-by': MANAGED_BY,
    [LABEL_KUBERNETES_ID]: spec.component,
  };
}

/**
 * Selectors are immutable, so they use a small subset that never changes for a cluster.
 *
 * @public
 */
export function selectorLabels(
  spec: ClusterSpec,
  component: FlinkComponent,
): Record<string, string> {
  return {
    [LABEL_APP]: spec.name,
    [LABEL_COMPONENT]: component,
    [LABEL_TYPE]: TYPE_FLINK_STANDALONE,
  };
}

/**
 * Labels on claims. StatefulSet claim templates are immutable, so these leave out what may
 * change over a cluster's life (the Flink version).
 *
 * @public
 */
export function claimLabels(
  spec: ClusterSpec,
  component: FlinkComponent,
): Record<string, string> {
  const { ['app.kubernetes.io/version']: _version, ...stable } = clusterLabels(
    spec,
    component,
  );
  return stable;
}
