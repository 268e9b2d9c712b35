import {
  createApiFactory,
  createComponentExtension,
  createPlugin,
  createRoutableExtension,
  discoveryApiRef,
  fetchApiRef,
} from '@backstage/core-plugin-api';
import { FlinkStandaloneClient, flinkStandaloneApiRef } from './api';
import { rootRouteRef } from './routes';

/** @public */
export const flinkStandalonePlugin = createPlugin({
  id: 'flink-standalone',
  apis: [
    createApiFactory({
      api: flinkStandaloneApiRef,
      deps: { discoveryApi: discoveryApiRef, fetchApi: fetchApiRef },
      factory: deps => new FlinkStandaloneClient(deps),
    }),
  ],
  routes: { root: rootRouteRef },
});

/** The cluster at a glance, for an entity's overview page. @public */
export const EntityFlinkStandaloneCard = flinkStandalonePlugin.provide(
  createComponentExtension({
    name: 'EntityFlinkStandaloneCard',
    component: {
      lazy: () =>
        import('./components/EntityFlinkStandaloneCard').then(
          m => m.EntityFlinkStandaloneCard,
        ),
    },
  }),
);

/** Everything about the cluster, for an entity page tab. @public */
export const EntityFlinkStandaloneContent = flinkStandalonePlugin.provide(
  createRoutableExtension({
    name: 'EntityFlinkStandaloneContent',
    component: () =>
      import('./components/EntityFlinkStandaloneContent').then(
        m => m.EntityFlinkStandaloneContent,
      ),
    mountPoint: rootRouteRef,
  }),
);
