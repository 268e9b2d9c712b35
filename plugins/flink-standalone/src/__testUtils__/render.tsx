/** @jsxImportSource react */
import type { ReactElement } from 'react';
import type { Entity } from '@backstage/catalog-model';
import { configApiRef } from '@backstage/core-plugin-api';
import { EntityProvider } from '@backstage/plugin-catalog-react';
import { permissionApiRef } from '@backstage/plugin-permission-react';
import type { PermissionApi } from '@backstage/plugin-permission-react';
import {
  mockApis,
  renderInTestApp,
  TestApiProvider,
} from '@backstage/test-utils';
import type { EntityFlinkStatusResponse } from '@flink-standalone/plugin-flink-standalone-common';
import { type FlinkStandaloneApi, flinkStandaloneApiRef } from '../api';
import { flinkEntity } from '../testing/fixtures';

export type MockFlinkStandaloneApi = jest.Mocked<FlinkStandaloneApi>;

/** An API whose status call answers `response` (or never, for the loading state). */
export function mockFlinkStandaloneApi(
  response?: EntityFlinkStatusResponse | Error,
): MockFlinkStandaloneApi {
  const getEntityStatus = jest.fn();
  if (response instanceof Error) getEntityStatus.mockRejectedValue(response);
  else if (response) getEntityStatus.mockResolvedValue(response);
  else getEntityStatus.mockReturnValue(new Promise(() => {}));
  return {
    getEntityStatus,
    scaleTaskManagers: jest.fn(),
    deleteCluster: jest.fn(),
    unblockRollout: jest.fn(),
    forceDeletePod: jest.fn(),
    getClusters: jest.fn(),
  };
}

/** Renders a view of the plugin for one entity, in a test app with the given APIs. */
export function renderFlinkView(
  element: ReactElement,
  options: {
    api: FlinkStandaloneApi;
    entity?: Entity;
    permissionApi?: PermissionApi;
    config?: object;
  },
) {
  return renderInTestApp(
    <TestApiProvider
      apis={[
        [flinkStandaloneApiRef, options.api],
        [permissionApiRef, options.permissionApi ?? mockApis.permission()],
        [configApiRef, mockApis.config({ data: options.config ?? {} })],
      ]}
    >
      <EntityProvider entity={options.entity ?? flinkEntity()}>
        {element}
      </EntityProvider>
    </TestApiProvider>,
  );
}
