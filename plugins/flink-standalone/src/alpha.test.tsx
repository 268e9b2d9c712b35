/** @jsxImportSource react */
import { screen } from '@testing-library/react';
import { coreExtensionData } from '@backstage/frontend-plugin-api';
import {
  createExtensionTester,
  mockApis,
  renderInTestApp,
  TestApiProvider,
} from '@backstage/frontend-test-utils';
import { EntityProvider } from '@backstage/plugin-catalog-react';
import {
  EntityCardBlueprint,
  EntityContentBlueprint,
} from '@backstage/plugin-catalog-react/alpha';
import { permissionApiRef } from '@backstage/plugin-permission-react';
import plugin, {
  flinkStandaloneEntityCard,
  flinkStandaloneEntityContent,
} from './alpha';
import { flinkStandaloneApiRef } from './api';
import { mockFlinkStandaloneApi } from './__testUtils__/render';
import {
  entityWithoutAnnotations,
  flinkEntity,
  statusResponse,
} from './testing/fixtures';

describe('flink-standalone for the new frontend system', () => {
  it('is the flink-standalone plugin', () => {
    expect(plugin.pluginId).toBe('flink-standalone');
  });

  it('offers the card only for entities that name a Flink cluster', () => {
    const tester = createExtensionTester(flinkStandaloneEntityCard);
    const filter = tester.get(EntityCardBlueprint.dataRefs.filterFunction);
    expect(filter?.(flinkEntity())).toBe(true);
    expect(filter?.(entityWithoutAnnotations())).toBe(false);
  });

  it('mounts the tab at /flink, titled Flink, for entities that name a Flink cluster', () => {
    const tester = createExtensionTester(flinkStandaloneEntityContent);
    expect(tester.get(coreExtensionData.routePath)).toBe('/flink');
    expect(tester.get(EntityContentBlueprint.dataRefs.title)).toBe('Flink');
    const filter = tester.get(EntityContentBlueprint.dataRefs.filterFunction);
    expect(filter?.(entityWithoutAnnotations())).toBe(false);
  });

  it('renders the card from its extension', async () => {
    const tester = createExtensionTester(flinkStandaloneEntityCard);
    renderInTestApp(
      <TestApiProvider
        apis={[
          [flinkStandaloneApiRef, mockFlinkStandaloneApi(statusResponse())],
          [permissionApiRef, mockApis.permission()],
        ]}
      >
        <EntityProvider entity={flinkEntity()}>
          {tester.reactElement()}
        </EntityProvider>
      </TestApiProvider>,
    );
    expect(await screen.findByText('READY')).toBeInTheDocument();
  });
});
