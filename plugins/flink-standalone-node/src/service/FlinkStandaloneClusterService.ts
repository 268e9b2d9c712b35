import {
  coreServices,
  createServiceFactory,
  createServiceRef,
  LoggerService,
} from '@backstage/backend-plugin-api';
import { Config, ConfigReader } from '@backstage/config';
import { ConflictError } from '@backstage/errors';
import {
  ClusterRegistry,
  FlinkKubernetesCluster,
} from '../cluster/ClusterRegistry';
import { ConfigClusterSupplier } from '../cluster/configClusters';
import type {
  FlinkClusterAuthStrategy,
  FlinkClusterSupplier,
  FlinkStandaloneClusterExtensions,
} from '../cluster/extensions';
import { flinkUiUrlFor } from '../cluster/flinkUiUrl';
import { FlinkObserver } from './FlinkObserver';

/**
 * Cluster access for every Flink Standalone feature of one backend: the clusters (registry),
 * the observer with its watch caches, and the Flink UI URL of a cluster.
 *
 * @public
 */
export interface FlinkStandaloneClusterService {
  /**
   * Adds what the extension points collected. Only before the clusters are built: the backend
   * plugin calls it in its init, once its modules have registered.
   */
  addExtensions(extensions: FlinkStandaloneClusterExtensions): void;
  /**
   * Builds the clusters (once; later calls return the same promise). The backend plugin calls
   * it at the end of its init so a config error fails startup; without that plugin, it runs
   * when the backend has started.
   */
  start(): Promise<void>;
  /** The clusters, once built. */
  getClusters(): Promise<ClusterRegistry>;
  /** The one observer (and so one watch cache per Kubernetes cluster) of the backend. */
  getObserver(): Promise<FlinkObserver>;
  /** Where people open the Flink UI; `preferred` (an annotation, a template input) wins. */
  flinkUiUrl(
    cluster: FlinkKubernetesCluster,
    location: { namespace: string; name: string },
    preferred?: string,
  ): string | undefined;
}

/** @public */
export interface FlinkStandaloneClustersOptions {
  logger?: LoggerService;
  /** How long a Flink REST answer is reused (default 5 s); tests shorten it. */
  restMaxAgeMs?: number;
}

interface Built {
  registry: ClusterRegistry;
  observer: FlinkObserver;
}

const secondsToMs = (seconds?: number) =>
  seconds === undefined ? undefined : seconds * 1000;

/**
 * The default {@link FlinkStandaloneClusterService}: clusters from config and the registered
 * extensions, built once.
 *
 * @public
 */
export class FlinkStandaloneClusters implements FlinkStandaloneClusterService {
  private readonly authStrategies = new Map<string, FlinkClusterAuthStrategy>();
  private supplier?: FlinkStandaloneClusterExtensions['clusterSupplier'];
  private sharedRestAnswers?: FlinkStandaloneClusterExtensions['sharedRestAnswers'];
  /** Set by `start()`: from then on, no extension may be added. */
  private building?: Promise<Built>;
  /** What `getClusters()` waits for: the build, whenever it starts. */
  private readonly built: Promise<Built>;
  private resolveBuilt!: (building: Promise<Built>) => void;

  private constructor(
    private readonly config: Config,
    private readonly options: FlinkStandaloneClustersOptions,
  ) {
    this.built = new Promise(resolve => (this.resolveBuilt = resolve));
    // A failed build is reported to whoever asks for the clusters, not as an unhandled rejection.
    this.built.catch(() => {});
  }

  /** Not started: register extensions, then `start()`. */
  static fromConfig(
    config: Config,
    options: FlinkStandaloneClustersOptions = {},
  ): FlinkStandaloneClusters {
    return new FlinkStandaloneClusters(config, options);
  }

  /**
   * Started, on clusters built elsewhere (tests, embedders, benchmarks): with their own
   * observer, or one made with these options (`config` is read for observer options only).
   */
  static fromRegistry(
    registry: ClusterRegistry,
    options: FlinkStandaloneClustersOptions & {
      config?: Config;
      observer?: FlinkObserver;
    } = {},
  ): FlinkStandaloneClusters {
    const service = new FlinkStandaloneClusters(
      options.config ?? new ConfigReader({}),
      options,
    );
    service.building = Promise.resolve({
      registry,
      observer: options.observer ?? service.observerOf(registry),
    });
    service.resolveBuilt(service.building);
    return service;
  }

