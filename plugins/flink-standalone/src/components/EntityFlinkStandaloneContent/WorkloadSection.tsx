/** @jsxImportSource react */
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import { InfoCard } from '@backstage/core-components';
import type {
  ClaimStatus,
  PodStatus,
  WorkloadStatus,
} from '@flink-standalone/plugin-flink-standalone-common';
import { FactsTable } from '../DataTable';
import { describeRollout, formatClaimRetention } from '../format';
import { ClaimsTable } from './ClaimsTable';
import { PodsTable } from './PodsTable';

function workloadFacts(workload: WorkloadStatus): [string, string][] {
  const { desired, current, ready, updated, available } = workload.replicas;
  const facts: [string, string][] = [
    ['Workload', `${workload.kind} ${workload.name}`],
    [
      'Replicas',
      `${desired} desired, ${current} current, ${ready} ready, ${updated} updated, ${available} available`,
    ],
    ['Current revision', workload.currentRevision ?? '—'],
    ['Update revision', workload.updateRevision ?? '—'],
    ['Rollout', describeRollout(workload)],
  ];
  if (workload.podManagementPolicy) {
    facts.push(['Pod management policy', workload.podManagementPolicy]);
  }
  if (workload.retention) {
    facts.push(['Claim retention', formatClaimRetention(workload.retention)]);
  }
  return facts;
}

/** The JobManager or the TaskManagers: the workload, its pods and their claims. */
export function WorkloadSection(props: {
  title: string;
  workload?: WorkloadStatus;
  pods: PodStatus[];
  claims: ClaimStatus[];
}) {
  const { title, workload, pods, claims } = props;
  return (
    <InfoCard title={title}>
      <Box display="flex" flexDirection="column" gridGap={16}>
        {workload ? (
          <FactsTable
            title={`${title} workload`}
            facts={workloadFacts(workload)}
          />
        ) : (
          <Typography variant="body2">No {title} workload.</Typography>
        )}
        <Typography variant="h6" component="h3">
          Pods
        </Typography>
        <PodsTable title={`${title} pods`} pods={pods} />
        <Typography variant="h6" component="h3">
          Claims
        </Typography>
        <ClaimsTable title={`${title} claims`} claims={claims} />
      </Box>
    </InfoCard>
  );
}
