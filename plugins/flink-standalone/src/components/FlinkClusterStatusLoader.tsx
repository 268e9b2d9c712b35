/** @jsxImportSource react */
import type { ReactNode } from 'react';
import type { Entity } from '@backstage/catalog-model';
import {
  MissingAnnotationEmptyState,
  Progress,
  ResponseErrorPanel,
} from '@backstage/core-components';
import { useEntity } from '@backstage/plugin-catalog-react';
import {
  type EntityFlinkStatusResponse,
  FLINK_STANDALONE_ANNOTATIONS,
  isFlinkStandaloneAvailable,
} from '@flink-standalone/plugin-flink-standalone-common';
import {
  useFlinkClusterStatus,
  useRefreshIntervalSeconds,
} from '../hooks/useFlinkClusterStatus';

export interface LoadedStatus {
  response: EntityFlinkStatusResponse;
  refreshError?: Error;
  refresh: () => void;
}

interface LoaderProps {
  /** Overrides `flinkStandalone.frontend.refreshIntervalSeconds`; 0 turns refresh off. */
  refreshIntervalSeconds?: number;
  children: (loaded: LoadedStatus) => ReactNode;
}

/**
 * The states every view of the cluster shares: annotations missing, loading, failed; then
 * `children` with the status, kept fresh.
 */
export function FlinkClusterStatusLoader(props: LoaderProps) {
  const { entity } = useEntity();
  if (!isFlinkStandaloneAvailable(entity)) {
    const annotations = entity.metadata.annotations ?? {};
    return (
      <MissingAnnotationEmptyState
        annotation={FLINK_STANDALONE_ANNOTATIONS.filter(a => !annotations[a])}
      />
    );
  }
  return <StatusOf entity={entity} {...props} />;
}

function StatusOf(props: LoaderProps & { entity: Entity }) {
  const interval = useRefreshIntervalSeconds(props.refreshIntervalSeconds);
  const { response, error, refresh } = useFlinkClusterStatus(
    props.entity,
    interval,
  );
  if (response) {
    return <>{props.children({ response, refreshError: error, refresh })}</>;
  }
  if (error) return <ResponseErrorPanel error={error} />;
  return <Progress />;
}
