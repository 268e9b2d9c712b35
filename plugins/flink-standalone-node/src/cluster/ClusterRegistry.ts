import { readFileSync } from 'node:fs';
import { KubeConfig } from '@kubernetes/client-node';
import type { Config } from '@backstage/config';
import { InputError, NotAllowedError, NotFoundError } from '@backstage/errors';
import { KubeHttp } from '../kube/KubeHttp';
import {
  BUILT_IN_AUTH_STRATEGIES,
  ConfigClusterSupplier,
} from './configClusters';
import { kubeConnectionFor } from './connection';
import type {
  FlinkClusterAuthStrategy,
  FlinkClusterDetails,
} from './extensions';

/** @public */
export interface FlinkRestAccess {
  mode: 'proxy' | 'direct';
  /** For `direct`: with `{name}` and `{namespace}` placeholders. */
  baseUrl?: string;
  timeoutMs: number;
}

/**
 * A Kubernetes cluster Flink clusters can live in, with credentials that never leave it.
 *
 * @public
 */
export interface FlinkKubernetesCluster {
  name: string;
  http: KubeHttp;
  /** Undefined: every namespace. */
  allowedNamespaces?: string[];
  flinkRest: FlinkRestAccess;
  /** Where people open the Flink UI, with `{name}`/`{namespace}` placeholders. */
  flinkUiUrl?: string;
}

/**
 * What a caller may learn about a cluster: no URL, no credentials.
 *
 * @public
 */
export interface ClusterInfo {
  name: string;
  allowedNamespaces?: string[];
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

/** @public */
export interface ClusterRegistryOptions {
  /** Read for `flinkStandalone.clusters`: per-cluster options, and clusters with a kubeconfig. */
  config: Config;
  /** What the cluster supplier found. */
  clusters?: FlinkClusterDetails[];
  /** Strategies by `authProvider` key, besides the built-in `serviceAccount`. */
  authStrategies?: ReadonlyMap<string, FlinkClusterAuthStrategy>;
}

/**
 * The Kubernetes clusters from config: the Backstage Kubernetes plugin's `config` locators,
 * plus `flinkStandalone.clusters` entries with a kubeconfig, each with our own options.
 *
 * @public
 */
export class ClusterRegistry {
  private constructor(
    private readonly clusters: Map<string, FlinkKubernetesCluster>,
  ) {}

  /** The clusters of config alone: the config entries, the built-in auth strategy. */
  static fromConfig(config: Config): ClusterRegistry {
    return ClusterRegistry.create({
      config,
      clusters: new ConfigClusterSupplier(config).clusters(),
    });
  }

  /**
   * The clusters a supplier found, each authenticated by the strategy its `authProvider` names,
   * with the options of its `flinkStandalone.clusters` entry; plus that list's kubeconfig clusters.
   */
  static create(options: ClusterRegistryOptions): ClusterRegistry {
    const { config } = options;
    const strategies = new Map([
      ...BUILT_IN_AUTH_STRATEGIES,
      ...(options.authStrategies ?? []),
    ]);
    const own = new Map(
      (config.getOptionalConfigArray('flinkStandalone.clusters') ?? []).map(
        c => [c.getString('name'), c],
      ),
    );
    const clusters = new Map<string, FlinkKubernetesCluster>();
    const add = (name: string, http: KubeHttp) => {
      if (clusters.has(name)) {
        throw new InputError(
          `Kubernetes cluster "${name}" is defined twice; cluster names must be unique`,
        );
      }
      const entry = own.get(name);
      clusters.set(name, {
        name,
        http,
        allowedNamespaces: entry?.getOptionalStringArray('allowedNamespaces'),
        flinkRest: flinkRestAccess(entry),
        flinkUiUrl: entry?.getOptionalString('flinkUiUrl'),
      });
    };
    for (const details of options.clusters ?? []) {
      const strategy = strategies.get(details.authProvider);
      if (!strategy) {
        throw new InputError(
          `kubernetes cluster "${details.name}": authProvider "${details.authProvider}" has no auth strategy (built in: ${[
            ...BUILT_IN_AUTH_STRATEGIES.keys(),
          ].join(
            ', ',
          )}; a backend module adds others with flinkStandaloneAuthStrategyExtensionPoint)`,
        );
      }
      add(details.name, new KubeHttp(kubeConnectionFor(details, strategy)));
    }
    for (const [name, entry] of own) {
      const kubeconfig = entry.getOptionalConfig('kubeconfig');
      if (kubeconfig) {
        add(name, new KubeHttp(kubeConfigFromFile(name, kubeconfig)));
      } else if (!clusters.has(name)) {
        throw new InputError(
          `flinkStandalone.clusters: "${name}" matches no discovered Kubernetes cluster (kubernetes.clusterLocatorMethods) and has no kubeconfig`,
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
