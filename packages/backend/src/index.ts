/*
 * The example Backstage backend: catalog (with the example catalog and template), scaffolder
 * (with the Flink Standalone actions, and a local registration for components created without a
 * repository), the permission framework (with a policy that exercises
 * the Flink Standalone permissions), guest sign-in, and the Flink Standalone backend plugin.
 */
import { createBackend } from '@backstage/backend-defaults';
import { createBackendModule } from '@backstage/backend-plugin-api';
import { policyExtensionPoint } from '@backstage/plugin-permission-node/alpha';
import { FlinkStandaloneExamplePolicy } from './permissionPolicy';
import {
  catalogModuleScaffoldedLocations,
  scaffolderModuleLocalRegister,
} from './localCatalog';

const examplePermissionPolicy = createBackendModule({
  pluginId: 'permission',
  moduleId: 'flink-standalone-example-policy',
  register(reg) {
    reg.registerInit({
      deps: { policy: policyExtensionPoint },
      async init({ policy }) {
        policy.setPolicy(new FlinkStandaloneExamplePolicy());
      },
    });
  },
});

const backend = createBackend();
backend.add(import('@backstage/plugin-auth-backend'));
backend.add(import('@backstage/plugin-auth-backend-module-guest-provider'));
backend.add(import('@backstage/plugin-catalog-backend'));
backend.add(
  import('@backstage/plugin-catalog-backend-module-scaffolder-entity-model'),
);
backend.add(catalogModuleScaffoldedLocations);
backend.add(import('@backstage/plugin-scaffolder-backend'));
// publish:github for the template's repository options (needs integrations.github in config).
backend.add(import('@backstage/plugin-scaffolder-backend-module-github'));
backend.add(
  import('@flink-standalone/plugin-scaffolder-backend-module-flink-standalone'),
);
backend.add(scaffolderModuleLocalRegister);
backend.add(import('@backstage/plugin-permission-backend'));
backend.add(examplePermissionPolicy);
backend.add(import('@flink-standalone/plugin-flink-standalone-backend'));
backend.start();
