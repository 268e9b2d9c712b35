import {
  coreServices,
  createBackendPlugin,
} from '@backstage/backend-plugin-api';
import { catalogServiceRef } from '@backstage/plugin-catalog-node';
import { flinkStandalonePermissions } from '@flink-standalone/plugin-flink-standalone-common';
import {
  FlinkClusterAuthStrategy,
  FlinkClusterSupplierRegistration,
  flinkStandaloneAuthStrategyExtensionPoint,
  flinkStandaloneClusterServiceRef,
  flinkStandaloneClusterSupplierExtensionPoint,
} from '@flink-standalone/plugin-flink-standalone-node';
import { ConflictError } from '@backstage/errors';
import { FlinkStandaloneService } from './service/FlinkStandaloneService';
import { createRouter } from './service/router';
import {
  STATUS_READ_CACHE_TTL_SECONDS,
  StatusReadAccess,
} from './service/StatusReadAccess';

/**
 * The flink-standalone backend plugin: wires catalog, permissions and the shared cluster
 * service into the routes. It owns the cluster extension points (a root service cannot read a
 * plugin's extension points) and hands what its modules registered to the cluster service,
 * which the scaffolder module uses too.
 *
 * @public
 */
export const flinkStandalonePlugin = createBackendPlugin({
  pluginId: 'flink-standalone',
  register(env) {
    const authStrategies = new Map<string, FlinkClusterAuthStrategy>();
    let clusterSupplier: FlinkClusterSupplierRegistration | undefined;
    env.registerExtensionPoint(flinkStandaloneAuthStrategyExtensionPoint, {
      addAuthStrategy(key, strategy) {
        if (authStrategies.has(key)) {
          throw new ConflictError(
            `A Flink Standalone auth strategy "${key}" is already registered`,
          );
        }
        authStrategies.set(key, strategy);
      },
    });
    env.registerExtensionPoint(flinkStandaloneClusterSupplierExtensionPoint, {
      addClusterSupplier(supplier) {
        if (clusterSupplier) {
          throw new ConflictError(
            'A Flink Standalone cluster supplier is already registered',
          );
        }
        clusterSupplier = supplier;
      },
    });
    env.registerInit({
      deps: {
        logger: coreServices.logger,
        auditor: coreServices.auditor,
        auth: coreServices.auth,
        cache: coreServices.cache,
        config: coreServices.rootConfig,
        httpRouter: coreServices.httpRouter,
        httpAuth: coreServices.httpAuth,
        permissions: coreServices.permissions,
        permissionsRegistry: coreServices.permissionsRegistry,
        catalog: catalogServiceRef,
        clusters: flinkStandaloneClusterServiceRef,
      },
      async init({
        logger,
        auditor,
        auth,
        cache,
        config,
        httpRouter,
        httpAuth,
        permissions,
        permissionsRegistry,
        catalog,
        clusters,
      }) {
        // Modules have registered by now (they init before their plugin).
        // The cache shares Flink REST answers between replicas when its store is shared.
        clusters.addExtensions({
          authStrategies,
          clusterSupplier,
          sharedRestAnswers: cache,
        });
        // Built here rather than at backend startup, so a config error fails this plugin.
        await clusters.start();
        permissionsRegistry.addPermissions(flinkStandalonePermissions);
        const service = new FlinkStandaloneService({
          clusters,
          catalog,
          permissions,
          logger,
          auditor,
          statusReads: new StatusReadAccess({
            catalog,
            permissions,
            auth,
            ttlMs:
              1000 *
              (config.getOptionalNumber(
                'flinkStandalone.statusReadCache.ttlSeconds',
              ) ?? STATUS_READ_CACHE_TTL_SECONDS),
          }),
        });
        httpRouter.use(createRouter({ service, clusters, httpAuth }));
      },
    });
  },
});
