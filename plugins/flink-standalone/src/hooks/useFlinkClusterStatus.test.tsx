/** @jsxImportSource react */
import { act, screen } from '@testing-library/react';
import type { EntityFlinkStatusResponse } from '@flink-standalone/plugin-flink-standalone-common';
import { EntityFlinkStandaloneCard } from '../components/EntityFlinkStandaloneCard';
import {
  errorStatus,
  NOW,
  readyStatus,
  statusResponse,
} from '../testing/fixtures';
import {
  mockFlinkStandaloneApi,
  renderFlinkView,
} from '../__testUtils__/render';

async function advanceSeconds(seconds: number) {
  await act(async () => {
    jest.advanceTimersByTime(seconds * 1000);
  });
}

function setPageHidden(hidden: boolean) {
  Object.defineProperty(document, 'hidden', {
    configurable: true,
    get: () => hidden,
  });
  act(() => {
    document.dispatchEvent(new Event('visibilitychange'));
  });
}

describe('automatic refresh', () => {
  beforeEach(() => jest.useFakeTimers({ now: NOW }));
  afterEach(() => {
    jest.useRealTimers();
    setPageHidden(false);
  });

  it('fetches again every refreshIntervalSeconds and shows the new state', async () => {
    const api = mockFlinkStandaloneApi(statusResponse(readyStatus(2)));
    await renderFlinkView(
      <EntityFlinkStandaloneCard refreshIntervalSeconds={5} />,
      { api },
    );
    expect(await screen.findByText('READY')).toBeInTheDocument();
    api.getEntityStatus.mockResolvedValue(statusResponse(errorStatus()));
    await advanceSeconds(4);
    expect(api.getEntityStatus).toHaveBeenCalledTimes(1);
    await advanceSeconds(1);
    expect(api.getEntityStatus).toHaveBeenCalledTimes(2);
    expect(screen.getByText('ERROR')).toBeInTheDocument();
  });

  it('takes the interval from flinkStandalone.frontend.refreshIntervalSeconds', async () => {
    const api = mockFlinkStandaloneApi(statusResponse());
    await renderFlinkView(<EntityFlinkStandaloneCard />, {
      api,
      config: { flinkStandalone: { frontend: { refreshIntervalSeconds: 30 } } },
    });
    await screen.findByText('READY');
    await advanceSeconds(29);
    expect(api.getEntityStatus).toHaveBeenCalledTimes(1);
    await advanceSeconds(1);
    expect(api.getEntityStatus).toHaveBeenCalledTimes(2);
  });

  it('refreshes every 10 seconds without a prop or config', async () => {
    const api = mockFlinkStandaloneApi(statusResponse());
    await renderFlinkView(<EntityFlinkStandaloneCard />, { api });
    await screen.findByText('READY');
    await advanceSeconds(10);
    expect(api.getEntityStatus).toHaveBeenCalledTimes(2);
  });

  it('does not refresh at all with an interval of 0', async () => {
    const api = mockFlinkStandaloneApi(statusResponse());
    await renderFlinkView(
      <EntityFlinkStandaloneCard refreshIntervalSeconds={0} />,
      { api },
    );
    await screen.findByText('READY');
    await advanceSeconds(600);
    expect(api.getEntityStatus).toHaveBeenCalledTimes(1);
  });

  it('pauses while the page is hidden and refreshes at once when shown', async () => {
    const api = mockFlinkStandaloneApi(statusResponse());
    await renderFlinkView(
      <EntityFlinkStandaloneCard refreshIntervalSeconds={5} />,
      { api },
    );
    await screen.findByText('READY');
    setPageHidden(true);
    await advanceSeconds(60);
    expect(api.getEntityStatus).toHaveBeenCalledTimes(1);
    setPageHidden(false);
    await advanceSeconds(0);
    expect(api.getEntityStatus).toHaveBeenCalledTimes(2);
    await advanceSeconds(5);
    expect(api.getEntityStatus).toHaveBeenCalledTimes(3);
  });

  it('keeps the last state when a refresh fails, and says so', async () => {
    const api = mockFlinkStandaloneApi(statusResponse());
    await renderFlinkView(
      <EntityFlinkStandaloneCard refreshIntervalSeconds={5} />,
      { api },
    );
    await screen.findByText('READY');
    api.getEntityStatus.mockRejectedValue(new Error('Failed to fetch'));
    await advanceSeconds(5);
    expect(screen.getByText('READY')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Could not refresh, showing the last answer: Failed to fetch',
    );
  });

  it('ignores an answer that arrives after a newer one', async () => {
    const api = mockFlinkStandaloneApi(statusResponse());
    let answerSlowly: (response: EntityFlinkStatusResponse) => void = () => {};
    api.getEntityStatus.mockReturnValueOnce(
      new Promise(resolve => {
        answerSlowly = resolve;
      }),
    );
    api.getEntityStatus.mockResolvedValueOnce(statusResponse(errorStatus()));
    await renderFlinkView(
      <EntityFlinkStandaloneCard refreshIntervalSeconds={5} />,
      { api },
    );
    await advanceSeconds(5);
    expect(screen.getByText('ERROR')).toBeInTheDocument();
    await act(async () => answerSlowly(statusResponse(readyStatus(2))));
    expect(screen.getByText('ERROR')).toBeInTheDocument();
    expect(screen.queryByText('READY')).not.toBeInTheDocument();
  });
});
