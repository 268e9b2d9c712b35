/** @jsxImportSource react */
import Box from '@material-ui/core/Box';
import { InfoCard } from '@backstage/core-components';
import type { EntityFlinkStatusResponse } from '@flink-standalone/plugin-flink-standalone-common';
import { ClusterStateSummary } from '../ClusterStateSummary';
import { FactsTable } from '../DataTable';
import { FlinkClusterStatusLoader } from '../FlinkClusterStatusLoader';
import { FlinkUiLink } from '../FlinkUiLink';
import {
  countClaims,
  describeRest,
  describeRollout,
  describeSlots,
  describeTaskManagers,
  formatJobs,
} from '../format';

/** @public */
export interface EntityFlinkStandaloneCardProps {
  /** Card title; default "Flink cluster". */
  title?: string;
  /** Seconds between refreshes; overrides `flinkStandalone.frontend.refreshIntervalSeconds`. */
  refreshIntervalSeconds?: number;
}

/** The entity's Flink cluster at a glance, for the overview page. */
export function EntityFlinkStandaloneCard(
  props: EntityFlinkStandaloneCardProps,
) {
  return (
    <InfoCard title={props.title ?? 'Flink cluster'}>
      <FlinkClusterStatusLoader
        refreshIntervalSeconds={props.refreshIntervalSeconds}
      >
        {({ response, refreshError }) => (
          <CardBody response={response} refreshError={refreshError} />
        )}
      </FlinkClusterStatusLoader>
    </InfoCard>
  );
}

function CardBody(props: {
  response: EntityFlinkStatusResponse;
  refreshError?: Error;
}) {
  const { status, flinkUiUrl } = props.response;
  const claims = countClaims(status.claims);
  return (
    <Box display="flex" flexDirection="column" gridGap={16}>
      <ClusterStateSummary status={status} refreshError={props.refreshError} />
      <FactsTable
        title="Cluster at a glance"
        facts={[
          [
            'Cluster',
            `${status.namespace}/${status.name} on ${status.cluster}`,
          ],
          ['TaskManagers', describeTaskManagers(status)],
          ['Claims', `${claims.bound}/${claims.total} bound`],
          ['JobManager rollout', describeRollout(status.jobManager)],
          ['TaskManager rollout', describeRollout(status.taskManager)],
          ['Flink REST', describeRest(status.flink)],
          ['Flink version', status.flink.version ?? '—'],
          ['Slots', describeSlots(status.flink)],
          ['Jobs', formatJobs(status.flink.jobsByState)],
        ]}
      />
      <FlinkUiLink url={flinkUiUrl} />
    </Box>
  );
}
