import { createBackendModule } from '@backstage/backend-plugin-api';
import {
  catalogLocationsExtensionPoint,
  catalogProcessingExtensionPoint,
  catalogServiceRef,
} from '@backstage/plugin-catalog-node';
import { scaffolderActionsExtensionPoint } from '@backstage/plugin-scaffolder-node';
import { ScaffoldedLocationProcessor } from './ScaffoldedLocationProcessor';
import { createLocalRegisterAction } from './registerAction';
import {
  SCAFFOLDED_LOCATION_TYPE,
  ScaffoldedCatalog,
} from './scaffoldedCatalog';

/**
 * Lets the catalog register components that a template created without a repository: the
 * location API accepts `scaffolded` locations (besides `url`), which read only from the
 * scaffolded catalog folder.
 */
export const catalogModuleScaffoldedLocations = createBackendModule({
  pluginId: 'catalog',
  moduleId: 'scaffolded-locations',
  register(reg) {
    reg.registerInit({
      deps: {
        locations: catalogLocationsExtensionPoint,
        processing: catalogProcessingExtensionPoint,
      },
      async init({ locations, processing }) {
        locations.setAllowedLocationTypes(['url', SCAFFOLDED_LOCATION_TYPE]);
        processing.addProcessor(
          new ScaffoldedLocationProcessor(ScaffoldedCatalog.default()),
        );
      },
    });
  },
});

/** The `local:catalog:register` template action. */
export const scaffolderModuleLocalRegister = createBackendModule({
  pluginId: 'scaffolder',
  moduleId: 'local-catalog-register',
  register(reg) {
    reg.registerInit({
      deps: {
        actions: scaffolderActionsExtensionPoint,
        catalog: catalogServiceRef,
      },
      async init({ actions, catalog }) {
        actions.addActions(
          createLocalRegisterAction({
            catalog,
            scaffolded: ScaffoldedCatalog.default(),
          }),
        );
      },
    });
  },
});
