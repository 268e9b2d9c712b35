import { readFileSync } from 'node:fs';
import { KubeConfig } from '@kubernetes/client-node';
import type { Config } from '@backstage/config';
import { InputError, NotAllowedError, NotFoundError } from '@backstage/errors';
import { KubeHttp } from '../kube/KubeHttp';

export interface FlinkRestAccess {
  mode: 'proxy' | 'direct';
  /** For `direct`: with `{name}` and `{namespace}` placeholders. */
  baseUrl?: string;
  timeoutMs: number;
}

/** A Kubernetes cluster Flink clusters can live in, with credentials that never leave it. */
export interface FlinkKubernetesCluster {
  name: string;
  http: KubeHttp;
  /** Undefined: every namespace. */
  allowedNamespaces?: string[];
  flinkRest: FlinkRestAccess;
}

/** What a caller may learn about a cluster: no URL, no credentials. */
export interface ClusterInfo {
  name: string;
  allowedNamespaces?: string[];
}

/** Builds a KubeConfig for one `kubernetes.clusterLocatorMethods` cluster entry. */
export function kubeConfigFromClusterEntry(entry: Config): KubeConfig {
  const name = entry.getString('name');
  const authProvider =
    entry.getOptionalString('authProvider') ?? 'serviceAccount';
  if (authProvider !== 'serviceAccount') {
    throw new InputError(
      `kubernetes cluster "${name}": authProvider "${authProvider}" is not supported by Flink Standalone (use serviceAccount)`,
    );
  }
  const token = entry.getOptionalString('serviceAccountToken');
  const kubeConfig = new KubeConfig();
  if (!token) {
    // No token: the backend runs in the cluster and uses its own ServiceAccount.
    kubeConfig.loadFromCluster();
    return kubeConfig;
  }
  const caFile = entry.getOptionalString('caFile');
  const caData = entry.getOptionalString('caData');
  kubeConfig.loadFromOptions({
    clusters: [
      {
        name,
        server: entry.getString('url'),
        skipTLSVerify: entry.getOptionalBoolean('skipTLSVerify') ?? false,
        ...(caData && {
          caData: caData.includes('-----BEGIN')
            ? Buffer.from(caData).toString('base64')
            : caData,
        }),
        ...(caFile && { caFile }),
      },
    ],
    users: [{ name, token }],
    contexts: [{ name, cluster: name, user: name }],
    currentContext: name,
  });
  return kubeConfig;
}

function kubeConfigFromFile(name: string, options: Config): KubeConfig {
  const path = options.getString('path');
  const context = options.getOptionalString('context');
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromString(readFileSync(path, 'utf8'));
  if (context) {
    if (!kubeConfig.getContextObject(context)) {
      throw new InputError(
        `flinkStandalone cluster "${name}": context "${context}" is not in ${path}`,
      );
    }
    kubeConfig.setCurrentContext(context);
  }
  return kubeConfig;
}

function flinkRestAccess(options: Config | undefined): FlinkRestAccess {
  const rest = options?.getOptionalConfig('flinkRest');
  const mode = (rest?.getOptionalString('mode') ??
    'proxy') as FlinkRestAccess['mode'];
  const baseUrl = rest?.getOptionalString('baseUrl');
  if (mode !== 'proxy' && mode !== 'direct') {
    throw new InputError(
      `flinkStandalone.clusters[].flinkRest.mode must be proxy or direct, not "${mode}"`,
    );
  }
  if (mode === 'direct' && !baseUrl) {
    throw new InputError(
      'flinkStandalone.clusters[].flinkRest.baseUrl is required with mode direct',
    );
  }
  return {
    mode,
    baseUrl,
    timeoutMs: rest?.getOptionalNumber('timeoutMs') ?? 2000,
  };
}

/**
 * The Kubernetes clusters from config: the Backstage Kubernetes plugin's `config` locators,
 * plus `flinkStandalone.clusters` entries with a kubeconfig, each with our own options.
 */
export class ClusterRegistry {
  private constructor(
    private readonly clusters: Map<string, FlinkKubernetesCluster>,
  ) {}

  static fromConfig(config: Config): ClusterRegistry {
    const options = new Map(
      (config.getOptionalConfigArray('flinkStandalone.clusters') ?? []).map(
        c => [c.getString('name'), c],
      ),
    );
    const clusters = new Map<string, FlinkKubernetesCluster>();
    const add = (name: string, kubeConfig: KubeConfig) => {
      const own = options.get(name);
      clusters.set(name, {
        name,
        http: new KubeHttp(kubeConfig),
        allowedNamespaces: own?.getOptionalStringArray('allowedNamespaces'),
        flinkRest: flinkRestAccess(own),
      });
    };
    for (const method of config.getOptionalConfigArray(
      'kubernetes.clusterLocatorMethods',
    ) ?? []) {
      if (method.getString('type') !== 'config') continue;
      for (const entry of method.getOptionalConfigArray('clusters') ?? []) {
        add(entry.getString('name'), kubeConfigFromClusterEntry(entry));
      }
    }
    for (const [name, own] of options) {
      const kubeconfig = own.getOptionalConfig('kubeconfig');
      if (kubeconfig) add(name, kubeConfigFromFile(name, kubeconfig));
      else if (!clusters.has(name)) {
        throw new InputError(
          `flinkStandalone.clusters: "${name}" matches no kubernetes.clusterLocatorMethods cluster and has no kubeconfig`,
        );
      }
    }
    return new ClusterRegistry(clusters);
  }

  /** For tests and embedders that build clusters themselves. */
  static of(clusters: FlinkKubernetesCluster[]): ClusterRegistry {
    return new ClusterRegistry(new Map(clusters.map(c => [c.name, c])));
  }

  list(): ClusterInfo[] {
    return [...this.clusters.values()].map(c => ({
      name: c.name,
      allowedNamespaces: c.allowedNamespaces,
    }));
  }

  get(name: string): FlinkKubernetesCluster {
    const cluster = this.clusters.get(name);
    if (!cluster)
      throw new NotFoundError(
        `No Kubernetes cluster named "${name}" is configured`,
      );
    return cluster;
  }

  /** Refuses (403) a namespace outside the cluster's allowed list, before any call to Kubernetes. */
  authorize(name: string, namespace: string): FlinkKubernetesCluster {
    const cluster = this.get(name);
    if (
      cluster.allowedNamespaces &&
      !cluster.allowedNamespaces.includes(namespace)
    ) {
      throw new NotAllowedError(
        `Namespace "${namespace}" is not allowed for Flink clusters on "${name}" (allowed: ${cluster.allowedNamespaces.join(', ')})`,
      );
    }
    return cluster;
  }
}
