/** @jsxImportSource react */
import { act, screen } from '@testing-library/react';
import {
  deployingStatus,
  entityWithoutAnnotations,
  errorStatus,
  missingStatus,
  NOW,
  pendingClaimStatus,
  readyStatus,
  rollingUpdateStatus,
  simulatedNodesStatus,
  staleStatus,
  statusResponse,
} from '../../testing/fixtures';
import {
  mockFlinkStandaloneApi,
  renderFlinkView,
} from '../../__testUtils__/render';
import { responseError } from '../../testing/responseError';
import { EntityFlinkStandaloneCard } from './EntityFlinkStandaloneCard';

/** The value next to a label of the card's facts table. */
function fact(label: string) {
  const header = screen.getByRole('rowheader', { name: label });
  return header.closest('tr')!.querySelectorAll('td')[0].textContent;
}

async function renderCard(
  response: Parameters<typeof mockFlinkStandaloneApi>[0],
) {
  const api = mockFlinkStandaloneApi(response);
  await renderFlinkView(
    <EntityFlinkStandaloneCard refreshIntervalSeconds={0} />,
    { api },
  );
  return api;
}

describe('EntityFlinkStandaloneCard', () => {
  beforeEach(() => jest.useFakeTimers({ now: NOW }));
  afterEach(() => jest.useRealTimers());

  it('shows progress while the status loads', async () => {
    await renderCard(undefined);
    act(() => jest.advanceTimersByTime(1000));
    expect(screen.getByTestId('progress')).toBeInTheDocument();
  });

  it('shows the backend error with its details', async () => {
    await renderCard(
      await responseError(
        403,
        'NotAllowedError',
        'not allowed to read the Flink status',
      ),
    );
    expect(
      await screen.findByText('not allowed to read the Flink status'),
    ).toBeInTheDocument();
    expect(screen.getByText(/403: NotAllowedError/)).toBeInTheDocument();
  });

  it('names the missing annotations and does not call the backend', async () => {
    const api = mockFlinkStandaloneApi(statusResponse());
    await renderFlinkView(<EntityFlinkStandaloneCard />, {
      api,
      entity: entityWithoutAnnotations(),
    });
    expect(screen.getByText(/Missing Annotation/i)).toBeInTheDocument();
    expect(
      screen.getAllByText(/flink-standalone.backstage.io\/cluster/).length,
    ).toBeGreaterThan(0);
    expect(api.getEntityStatus).not.toHaveBeenCalled();
  });

  it('asks the backend for the entity it is shown on', async () => {
    const api = await renderCard(statusResponse());
    await screen.findByText('READY');
    expect(api.getEntityStatus).toHaveBeenCalledWith({
      kind: 'Component',
      namespace: 'default',
      name: 'orders-analytics',
    });
  });

  it('shows a READY cluster at a glance', async () => {
    await renderCard(
      statusResponse(readyStatus(2), 'https://flink.example.com/orders/'),
    );
    expect(await screen.findByText('READY')).toBeInTheDocument();
    expect(screen.getByText('RestReachable')).toBeInTheDocument();
    expect(fact('TaskManagers')).toBe('2/2 ready, 2 registered in Flink');
    expect(fact('Claims')).toBe('2/2 bound');
    expect(fact('TaskManager rollout')).toBe('complete');
    expect(fact('Flink version')).toBe('1.20.1');
    expect(fact('Slots')).toBe('6/8 free');
    expect(fact('Jobs')).toBe('1 RUNNING, 2 FINISHED');
    expect(screen.getByText('observed 12 s ago')).toBeInTheDocument();
    expect(
      screen.getByRole('link', { name: /Open the Flink UI/ }),
    ).toHaveAttribute('href', 'https://flink.example.com/orders/');
    expect(screen.queryByText(/Stale/)).not.toBeInTheDocument();
  });

  it('shows no Flink UI link when none is known', async () => {
    await renderCard(statusResponse(readyStatus(2), undefined));
    await screen.findByText('READY');
    expect(
      screen.queryByRole('link', { name: /Flink UI/ }),
    ).not.toBeInTheDocument();
  });

  it('moves the observed age on as time passes', async () => {
    await renderCard(statusResponse());
    expect(await screen.findByText('observed 12 s ago')).toBeInTheDocument();
    act(() => jest.advanceTimersByTime(5000));
    expect(screen.getByText('observed 17 s ago')).toBeInTheDocument();
  });

  it('shows MISSING with its reason and message', async () => {
    await renderCard(statusResponse(missingStatus()));
    expect(await screen.findByText('MISSING')).toBeInTheDocument();
    expect(screen.getByText('JobManagerMissing')).toBeInTheDocument();
    expect(
      screen.getByText(/no JobManager workload orders in namespace streaming/),
    ).toBeInTheDocument();
    expect(fact('TaskManagers')).toBe('no workload, registration unknown');
  });

  it('shows DEPLOYING with how far the JobManager got', async () => {
    await renderCard(statusResponse(deployingStatus()));
    expect(await screen.findByText('DEPLOYING')).toBeInTheDocument();
    expect(screen.getByText('PodPending')).toBeInTheDocument();
    expect(fact('TaskManagers')).toBe('0/2 ready, registration unknown');
    expect(fact('Flink REST')).toBe(
      'REST not reachable: no JobManager pod is Ready',
    );
  });

  it('shows ERROR with its reason and what Kubernetes said', async () => {
    await renderCard(statusResponse(errorStatus()));
    expect(await screen.findByText('ERROR')).toBeInTheDocument();
    expect(screen.getByText('CrashLoopBackOff')).toBeInTheDocument();
    expect(
      screen.getByText(/back-off 5m0s restarting failed container/),
    ).toBeInTheDocument();
  });

  it('says plainly that REST cannot answer on simulated nodes', async () => {
    await renderCard(statusResponse(simulatedNodesStatus()));
    expect(await screen.findByText('DEPLOYED_NOT_READY')).toBeInTheDocument();
    expect(fact('Flink REST')).toBe(
      'REST not reachable: pods run on simulated nodes, no Flink process runs in them',
    );
    expect(
      screen.getByText(/pods run on simulated \(kwok\) nodes/),
    ).toBeInTheDocument();
    expect(fact('Slots')).toBe('—');
  });

  it('warns visibly when the status is stale', async () => {
    await renderCard(statusResponse(staleStatus()));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(
      /Stale: the watch on the Kubernetes API was lost/,
    );
    expect(
      screen.getByText('observed 12 s ago, last synced 75 s ago'),
    ).toBeInTheDocument();
  });

  it('counts a pending claim as not bound', async () => {
    await renderCard(statusResponse(pendingClaimStatus()));
    await screen.findByText('READY');
    expect(fact('Claims')).toBe('2/3 bound');
    expect(fact('TaskManagers')).toBe('2/3 ready, 2 registered in Flink');
  });

  it('shows the rollout progress', async () => {
    await renderCard(statusResponse(rollingUpdateStatus()));
    await screen.findByText('READY');
    expect(fact('TaskManager rollout')).toBe('1/2 updated');
  });
});
