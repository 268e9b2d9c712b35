/** @jsxImportSource react */
import type { FlinkRestSummary } from '@flink-standalone/plugin-flink-standalone-common';
import { FactsTable } from '../DataTable';
import { describeRest, describeSlots, formatJobs } from '../format';

/** What the Flink REST API said, or plainly why it said nothing. */
export function FlinkRestFacts(props: { flink: FlinkRestSummary }) {
  const { flink } = props;
  return (
    <FactsTable
      title="Flink REST summary"
      facts={[
        ['REST', describeRest(flink)],
        ['Version', flink.version ?? '—'],
        [
          'TaskManagers registered',
          String(flink.taskManagersRegistered ?? '—'),
        ],
        ['Slots', describeSlots(flink)],
        ['Jobs', formatJobs(flink.jobsByState)],
        ['Fetched at', flink.fetchedAt ?? 'never'],
      ]}
    />
  );
}
