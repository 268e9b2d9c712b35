/**
 * The key of one Flink cluster (its Kubernetes cluster, namespace and name) in the maps that keep
 * what is known of it: statuses, Flink REST answers, refreshes in flight, restores.
 */
export const clusterKey = (
  kubernetesCluster: string,
  namespace: string,
  name: string,
) => `${kubernetesCluster}/${namespace}/${name}`;
