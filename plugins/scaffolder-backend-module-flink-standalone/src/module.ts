import {
  coreServices,
  createBackendModule,
} from '@backstage/backend-plugin-api';
import { scaffolderActionsExtensionPoint } from '@backstage/plugin-scaffolder-node';
import { ClusterRegistry } from '@flink-standalone/plugin-flink-standalone-node';
import { ClaimTemplates } from './claimTemplates/ClaimTemplates';
import { createApplyAction } from './actions/apply';
import { createRenderAction } from './actions/render';
import { createValidateAction } from './actions/validate';

/** Registers the flink:standalone:* template actions with the scaffolder. */
export const scaffolderModuleFlinkStandalone = createBackendModule({
  pluginId: 'scaffolder',
  moduleId: 'flink-standalone',
  register(env) {
    env.registerInit({
      deps: {
        actions: scaffolderActionsExtensionPoint,
        config: coreServices.rootConfig,
        permissions: coreServices.permissions,
        logger: coreServices.logger,
      },
      async init({ actions, config, permissions, logger }) {
        const claimTemplates = ClaimTemplates.fromConfig(config);
        let registry: ClusterRegistry | undefined;
        const clusters = () =>
          (registry ??= ClusterRegistry.fromConfig(config));
        actions.addActions(
          createValidateAction({ claimTemplates }),
          createRenderAction({ claimTemplates }),
          createApplyAction({
            claimTemplates,
            clusters,
            permissions,
            config,
            logger,
          }),
        );
      },
    });
  },
});
