import {
  createApiFactory,
  createComponentExtension,
  createPlugin,
  createRoutableExtension,
  discoveryApiRef,
  fetchApiRef,
} from '@backstage/core-plugin-api';
import type { JSX } from 'react';
import { FlinkStandaloneClient, flinkStandaloneApiRef } from './api';
import type { EntityFlinkStandaloneCardProps } from './components/EntityFlinkStandaloneCard';
import type { EntityFlinkStandaloneContentProps } from './components/EntityFlinkStandaloneContent';
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

// Typed explicitly: the inferred type names the lazily loaded component, which the
// declarations would then have to export under a second name.
/**
 * The cluster at a glance, for an entity's overview page.
 *
 * @public
 */
export const EntityFlinkStandaloneCard: (
  props: EntityFlinkStandaloneCardProps,
) => JSX.Element = flinkStandalonePlugin.provide(
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

/**
 * Everything about the cluster, for an entity page tab.
 *
 * @public
 */
export const EntityFlinkStandaloneContent: (
  props: EntityFlinkStandaloneContentProps,
) => JSX.Element = flinkStandalonePlugin.provide(
  createRoutableExtension({
    name: 'EntityFlinkStandaloneContent',
    component: () =>
      import('./components/EntityFlinkStandaloneContent').then(
        m => m.EntityFlinkStandaloneContent,
      ),
    mountPoint: rootRouteRef,
  }),
);
