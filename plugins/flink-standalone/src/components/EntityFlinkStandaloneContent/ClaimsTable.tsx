/** @jsxImportSource react */
import Chip from '@material-ui/core/Chip';
import type { ClaimStatus } from '@flink-standalone/plugin-flink-standalone-common';
import { type Column, DataTable } from '../DataTable';
import { formatRetention } from '../format';

function Phase({ claim }: { claim: ClaimStatus }) {
  if (claim.phase === 'Bound') return <>Bound</>;
  return <Chip size="small" color="secondary" label={claim.phase} />;
}

const COLUMNS: Column<ClaimStatus>[] = [
  { title: 'Ordinal', render: claim => claim.ordinal ?? '—' },
  { title: 'Claim', render: claim => claim.name },
  { title: 'Phase', render: claim => <Phase claim={claim} /> },
  {
    title: 'Capacity',
    render: claim =>
      claim.capacity ??
      (claim.requested ? `${claim.requested} requested` : '—'),
  },
  { title: 'Storage class', render: claim => claim.storageClass ?? '—' },
  { title: 'Volume', render: claim => claim.volumeName ?? '—' },
  { title: 'Retention', render: claim => formatRetention(claim.retention) },
];

/** The PersistentVolumeClaims per ordinal: the volumes local recovery depends on. */
export function ClaimsTable(props: { title: string; claims: ClaimStatus[] }) {
  return (
    <DataTable
      title={props.title}
      columns={COLUMNS}
      rows={props.claims}
      rowKey={claim => claim.name}
      emptyText="No claims."
    />
  );
}
