import {
  coreServices,
  createBackendModule,
} from '@backstage/backend-plugin-api';
import { scaffolderActionsExtensionPoint } from '@backstage/plugin-scaffolder-node';
import { flinkStandaloneClusterServiceRef } from '@flink-standalone/plugin-flink-standalone-node';
import { ClaimTemplates } from './claimTemplates/ClaimTemplates';
import { createApplyAction } from './actions/apply';
import { createRenderAction } from './actions/render';
import { createValidateAction } from './actions/validate';

/**
 * Registers the flink:standalone:* template actions with the scaffolder.
 *
 * @public
 */
export const scaffolderModuleFlinkStandalone = createBackendModule({
  pluginId: 'scaffolder',
  moduleId: 'flink-standalone',
  register(env) {
    env.registerInit({
      deps: {
        actions: scaffolderActionsExtensionPoint,
        config: coreServices.rootConfig,
        permissions: coreServices.permissions,
        // Shared with the flink-standalone backend plugin: one registry and watch cache.
        clusters: flinkStandaloneClusterServiceRef,
      },
      async init({ actions, config, permissions, clusters }) {
        const claimTemplates = ClaimTemplates.fromConfig(config);
        actions.addActions(
          createValidateAction({ claimTemplates }),
          createRenderAction({ claimTemplates }),
          createApplyAction({ claimTemplates, clusters, permissions }),
        );
      },
    });
  },
});
