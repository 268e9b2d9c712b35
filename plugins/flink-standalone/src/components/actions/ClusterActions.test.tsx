/** @jsxImportSource react */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import type { PermissionApi } from '@backstage/plugin-permission-react';
import { mockApis } from '@backstage/test-utils';
import {
  type FlinkClusterStatus,
  flinkStandaloneDeletePermission,
  flinkStandalonePodForceDeletePermission,
  flinkStandaloneRolloutUnblockPermission,
  flinkStandaloneScalePermission,
} from '@flink-standalone/plugin-flink-standalone-common';
import {
  flinkEntity,
  missingStatus,
  readyStatus,
  statusResponse,
} from '../../testing/fixtures';
import {
  type MockFlinkStandaloneApi,
  mockFlinkStandaloneApi,
  renderFlinkView,
} from '../../__testUtils__/render';
import { responseError } from '../../testing/responseError';
import { ClusterActions } from './ClusterActions';

const ENTITY_REF = {
  kind: 'Component',
  namespace: 'default',
  name: 'orders-analytics',
};

async function renderActions(
  options: {
    status?: FlinkClusterStatus;
    permissionApi?: PermissionApi;
    api?: MockFlinkStandaloneApi;
    entityName?: string;
  } = {},
) {
  const api = options.api ?? mockFlinkStandaloneApi(statusResponse());
  const onChanged = jest.fn();
  const entity = flinkEntity(options.entityName);
  await renderFlinkView(
    <ClusterActions
      entity={entity}
      status={options.status ?? readyStatus(2)}
      onChanged={onChanged}
    />,
    {
      api,
      entity,
      permissionApi: options.permissionApi ?? mockApis.permission(),
    },
  );
  return { api, onChanged };
}

async function openScaleDialog(user: ReturnType<typeof userEvent.setup>) {
  await user.click(
    await screen.findByRole('button', { name: 'Scale TaskManagers' }),
  );
  const dialog = await screen.findByRole('dialog', {
    name: 'Scale TaskManagers',
  });
  const field = within(dialog).getByRole('spinbutton', {
    name: 'TaskManagers',
  });
  return { dialog, field };
}

