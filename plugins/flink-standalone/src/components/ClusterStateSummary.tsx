/** @jsxImportSource react */
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import Alert from '@material-ui/lab/Alert';
import type { FlinkClusterStatus } from '@flink-standalone/plugin-flink-standalone-common';
import { useNow } from '../hooks/useNow';
import { describeError, formatAgo } from './format';
import { JobManagerStateChip } from './JobManagerStateChip';

/** The state, its reason and sentence, how old it is, and whether it can be trusted. */
export function ClusterStateSummary(props: {
  status: FlinkClusterStatus;
  refreshError?: Error;
}) {
  const { status, refreshError } = props;
  const now = useNow();
  return (
    <Box display="flex" flexDirection="column" gridGap={8}>
      <Box display="flex" alignItems="center" flexWrap="wrap" gridGap={8}>
        <Typography variant="subtitle2" component="span">
          JobManager
        </Typography>
        <JobManagerStateChip state={status.jobManagerDeploymentStatus} />
        <Typography variant="body2" component="span">
          {status.reason}
        </Typography>
      </Box>
      <Typography variant="body2">{status.message}</Typography>
      <Typography variant="caption" color="textSecondary">
        observed {formatAgo(status.observedAt, now)}
        {status.stale &&
          status.lastSyncedAt &&
          `, last synced ${formatAgo(status.lastSyncedAt, now)}`}
      </Typography>
      {/* The ticking ages stay out of the alert, so screen readers announce it once. */}
      {status.stale && (
        <Alert severity="warning">
          Stale: the watch on the Kubernetes API was lost; this is the state of
          the last sync, not the current one.
        </Alert>
      )}
      {refreshError && (
        <Alert severity="warning">
          Could not refresh, showing the last answer:{' '}
          {describeError(refreshError)}
        </Alert>
      )}
    </Box>
  );
}
