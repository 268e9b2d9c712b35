import type { Entity } from '@backstage/catalog-model';
import { InputError } from '@backstage/errors';
import { DNS_1035_LABEL, DNS_1123_LABEL } from './spec/formats';
import { MAX_NAME_LENGTH } from './spec/schema';

/**
 * The entity annotations that tie a catalog component to its Flink cluster.
 *
 * @public
 */
export const ANNOTATION_FLINK_CLUSTER = 'flink-standalone.backstage.io/cluster';
/** @public */
export const ANNOTATION_FLINK_NAMESPACE =
  'flink-standalone.backstage.io/namespace';
/** @public */
export const ANNOTATION_KUBERNETES_CLUSTER =
  'flink-standalone.backstage.io/kubernetes-cluster';
/**
 * Optional: where people open the Flink UI (otherwise the backend's proxy link, if any).
 *
 * @public
 */
export const ANNOTATION_FLINK_UI_URL =
  'flink-standalone.backstage.io/flink-ui-url';

/** @public */
export const FLINK_STANDALONE_ANNOTATIONS = [
  ANNOTATION_FLINK_CLUSTER,
  ANNOTATION_FLINK_NAMESPACE,
  ANNOTATION_KUBERNETES_CLUSTER,
] as const;

/**
 * Where an entity's Flink cluster runs.
 *
 * @public
 */
export interface FlinkClusterLocation {
  /** The Kubernetes cluster's name in the backend's config. */
  kubernetesCluster: string;
  namespace: string;
  /** The Flink cluster's name (the spec's `name`). */
  name: string;
}

/**
 * Whether the entity names a Flink cluster: guards the entity card and tab.
 *
 * @public
 */
export function isFlinkStandaloneAvailable(entity: Entity): boolean {
  const annotations = entity.metadata.annotations ?? {};
  return FLINK_STANDALONE_ANNOTATIONS.every(a => Boolean(annotations[a]));
}

/**
 * The entity's Flink cluster, or an `InputError` naming each missing or malformed annotation.
 *
 * @public
 */
export function getFlinkClusterLocation(entity: Entity): FlinkClusterLocation {
  const annotations = entity.metadata.annotations ?? {};
  const problems: string[] = [];
  const read = (key: string, rule: RegExp | undefined, what: string) => {
    const value = annotations[key];
    if (!value) problems.push(`${key} is missing`);
    else if (rule && !rule.test(value))
      problems.push(`${key} "${value}" is not ${what}`);
    return value ?? '';
  };
  const name = read(
    ANNOTATION_FLINK_CLUSTER,
    DNS_1035_LABEL,
    'a Flink cluster name (DNS-1035 label)',
  );
  if (name.length > MAX_NAME_LENGTH)
    problems.push(
      `${ANNOTATION_FLINK_CLUSTER} is longer than ${MAX_NAME_LENGTH} characters`,
    );
  const namespace = read(
    ANNOTATION_FLINK_NAMESPACE,
    DNS_1123_LABEL,
    'a namespace (DNS-1123 label)',
  );
  const kubernetesCluster = read(ANNOTATION_KUBERNETES_CLUSTER, undefined, '');
  if (problems.length > 0) {
    throw new InputError(
      `Entity ${entity.metadata.name} does not name a Flink cluster: ${problems.join('; ')}`,
    );
  }
  return { kubernetesCluster, namespace, name };
}
