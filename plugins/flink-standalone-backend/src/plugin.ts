import {
  coreServices,
  createBackendPlugin,
} from '@backstage/backend-plugin-api';
import { catalogServiceRef } from '@backstage/plugin-catalog-node';
import { flinkStandalonePermissions } from '@flink-standalone/plugin-flink-standalone-common';
import {
  ClusterRegistry,
  FlinkObserver,
} from '@flink-standalone/plugin-flink-standalone-node';
import { FlinkStandaloneService } from './service/FlinkStandaloneService';
import { createRouter } from './service/router';

/**
 * The flink-standalone backend plugin: wires config, catalog, permissions and the node
 * library's observer into the routes.
 *
 * @public
 */
export const flinkStandalonePlugin = createBackendPlugin({
  pluginId: 'flink-standalone',
  register(env) {
    env.registerInit({
      deps: {
        config: coreServices.rootConfig,
        logger: coreServices.logger,
        httpRouter: coreServices.httpRouter,
        httpAuth: coreServices.httpAuth,
        permissions: coreServices.permissions,
        permissionsRegistry: coreServices.permissionsRegistry,
        lifecycle: coreServices.lifecycle,
        catalog: catalogServiceRef,
      },
      async init({
        config,
        logger,
        httpRouter,
        httpAuth,
        permissions,
        permissionsRegistry,
        lifecycle,
        catalog,
      }) {
        const registry = ClusterRegistry.fromConfig(config);
        const observer = new FlinkObserver({
          registry,
          logger,
          stuckTerminatingAfterSeconds: config.getOptionalNumber(
            'flinkStandalone.stuckTerminatingAfterSeconds',
          ),
        });
        lifecycle.addShutdownHook(() => observer.close());
        permissionsRegistry.addPermissions(flinkStandalonePermissions);
        const flinkUiUrls = new Map(
          (
            config.getOptionalConfigArray('flinkStandalone.clusters') ?? []
          ).flatMap(c => {
            const url = c.getOptionalString('flinkUiUrl');
            return url ? [[c.getString('name'), url] as const] : [];
          }),
        );
        const service = new FlinkStandaloneService({
          registry,
          observer,
          catalog,
          permissions,
          logger,
          flinkUiUrls,
        });
        httpRouter.use(createRouter({ service, registry, httpAuth }));
        logger.info(
          `Flink Standalone: clusters ${
            registry
              .list()
              .map(c => c.name)
              .join(', ') || '(none configured)'
          }`,
        );
      },
    });
  },
});
