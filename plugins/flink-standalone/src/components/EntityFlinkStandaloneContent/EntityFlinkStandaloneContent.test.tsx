/** @jsxImportSource react */
import { act, screen, waitFor, within } from '@testing-library/react';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import type { Entity } from '@backstage/catalog-model';
import { mockApis } from '@backstage/test-utils';
import {
  entityWithoutAnnotations,
  flinkEntity,
  missingStatus,
  NOW,
  pendingClaimStatus,
  readyStatus,
  rollingUpdateStatus,
  simulatedNodesStatus,
  staleStatus,
  statusResponse,
  stuckPodStatus,
  TM_OLD_REVISION,
} from '../../testing/fixtures';
import {
  mockFlinkStandaloneApi,
  renderFlinkView,
} from '../../__testUtils__/render';
import { responseError } from '../../testing/responseError';
import { EntityFlinkStandaloneContent } from './EntityFlinkStandaloneContent';

const deny = mockApis.permission({ authorize: AuthorizeResult.DENY });

// The page is large: plain DOM lookups inside one table keep these tests fast.
function tableNamed(name: string) {
  return screen.getByLabelText(name, { selector: 'table' });
}

/** The body rows of the table named `name`. */
function rowsOf(name: string) {
  return Array.from(tableNamed(name).querySelectorAll<HTMLElement>('tbody tr'));
}

/** The text of the cell under `column` in `row` of the table named `name`. */
function cell(name: string, row: Element, column: string) {
  const headers = Array.from(tableNamed(name).querySelectorAll('thead th'));
  const index = headers.findIndex(h => h.textContent === column);
  return row.querySelectorAll('td')[index].textContent;
}

async function renderContent(
  response: Parameters<typeof mockFlinkStandaloneApi>[0],
  options: {
    permissionApi?: ReturnType<typeof mockApis.permission>;
    entity?: Entity;
  } = {},
) {
  const api = mockFlinkStandaloneApi(response);
  await renderFlinkView(
    <EntityFlinkStandaloneContent refreshIntervalSeconds={0} />,
    {
      api,
      permissionApi: options.permissionApi ?? deny,
      entity: options.entity,
    },
  );
  return api;
}

