/** @jsxImportSource react */
import type { ClusterEvent } from '@flink-standalone/plugin-flink-standalone-common';
import { type Column, DataTable } from '../DataTable';
import { TimeAgo } from '../TimeAgo';

const COLUMNS: Column<ClusterEvent>[] = [
  { title: 'Type', render: e => e.type },
  { title: 'Reason', render: e => e.reason },
  { title: 'Object', render: e => e.object },
  { title: 'Message', render: e => e.message },
  { title: 'Count', render: e => e.count },
  { title: 'Last seen', render: e => <TimeAgo at={e.lastTimestamp} /> },
];

export function EventsTable(props: { events: ClusterEvent[] }) {
  return (
    <DataTable
      title="Recent events"
      columns={COLUMNS}
      rows={props.events}
      rowKey={(e, index) => `${index}/${e.object}/${e.reason}`}
      emptyText="No recent events."
    />
  );
}
