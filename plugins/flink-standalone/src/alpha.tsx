/**
 * The Flink Standalone plugin for Backstage's new frontend system.
 *
 * @packageDocumentation
 */
/** @jsxImportSource react */
import {
  ApiBlueprint,
  createFrontendPlugin,
  discoveryApiRef,
  fetchApiRef,
} from '@backstage/frontend-plugin-api';
import {
  EntityCardBlueprint,
  EntityContentBlueprint,
} from '@backstage/plugin-catalog-react/alpha';
import { isFlinkStandaloneAvailable } from '@flink-standalone/plugin-flink-standalone-common';
import { FlinkStandaloneClient, flinkStandaloneApiRef } from './api';

/** @alpha */
export const flinkStandaloneApi = ApiBlueprint.make({
  params: defineParams =>
    defineParams({
      api: flinkStandaloneApiRef,
      deps: { discoveryApi: discoveryApiRef, fetchApi: fetchApiRef },
      factory: deps => new FlinkStandaloneClient(deps),
    }),
});

/** @alpha */
export const flinkStandaloneEntityCard = EntityCardBlueprint.make({
  params: {
    filter: isFlinkStandaloneAvailable,
    loader: () =>
      import('./components/EntityFlinkStandaloneCard').then(m => (
        <m.EntityFlinkStandaloneCard />
      )),
  },
});

/** @alpha */
export const flinkStandaloneEntityContent = EntityContentBlueprint.make({
  params: {
    path: '/flink',
    title: 'Flink',
    filter: isFlinkStandaloneAvailable,
    loader: () =>
      import('./components/EntityFlinkStandaloneContent').then(m => (
        <m.EntityFlinkStandaloneContent />
      )),
  },
});

/** @alpha */
export default createFrontendPlugin({
  pluginId: 'flink-standalone',
  extensions: [
    flinkStandaloneApi,
    flinkStandaloneEntityCard,
    flinkStandaloneEntityContent,
  ],
});