  addExtensions(extensions: FlinkStandaloneClusterExtensions): void {
    if (this.building) {
      throw new ConflictError(
        'Flink Standalone cluster extensions must be added before the clusters are built (in the init of the flink-standalone plugin)',
      );
    }
    for (const [key, strategy] of extensions.authStrategies ?? []) {
      if (this.authStrategies.has(key)) {
        throw new ConflictError(
          `A Flink Standalone auth strategy "${key}" is already registered`,
        );
      }
      this.authStrategies.set(key, strategy);
    }
    if (extensions.clusterSupplier) {
      if (this.supplier) {
        throw new ConflictError(
          'A Flink Standalone cluster supplier is already registered',
        );
      }
      this.supplier = extensions.clusterSupplier;
    }
    this.sharedRestAnswers =
      extensions.sharedRestAnswers ?? this.sharedRestAnswers;
  }

  start(): Promise<void> {
    if (!this.building) {
      this.building = this.build();
      this.resolveBuilt(this.building);
    }
    return this.building.then(() => undefined);
  }

  async getClusters(): Promise<ClusterRegistry> {
    return (await this.built).registry;
  }

  async getObserver(): Promise<FlinkObserver> {
    return (await this.built).observer;
  }

  flinkUiUrl(
    cluster: FlinkKubernetesCluster,
    location: { namespace: string; name: string },
    preferred?: string,
  ): string | undefined {
    return flinkUiUrlFor(cluster, location, preferred);
  }

  /** Stops the watch caches and closes idle connections. */
  async close(): Promise<void> {
    const built = await this.building?.catch(() => undefined);
    if (!built) return;
    built.observer.close();
    for (const { name } of built.registry.list()) {
      built.registry.get(name).http.close();
    }
  }

  private supplierOf(): FlinkClusterSupplier {
    const getDefault = () => new ConfigClusterSupplier(this.config);
    const registered = this.supplier;
    if (!registered) return getDefault();
    return typeof registered === 'function'
      ? registered({ getDefault })
      : registered;
  }

  private observerOf(registry: ClusterRegistry): FlinkObserver {
    return new FlinkObserver({
      registry,
      logger: this.options.logger,
      sharedRestAnswers: this.sharedRestAnswers,
      restMaxAgeMs:
        this.options.restMaxAgeMs ??
        secondsToMs(
          this.config.getOptionalNumber(
            'flinkStandalone.flinkRestRefresh.maxAgeSeconds',
          ),
        ),
      restMaxRefreshesPerSecond: this.config.getOptionalNumber(
        'flinkStandalone.flinkRestRefresh.maxPerSecond',
      ),
      stuckTerminatingAfterSeconds: this.config.getOptionalNumber(
        'flinkStandalone.stuckTerminatingAfterSeconds',
      ),
      stuckRolloutAfterSeconds: this.config.getOptionalNumber(
        'flinkStandalone.stuckRolloutAfterSeconds',
      ),
    });
  }

  private async build(): Promise<Built> {
    const registry = ClusterRegistry.create({
      config: this.config,
      clusters: await this.supplierOf().getClusters(),
      authStrategies: this.authStrategies,
    });
    this.options.logger?.info(
      `Flink Standalone: clusters ${
        registry
          .list()
          .map(c => c.name)
          .join(', ') || '(none configured)'
      }`,
    );
    return { registry, observer: this.observerOf(registry) };
  }
}

/**
 * The cluster service of the backend. Root-scoped on purpose: the backend plugin and the
 * scaffolder module are different plugins, and a plugin-scoped service would give each its own
 * registry and watch caches, i.e. every watch opened twice against each API server. Its default
 * factory depends on root services only (config, logger, lifecycle).
 *
 * Extension points belong to plugins and a root service cannot read them, so the
 * `flink-standalone` backend plugin owns {@link flinkStandaloneAuthStrategyExtensionPoint} and
 * {@link flinkStandaloneClusterSupplierExtensionPoint} and hands their registrations to this
 * service before it builds the clusters. A backend without that plugin gets config clusters; an
 * adopter who wants something else entirely replaces this factory with `createServiceFactory`.
 *
 * @public
 */
export const flinkStandaloneClusterServiceRef =
  createServiceRef<FlinkStandaloneClusterService>({
    id: 'flink-standalone.clusters',
    scope: 'root',
    defaultFactory: async service =>
      createServiceFactory({
        service,
        initialization: 'lazy',
        deps: {
          config: coreServices.rootConfig,
          logger: coreServices.rootLogger,
          lifecycle: coreServices.rootLifecycle,
        },
        factory({ config, logger, lifecycle }) {
          const clusters = FlinkStandaloneClusters.fromConfig(config, {
            logger: logger.child({ service: 'flink-standalone-clusters' }),
          });
          // After every plugin's init: a no-op when the backend plugin has built the clusters.
          lifecycle.addStartupHook(() => clusters.start());
          lifecycle.addShutdownHook(() => clusters.close());
          return clusters;
        },
      }),
  });
