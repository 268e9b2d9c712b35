/** @jsxImportSource react */
import Box from '@material-ui/core/Box';
import Chip from '@material-ui/core/Chip';
import Typography from '@material-ui/core/Typography';
import type {
  PodStatus,
  RestoreSource,
} from '@flink-standalone/plugin-flink-standalone-common';
import { useNow } from '../../hooks/useNow';
import { type Column, DataTable } from '../DataTable';
import { formatAge } from '../format';

function Revision({ pod }: { pod: PodStatus }) {
  return (
    <Box display="flex" alignItems="center" gridGap={4}>
      <span>{pod.revision ?? '—'}</span>
      {pod.updated === false && (
        <Chip size="small" color="secondary" label="not updated" />
      )}
    </Box>
  );
}

function Node({ pod }: { pod: PodStatus }) {
  if (!pod.node) return <>{pod.unschedulable ? 'not scheduled' : '—'}</>;
  return (
    <>
      {pod.node}
      {pod.nodeReady === false && ' (node NotReady)'}
    </>
  );
}

function Terminating({ pod, now }: { pod: PodStatus; now: Date }) {
  if (!pod.terminatingSince) return <>—</>;
  return (
    <Box display="flex" flexDirection="column" gridGap={4}>
      <span>for {formatAge(pod.terminatingSince, now)}</span>
      {pod.stuck && (
        <>
          <Chip size="small" color="secondary" label="stuck" />
          {pod.stuckMessage && (
            <Typography variant="caption">{pod.stuckMessage}</Typography>
          )}
        </>
      )}
    </Box>
  );
}

/** Why the pod is not running (waiting, last termination, scheduling), or a dash. */
function notRunningReason(pod: PodStatus): string {
  return (
    [pod.waitingReason, pod.terminatedReason, pod.unschedulable]
      .filter(Boolean)
      .join('; ') || '—'
  );
}

const RESTORE_SOURCE_TEXT: Record<RestoreSource, string> = {
  local: 'local state',
  remote: 'checkpoint storage',
  mixed: 'local state and checkpoint storage',
  none: 'nothing to restore',
};

/** Where a TaskManager read its state in the job's latest restore, when one is known. */
function restoredFrom(pod: PodStatus): string {
  return pod.restoredFrom ? RESTORE_SOURCE_TEXT[pod.restoredFrom] : '—';
}

/** One row per pod; StatefulSet pods by ordinal. */
export function PodsTable(props: { title: string; pods: PodStatus[] }) {
  // Pod ages need no update every second: 50 rows re-render less often.
  const now = useNow(5000);
  const columns: Column<PodStatus>[] = [
    { title: 'Ordinal', render: pod => pod.ordinal ?? '—' },
    { title: 'Pod', render: pod => pod.name },
    { title: 'Phase', render: pod => pod.phase },
    { title: 'Ready', render: pod => (pod.ready ? 'Ready' : 'Not ready') },
    { title: 'Restarts', render: pod => pod.restarts },
    { title: 'Last restore from', render: restoredFrom },
    { title: 'Revision', render: pod => <Revision pod={pod} /> },
    { title: 'Node', render: pod => <Node pod={pod} /> },
    { title: 'Age', render: pod => formatAge(pod.startTime, now) },
    { title: 'Waiting reason', render: notRunningReason },
    {
      title: 'Terminating',
      render: pod => <Terminating pod={pod} now={now} />,
    },
  ];
  return (
    <DataTable
      title={props.title}
      columns={columns}
      rows={props.pods}
      rowKey={pod => pod.name}
      emptyText="No pods."
    />
  );
}
