import { useCallback, useEffect, useRef, useState } from 'react';
import { configApiRef, useApi } from '@backstage/core-plugin-api';
import { type Entity, getCompoundEntityRef } from '@backstage/catalog-model';
import type { EntityFlinkStatusResponse } from '@flink-standalone/plugin-flink-standalone-common';
import { flinkStandaloneApiRef } from '../api';
import { usePageVisible } from './usePageVisible';

export const DEFAULT_REFRESH_INTERVAL_SECONDS = 10;
export const REFRESH_INTERVAL_CONFIG_KEY =
  'flinkStandalone.frontend.refreshIntervalSeconds';

export interface FlinkClusterStatusState {
  /** The last answer; kept while a later refresh fails, so the page does not flicker. */
  response?: EntityFlinkStatusResponse;
  /** The last refresh's error. */
  error?: Error;
  refresh: () => void;
}

/** The prop wins over the config; 0 or less turns automatic refresh off. */
export function useRefreshIntervalSeconds(prop?: number): number {
  const configApi = useApi(configApiRef);
  return (
    prop ??
    configApi.getOptionalNumber(REFRESH_INTERVAL_CONFIG_KEY) ??
    DEFAULT_REFRESH_INTERVAL_SECONDS
  );
}

/**
 * Fetches the entity's cluster status, then again every `refreshIntervalSeconds` while the page
 * is visible, and at once when it becomes visible again.
 */
export function useFlinkClusterStatus(
  entity: Entity,
  refreshIntervalSeconds: number,
): FlinkClusterStatusState {
  const api = useApi(flinkStandaloneApiRef);
  const visible = usePageVisible();
  const [state, setState] = useState<Omit<FlinkClusterStatusState, 'refresh'>>(
    {},
  );
  const { kind, namespace, name } = getCompoundEntityRef(entity);
  // Answers of an earlier entity or a slower earlier request must not overwrite newer ones.
  const latestRequest = useRef(0);

  const refresh = useCallback(() => {
    const request = ++latestRequest.current;
    api.getEntityStatus({ kind, namespace, name }).then(
      response => {
        if (request === latestRequest.current) setState({ response });
      },
      error => {
        if (request === latestRequest.current) {
          setState(previous => ({ response: previous.response, error }));
        }
      },
    );
  }, [api, kind, namespace, name]);

  useEffect(() => {
    setState({});
  }, [kind, namespace, name]);

  useEffect(() => {
    if (!visible) return undefined;
    refresh();
    if (refreshIntervalSeconds <= 0) return undefined;
    const timer = setInterval(refresh, refreshIntervalSeconds * 1000);
    return () => clearInterval(timer);
  }, [refresh, visible, refreshIntervalSeconds]);

  useEffect(
    () => () => {
      latestRequest.current += 1;
    },
    [],
  );

  return { ...state, refresh };
}