describe('ClusterActions', () => {
  it('asks for each permission on this entity, and shows only what is allowed', async () => {
    const authorize = jest.fn(({ permission }) =>
      permission.name === flinkStandaloneScalePermission.name
        ? AuthorizeResult.ALLOW
        : AuthorizeResult.DENY,
    );
    // An entity of its own: usePermission caches answers per permission and resource across
    // renders, and this test's DENY must not reach the other tests.
    await renderActions({
      entityName: 'scale-only',
      permissionApi: mockApis.permission({ authorize }),
    });
    expect(
      await screen.findByRole('button', { name: 'Scale TaskManagers' }),
    ).toBeInTheDocument();
    expect(
      screen.queryByRole('button', { name: 'Delete cluster' }),
    ).not.toBeInTheDocument();
    const asked = authorize.mock.calls.map(([request]) => [
      request.permission.name,
      request.resourceRef,
    ]);
    expect(asked).toEqual(
      expect.arrayContaining([
        [flinkStandaloneScalePermission.name, 'component:default/scale-only'],
        [flinkStandaloneDeletePermission.name, 'component:default/scale-only'],
      ]),
    );
  });

  it('offers nothing for a cluster that does not exist', async () => {
    const authorize = jest.fn(
      (): AuthorizeResult.ALLOW => AuthorizeResult.ALLOW,
    );
    // Another entity: permission answers are cached per entity across renders.
    await renderActions({
      entityName: 'deleted-cluster',
      status: missingStatus(),
      permissionApi: mockApis.permission({ authorize }),
    });
    await waitFor(() => expect(authorize).toHaveBeenCalled());
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });

  it('scales after confirmation in a dialog opened with the keyboard', async () => {
    const user = userEvent.setup();
    const api = mockFlinkStandaloneApi(statusResponse());
    api.scaleTaskManagers.mockResolvedValue({
      kind: 'StatefulSet',
      name: 'orders-taskmanager',
      previousReplicas: 2,
      replicas: 5,
    });
    const { onChanged } = await renderActions({ api });
    await screen.findByRole('button', { name: 'Scale TaskManagers' });
    await user.tab();
    expect(
      screen.getByRole('button', { name: 'Scale TaskManagers' }),
    ).toHaveFocus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', {
      name: 'Scale TaskManagers',
    });
    const field = within(dialog).getByRole('spinbutton', {
      name: 'TaskManagers',
    });
    expect(field).toHaveValue(2);
    expect(
      within(dialog).getByRole('button', { name: 'Scale' }),
    ).toBeDisabled();
    await user.clear(field);
    await user.type(field, '5');
    expect(dialog).toHaveTextContent('Scale from 2 to 5');
    expect(api.scaleTaskManagers).not.toHaveBeenCalled();
    await user.click(within(dialog).getByRole('button', { name: 'Scale' }));
    expect(api.scaleTaskManagers).toHaveBeenCalledWith(ENTITY_REF, 5);
    await waitFor(() =>
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument(),
    );
    expect(onChanged).toHaveBeenCalledTimes(1);
  });

  it('refuses a number of TaskManagers that is not a whole number', async () => {
    const user = userEvent.setup();
    const { dialog, field } = await renderActions().then(() =>
      openScaleDialog(user),
    );
    await user.clear(field);
    await user.type(field, '-1');
    expect(dialog).toHaveTextContent('A whole number, 0 or more');
    expect(
      within(dialog).getByRole('button', { name: 'Scale' }),
    ).toBeDisabled();
  });

  it('shows why scaling failed and keeps the dialog open', async () => {
    const user = userEvent.setup();
    const api = mockFlinkStandaloneApi(statusResponse());
    api.scaleTaskManagers.mockRejectedValue(
      await responseError(
        403,
        'NotAllowedError',
        'not allowed to scale orders',
      ),
    );
    const { onChanged } = await renderActions({ api });
    const { dialog, field } = await openScaleDialog(user);
    await user.clear(field);
    await user.type(field, '3');
    await user.click(within(dialog).getByRole('button', { name: 'Scale' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'not allowed to scale orders (Request failed with 403 NotAllowedError)',
    );
    expect(onChanged).not.toHaveBeenCalled();
  });

  it('deletes after confirmation, with the claims only when asked', async () => {
    const user = userEvent.setup();
    const api = mockFlinkStandaloneApi(statusResponse());
    api.deleteCluster.mockResolvedValue({
      deleted: [{ kind: 'StatefulSet', name: 'orders-taskmanager' }],
      claimsDeleted: ['data-orders-taskmanager-0', 'data-orders-taskmanager-1'],
      claimsKept: [],
    });
    const { onChanged } = await renderActions({ api });
    await user.click(
      await screen.findByRole('button', { name: 'Delete cluster' }),
    );
    const dialog = await screen.findByRole('dialog', {
      name: 'Delete Flink cluster orders?',
    });
    expect(api.deleteCluster).not.toHaveBeenCalled();
    await user.click(
      within(dialog).getByRole('checkbox', {
        name: /Also delete the 2 claims/,
      }),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(api.deleteCluster).toHaveBeenCalledWith(ENTITY_REF, {
      deleteClaims: true,
    });
    await waitFor(() => expect(onChanged).toHaveBeenCalledTimes(1));
  });

  it('shows why deleting failed, keeps the dialog open and reports no change', async () => {
    const user = userEvent.setup();
    const api = mockFlinkStandaloneApi(statusResponse());
    api.deleteCluster.mockRejectedValue(
      await responseError(
        503,
        'ServiceUnavailableError',
        'the Kubernetes API server did not answer',
      ),
    );
    const { onChanged } = await renderActions({ api });
    await user.click(
      await screen.findByRole('button', { name: 'Delete cluster' }),
    );
    const dialog = await screen.findByRole('dialog', {
      name: 'Delete Flink cluster orders?',
    });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'the Kubernetes API server did not answer (Request failed with 503 ServiceUnavailableError)',
    );
    expect(api.deleteCluster).toHaveBeenCalledWith(ENTITY_REF, {
      deleteClaims: false,
    });
    expect(onChanged).not.toHaveBeenCalled();
    // It can be tried again from the same dialog.
    expect(
      within(dialog).getByRole('button', { name: 'Delete' }),
    ).toBeEnabled();
  });

  it('keeps the claims by default and deletes nothing on cancel', async () => {
    const user = userEvent.setup();
    const { api } = await renderActions();
    await user.click(
      await screen.findByRole('button', { name: 'Delete cluster' }),
    );
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('checkbox')).not.toBeChecked();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument(),
    );
    expect(api.deleteCluster).not.toHaveBeenCalled();
  });

  describe('a blocked rollout', () => {
    const blockedStatus = (): FlinkClusterStatus => {
      const status = readyStatus(2);
      status.taskManager = {
        ...status.taskManager!,
        rolloutComplete: false,
        rolloutBlocked: {
          pod: 'orders-taskmanager-1',
          revision: 'orders-taskmanager-bad',
          updateRevision: 'orders-taskmanager-good',
          notReadySince: '2026-12-03T12:00:00Z',
          deleteRequired: true,
          message:
            'the rollout stays blocked until pod orders-taskmanager-1 is deleted',
        },
      };
      return status;
    };

    it('deletes the named pod after a confirmation that says what it costs', async () => {
      const user = userEvent.setup();
      const api = mockFlinkStandaloneApi(statusResponse());
      api.unblockRollout.mockResolvedValue({
        pod: 'orders-taskmanager-1',
        workload: 'orders-taskmanager',
        revision: 'orders-taskmanager-bad',
        updateRevision: 'orders-taskmanager-good',
      });
      const { onChanged } = await renderActions({
        api,
        status: blockedStatus(),
      });
      await user.click(
        await screen.findByRole('button', {
          name: 'Unblock TaskManager rollout',
        }),
      );
      const dialog = await screen.findByRole('dialog', {
        name: 'Delete pod orders-taskmanager-1?',
      });
      expect(dialog).toHaveTextContent(
        'the rollout stays blocked until pod orders-taskmanager-1 is deleted',
      );
      expect(dialog).toHaveTextContent('a running job fails over once');
      await user.click(
        within(dialog).getByRole('button', { name: 'Delete pod' }),
      );
      await waitFor(() => expect(onChanged).toHaveBeenCalled());
      expect(api.unblockRollout).toHaveBeenCalledWith(
        ENTITY_REF,
        'orders-taskmanager-1',
      );
    });

    it('is not offered without its permission, nor when nothing is blocked', async () => {
      const authorize = jest.fn(({ permission }) =>
        permission.name === flinkStandaloneRolloutUnblockPermission.name
          ? AuthorizeResult.DENY
          : AuthorizeResult.ALLOW,
      );
      await renderActions({
        entityName: 'no-unblock',
        status: blockedStatus(),
        permissionApi: mockApis.permission({ authorize }),
      });
      expect(
        await screen.findByRole('button', { name: 'Delete cluster' }),
      ).toBeInTheDocument();
      await waitFor(() =>
        expect(authorize).toHaveBeenCalledWith(
          expect.objectContaining({
            permission: expect.objectContaining({
              name: flinkStandaloneRolloutUnblockPermission.name,
            }),
          }),
        ),
      );
      expect(
        screen.queryByRole('button', { name: /Unblock/ }),
      ).not.toBeInTheDocument();
    });
  });

  describe('a pod stuck Terminating on a lost node', () => {
    const lostPodStatus = (): FlinkClusterStatus => {
      const status = readyStatus(2);
      status.pods = status.pods.map(p =>
        p.name === 'orders-taskmanager-1'
          ? {
              ...p,
              nodeReady: false,
              stuck: true,
              deletionTimestamp: '2026-12-03T12:00:30Z',
              terminatingSince: '2026-12-03T12:00:00Z',
              stuckMessage: `node ${p.node} is NotReady: the pod cannot finish terminating`,
            }
          : p,
      );
      return status;
    };

    it('force-deletes that pod after a confirmation that says what it risks', async () => {
      const user = userEvent.setup();
      const api = mockFlinkStandaloneApi(statusResponse());
      const status = lostPodStatus();
      const node = status.pods.find(
        p => p.name === 'orders-taskmanager-1',
      )!.node!;
      api.forceDeletePod.mockResolvedValue({
        pod: 'orders-taskmanager-1',
        node,
        terminatingSince: '2026-12-03T12:00:00Z',
      });
      const { onChanged } = await renderActions({ api, status });
      // Only the stuck pod has the remedy.
      expect(
        screen.queryByRole('button', {
          name: 'Force-delete orders-taskmanager-0',
        }),
      ).not.toBeInTheDocument();
      await user.click(
        await screen.findByRole('button', {
          name: 'Force-delete orders-taskmanager-1',
        }),
      );
      const dialog = await screen.findByRole('dialog', {
        name: 'Force-delete pod orders-taskmanager-1?',
      });
      expect(dialog).toHaveTextContent(`node ${node} is NotReady`);
      expect(dialog).toHaveTextContent('Do it only if the node is really gone');
      expect(dialog).toHaveTextContent('may write the same claim');
      await user.click(
        within(dialog).getByRole('button', { name: 'Force-delete pod' }),
      );
      await waitFor(() => expect(onChanged).toHaveBeenCalled());
      expect(api.forceDeletePod).toHaveBeenCalledWith(
        ENTITY_REF,
        'orders-taskmanager-1',
      );
    });

    it('is not offered without its own permission, even to whom may delete the cluster', async () => {
      const authorize = jest.fn(({ permission }) =>
        permission.name === flinkStandalonePodForceDeletePermission.name
          ? AuthorizeResult.DENY
          : AuthorizeResult.ALLOW,
      );
      await renderActions({
        entityName: 'no-force-delete',
        status: lostPodStatus(),
        permissionApi: mockApis.permission({ authorize }),
      });
      expect(
        await screen.findByRole('button', { name: 'Delete cluster' }),
      ).toBeInTheDocument();
      await waitFor(() =>
        expect(authorize).toHaveBeenCalledWith(
          expect.objectContaining({
            permission: expect.objectContaining({
              name: flinkStandalonePodForceDeletePermission.name,
            }),
          }),
        ),
      );
      expect(
        screen.queryByRole('button', { name: /Force-delete/ }),
      ).not.toBeInTheDocument();
    });
  });
});