describe('EntityFlinkStandaloneContent', () => {
  beforeEach(() => jest.useFakeTimers({ now: NOW }));
  afterEach(() => jest.useRealTimers());

  it('shows progress while loading', async () => {
    await renderContent(undefined);
    act(() => jest.advanceTimersByTime(1000));
    expect(screen.getByTestId('progress')).toBeInTheDocument();
  });

  it('shows the backend error with its details', async () => {
    await renderContent(
      await responseError(
        404,
        'NotFoundError',
        'no entity component:default/orders-analytics',
      ),
    );
    expect(
      await screen.findByText('no entity component:default/orders-analytics'),
    ).toBeInTheDocument();
  });

  it('shows the empty state without annotations', async () => {
    const api = mockFlinkStandaloneApi(statusResponse());
    await renderFlinkView(<EntityFlinkStandaloneContent />, {
      api,
      entity: entityWithoutAnnotations(),
    });
    expect(screen.getByText(/Missing Annotation/i)).toBeInTheDocument();
    expect(api.getEntityStatus).not.toHaveBeenCalled();
  });

  it('shows each workload with its kind, replicas and revisions', async () => {
    await renderContent(statusResponse(rollingUpdateStatus()));
    const workload = await screen.findByLabelText('TaskManagers workload', {
      selector: 'table',
    });
    expect(workload).toHaveTextContent('StatefulSet orders-taskmanager');
    expect(workload).toHaveTextContent(
      '2 desired, 2 current, 2 ready, 1 updated, 2 available',
    );
    expect(workload).toHaveTextContent(`Current revision${TM_OLD_REVISION}`);
    expect(workload).toHaveTextContent(
      'whenDeleted: Delete, whenScaled: Retain',
    );
    expect(
      screen.getByLabelText('JobManager workload', { selector: 'table' }),
    ).toHaveTextContent('Deployment orders');
  });

  it('gives every table a name and column headers', async () => {
    await renderContent(statusResponse(readyStatus(2)));
    const pods = await screen.findByLabelText('TaskManagers pods', {
      selector: 'table',
    });
    expect(
      within(pods)
        .getAllByRole('columnheader')
        .map(h => h.textContent),
    ).toEqual([
      'Ordinal',
      'Pod',
      'Phase',
      'Ready',
      'Restarts',
      'Last restore from',
      'Revision',
      'Node',
      'Age',
      'Waiting reason',
      'Terminating',
    ]);
    const claims = tableNamed('TaskManagers claims');
    expect(
      within(claims)
        .getAllByRole('columnheader')
        .map(h => h.textContent),
    ).toEqual([
      'Ordinal',
      'Claim',
      'Phase',
      'Capacity',
      'Storage class',
      'Volume',
      'Retention',
    ]);
  });

  it('lists the savepoint history, newest first', async () => {
    const status = readyStatus(1);
    const older = {
      ...status.savepoints[0],
      path: 's3://flink/savepoints/savepoint-orders-000001',
      trigger: 'suspend' as const,
    };
    await renderContent(
      statusResponse({ ...status, savepoints: [...status.savepoints, older] }),
    );
    const table = await screen.findByLabelText('Savepoints', {
      selector: 'table',
    });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows.map(r => within(r).getAllByRole('cell')[0].textContent),
    ).toEqual([status.savepoints[0].path, older.path]);
    expect(rows[0]).toHaveTextContent('orders-enrichment');
    expect(rows[1]).toHaveTextContent('suspend');
  });

  it('says what fills an empty savepoint history', async () => {
    await renderContent(statusResponse({ ...readyStatus(1), savepoints: [] }));
    expect(
      await screen.findByText(/No savepoint yet: an upgrade in savepoint mode/),
    ).toBeInTheDocument();
  });

  it('has a row per TaskManager ordinal, and marks a pod not yet updated', async () => {
    await renderContent(statusResponse(rollingUpdateStatus()));
    await screen.findByLabelText('TaskManagers pods', { selector: 'table' });
    const [zero, one] = rowsOf('TaskManagers pods');
    expect(cell('TaskManagers pods', zero, 'Ordinal')).toBe('0');
    expect(cell('TaskManagers pods', zero, 'Pod')).toBe('orders-taskmanager-0');
    expect(cell('TaskManagers pods', zero, 'Phase')).toBe('Running');
    expect(cell('TaskManagers pods', zero, 'Ready')).toBe('Ready');
    expect(cell('TaskManagers pods', zero, 'Node')).toBe('worker-0');
    expect(cell('TaskManagers pods', zero, 'Age')).toBe('60 min');
    expect(within(zero).queryByText('not updated')).not.toBeInTheDocument();
    expect(cell('TaskManagers pods', one, 'Revision')).toBe(
      `${TM_OLD_REVISION}not updated`,
    );
  });

  it("shows where each TaskManager read its state in the job's last restore", async () => {
    const status = readyStatus(2);
    status.pods = status.pods.map(pod =>
      pod.name === `${status.name}-taskmanager-1`
        ? { ...pod, restoredFrom: 'local' }
        : pod,
    );
    await renderContent(statusResponse(status));
    await screen.findByLabelText('TaskManagers pods', { selector: 'table' });
    const [zero, one] = rowsOf('TaskManagers pods');
    expect(cell('TaskManagers pods', zero, 'Last restore from')).toBe('—');
    expect(cell('TaskManagers pods', one, 'Last restore from')).toBe(
      'local state',
    );
  });

  it('shows a pod stuck terminating, its node and what to do', async () => {
    await renderContent(statusResponse(stuckPodStatus()));
    await screen.findByLabelText('TaskManagers pods', { selector: 'table' });
    const [zero, one] = rowsOf('TaskManagers pods');
    expect(cell('TaskManagers pods', zero, 'Terminating')).toBe('—');
    expect(cell('TaskManagers pods', one, 'Node')).toBe(
      'worker-1 (node NotReady)',
    );
    const terminating = cell('TaskManagers pods', one, 'Terminating');
    expect(terminating).toContain('for 15 min');
    expect(terminating).toContain('stuck');
    expect(terminating).toContain(
      'delete the pod with --force --grace-period=0',
    );
  });

  it('shows a pending claim and the pod waiting for it', async () => {
    await renderContent(statusResponse(pendingClaimStatus()));
    await screen.findByLabelText('TaskManagers claims', { selector: 'table' });
    const claims = rowsOf('TaskManagers claims');
    expect(claims).toHaveLength(3);
    expect(cell('TaskManagers claims', claims[0], 'Phase')).toBe('Bound');
    expect(cell('TaskManagers claims', claims[0], 'Capacity')).toBe('10Gi');
    expect(cell('TaskManagers claims', claims[0], 'Storage class')).toBe(
      'standard',
    );
    expect(cell('TaskManagers claims', claims[0], 'Volume')).toBe('pvc-0000-0');
    expect(cell('TaskManagers claims', claims[0], 'Retention')).toBe(
      'whenDeleted: Delete, whenScaled: Retain',
    );
    expect(cell('TaskManagers claims', claims[2], 'Claim')).toBe(
      'data-orders-taskmanager-2',
    );
    expect(cell('TaskManagers claims', claims[2], 'Phase')).toBe('Pending');
    expect(cell('TaskManagers claims', claims[2], 'Capacity')).toBe(
      '10Gi requested',
    );
    expect(cell('TaskManagers claims', claims[2], 'Volume')).toBe('—');
    const pending = rowsOf('TaskManagers pods')[2];
    expect(cell('TaskManagers pods', pending, 'Waiting reason')).toBe(
      'pod has unbound immediate PersistentVolumeClaims',
    );
    expect(cell('TaskManagers pods', pending, 'Node')).toBe('not scheduled');
    const volumesBound = rowsOf('Conditions').find(r =>
      r.textContent?.startsWith('VolumesBound'),
    )!;
    expect(cell('Conditions', volumesBound, 'Status')).toBe('False');
    expect(cell('Conditions', volumesBound, 'Message')).toBe(
      '2/3 claims are Bound',
    );
  });

  it('shows all 50 ordinals and their claims, in order', async () => {
    await renderContent(statusResponse(readyStatus(50)));
    await screen.findByLabelText('TaskManagers pods', { selector: 'table' });
    const pods = rowsOf('TaskManagers pods');
    expect(pods.map(row => cell('TaskManagers pods', row, 'Ordinal'))).toEqual(
      Array.from({ length: 50 }, (_, i) => String(i)),
    );
    const claims = rowsOf('TaskManagers claims');
    expect(claims).toHaveLength(50);
    expect(cell('TaskManagers claims', claims[49], 'Claim')).toBe(
      'data-orders-taskmanager-49',
    );
  });

  it('shows the conditions, recent events and the Flink REST summary', async () => {
    await renderContent(statusResponse(readyStatus(2)));
    await screen.findByLabelText('Conditions', { selector: 'table' });
    expect(
      rowsOf('Conditions').map(r => cell('Conditions', r, 'Type')),
    ).toContain('NoStuckPods');
    const [event] = rowsOf('Recent events');
    expect(cell('Recent events', event, 'Reason')).toBe('SuccessfulCreate');
    expect(cell('Recent events', event, 'Object')).toBe(
      'StatefulSet/orders-taskmanager',
    );
    expect(cell('Recent events', event, 'Last seen')).toBe('60 min ago');
    const rest = screen.getByLabelText('Flink REST summary', {
      selector: 'table',
    });
    expect(rest).toHaveTextContent('REST API answers (Flink 1.20.1)');
    expect(rest).toHaveTextContent('TaskManagers registered2');
  });

  it('says plainly that REST cannot answer on simulated nodes', async () => {
    await renderContent(statusResponse(simulatedNodesStatus()));
    const rest = await screen.findByLabelText('Flink REST summary', {
      selector: 'table',
    });
    expect(rest).toHaveTextContent(
      'pods run on simulated nodes, no Flink process runs in them',
    );
  });

  it('says when a workload does not exist', async () => {
    await renderContent(statusResponse(missingStatus()));
    expect(
      await screen.findByText('No JobManager workload.'),
    ).toBeInTheDocument();
    expect(screen.getByText('No TaskManagers workload.')).toBeInTheDocument();
  });

  it('warns that a stale status is the last sync, with its age, above the tables', async () => {
    await renderContent(statusResponse(staleStatus()));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(
      'Stale: the watch on the Kubernetes API was lost; this is the state of the last sync, not the current one.',
    );
    expect(
      screen.getByText('observed 12 s ago, last synced 75 s ago'),
    ).toBeInTheDocument();
    // The last sync's pods are still shown, not hidden behind the warning.
    expect(rowsOf('TaskManagers pods')).toHaveLength(2);
  });

  it('hides scale and delete without the permissions', async () => {
    const authorize = jest.fn(
      (_request: { permission: { name: string } }): AuthorizeResult.DENY =>
        AuthorizeResult.DENY,
    );
    // Another entity: permission answers are cached per entity across renders.
    await renderContent(statusResponse(readyStatus(2)), {
      permissionApi: mockApis.permission({ authorize }),
      entity: flinkEntity('denied-cluster'),
    });
    await screen.findByText('READY');
    // Both answers given, and rendered: absence before them would prove nothing.
    await waitFor(() =>
      expect(
        authorize.mock.calls.map(([request]) => request.permission.name),
      ).toEqual(
        expect.arrayContaining([
          'flink.standalone.scale',
          'flink.standalone.delete',
        ]),
      ),
    );
    await act(async () => {});
    expect(screen.queryByText('Scale TaskManagers')).not.toBeInTheDocument();
    expect(screen.queryByText('Delete cluster')).not.toBeInTheDocument();
  });

  it('shows scale and delete with the permissions', async () => {
    // Another entity: permission answers are cached per entity across renders.
    await renderContent(statusResponse(readyStatus(2)), {
      permissionApi: mockApis.permission(),
      entity: flinkEntity('scalable-cluster'),
    });
    expect(await screen.findByText('Scale TaskManagers')).toBeInTheDocument();
    expect(screen.getByText('Delete cluster')).toBeInTheDocument();
  });
});
