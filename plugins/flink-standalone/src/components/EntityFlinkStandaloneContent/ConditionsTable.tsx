/** @jsxImportSource react */
import type { ClusterCondition } from '@flink-standalone/plugin-flink-standalone-common';
import { type Column, DataTable } from '../DataTable';
import { TimeAgo } from '../TimeAgo';

const COLUMNS: Column<ClusterCondition>[] = [
  { title: 'Type', render: c => c.type },
  { title: 'Status', render: c => c.status },
  { title: 'Reason', render: c => c.reason },
  { title: 'Message', render: c => c.message },
  {
    title: 'Last transition',
    render: c => <TimeAgo at={c.lastTransitionTime} />,
  },
];

export function ConditionsTable(props: { conditions: ClusterCondition[] }) {
  return (
    <DataTable
      title="Conditions"
      columns={COLUMNS}
      rows={props.conditions}
      rowKey={c => c.type}
      emptyText="No conditions."
    />
  );
}
