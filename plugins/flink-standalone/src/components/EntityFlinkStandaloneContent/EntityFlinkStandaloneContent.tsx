/** @jsxImportSource react */
import Box from '@material-ui/core/Box';
import Grid from '@material-ui/core/Grid';
import { InfoCard } from '@backstage/core-components';
import { useEntity } from '@backstage/plugin-catalog-react';
import type {
  FlinkClusterStatus,
  FlinkComponent,
} from '@flink-standalone/plugin-flink-standalone-common';
import { ClusterActions } from '../actions/ClusterActions';
import { ClusterStateSummary } from '../ClusterStateSummary';
import {
  FlinkClusterStatusLoader,
  type LoadedStatus,
} from '../FlinkClusterStatusLoader';
import { FlinkUiLink } from '../FlinkUiLink';
import { ConditionsTable } from './ConditionsTable';
import { EventsTable } from './EventsTable';
import { SavepointsTable } from './SavepointsTable';
import { FlinkRestFacts } from './FlinkRestFacts';
import { WorkloadSection } from './WorkloadSection';

/** @public */
export interface EntityFlinkStandaloneContentProps {
  /** Seconds between refreshes; overrides `flinkStandalone.frontend.refreshIntervalSeconds`. */
  refreshIntervalSeconds?: number;
}

/** Everything the observer knows about the entity's Flink cluster, for an entity page tab. */
export function EntityFlinkStandaloneContent(
  props: EntityFlinkStandaloneContentProps,
) {
  return (
    <FlinkClusterStatusLoader
      refreshIntervalSeconds={props.refreshIntervalSeconds}
    >
      {loaded => <ClusterDetails {...loaded} />}
    </FlinkClusterStatusLoader>
  );
}

function ofComponent(status: FlinkClusterStatus, component: FlinkComponent) {
  return {
    pods: status.pods.filter(p => p.component === component),
    claims: status.claims.filter(c => c.component === component),
  };
}

function ClusterDetails({ response, refreshError, refresh }: LoadedStatus) {
  const { entity } = useEntity();
  const { status, flinkUiUrl } = response;
  return (
    <Grid container spacing={3}>
      <Grid item xs={12}>
        <InfoCard
          title={`Flink cluster ${status.namespace}/${status.name} on ${status.cluster}`}
        >
          <Box display="flex" flexDirection="column" gridGap={16}>
            <ClusterStateSummary status={status} refreshError={refreshError} />
            <FlinkUiLink url={flinkUiUrl} />
            <ClusterActions
              entity={entity}
              status={status}
              onChanged={refresh}
            />
          </Box>
        </InfoCard>
      </Grid>
      <Grid item xs={12}>
        <WorkloadSection
          title="JobManager"
          workload={status.jobManager}
          {...ofComponent(status, 'jobmanager')}
        />
      </Grid>
      <Grid item xs={12}>
        <WorkloadSection
          title="TaskManagers"
          workload={status.taskManager}
          {...ofComponent(status, 'taskmanager')}
        />
      </Grid>
      <Grid item xs={12} lg={8}>
        <InfoCard title="Conditions">
          <ConditionsTable conditions={status.conditions} />
        </InfoCard>
      </Grid>
      <Grid item xs={12} lg={4}>
        <InfoCard title="Flink REST">
          <FlinkRestFacts flink={status.flink} />
        </InfoCard>
      </Grid>
      <Grid item xs={12}>
        <InfoCard title="Recent events">
          <EventsTable events={status.events} />
        </InfoCard>
      </Grid>
      <Grid item xs={12}>
        <InfoCard title="Savepoints">
          <SavepointsTable savepoints={status.savepoints} />
        </InfoCard>
      </Grid>
    </Grid>
  );
}
