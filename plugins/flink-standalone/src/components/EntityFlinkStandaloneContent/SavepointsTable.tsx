/** @jsxImportSource react */
import type { SavepointRecord } from '@flink-standalone/plugin-flink-standalone-common';
import { type Column, DataTable } from '../DataTable';
import { TimeAgo } from '../TimeAgo';

const COLUMNS: Column<SavepointRecord>[] = [
  { title: 'Path', render: s => s.path },
  { title: 'Taken', render: s => <TimeAgo at={s.time} /> },
  { title: 'Trigger', render: s => s.trigger },
  { title: 'Job', render: s => s.jobName ?? s.jobId },
  { title: 'Job ID', render: s => s.jobId },
];

/** The savepoints the cluster's jobs were stopped with: where to start a job from again. */
export function SavepointsTable(props: { savepoints: SavepointRecord[] }) {
  return (
    <DataTable
      title="Savepoints"
      columns={COLUMNS}
      rows={props.savepoints}
      rowKey={s => s.path}
      emptyText="No savepoint yet: an upgrade in savepoint mode records the savepoint it stopped the jobs with."
    />
  );
}
