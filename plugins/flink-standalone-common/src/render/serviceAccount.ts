import type { ClusterSpec } from '../spec/schema';
import { clusterObjectNames } from './names';

/** The ServiceAccount the Flink pods run as: the user's, or ours when HA needs one. */
export function podServiceAccount(spec: ClusterSpec): string | undefined {
  return (
    spec.podTemplate.serviceAccountName ??
    (spec.highAvailability ? clusterObjectNames(spec.name).rbac : undefined)
  );
}
