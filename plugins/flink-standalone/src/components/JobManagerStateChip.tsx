/** @jsxImportSource react */
import Chip from '@material-ui/core/Chip';
import { makeStyles } from '@material-ui/core/styles';
import CheckCircleIcon from '@material-ui/icons/CheckCircle';
import ErrorIcon from '@material-ui/icons/Error';
import HourglassEmptyIcon from '@material-ui/icons/HourglassEmpty';
import WarningIcon from '@material-ui/icons/Warning';
import type { JobManagerDeploymentStatus } from '@flink-standalone/plugin-flink-standalone-common';

type Severity = 'ok' | 'pending' | 'warning' | 'error';

const SEVERITY: Record<JobManagerDeploymentStatus, Severity> = {
  READY: 'ok',
  DEPLOYING: 'pending',
  DEPLOYED_NOT_READY: 'warning',
  MISSING: 'warning',
  ERROR: 'error',
};

const ICON: Record<Severity, typeof CheckCircleIcon> = {
  ok: CheckCircleIcon,
  pending: HourglassEmptyIcon,
  warning: WarningIcon,
  error: ErrorIcon,
};

const useStyles = makeStyles(theme => {
  const color = (severity: Severity) => ({
    borderColor:
      theme.palette.status?.[severity] ?? theme.palette.text.secondary,
    '& $icon': { color: theme.palette.status?.[severity] },
  });
  return {
    icon: {},
    ok: color('ok'),
    pending: color('pending'),
    warning: color('warning'),
    error: color('error'),
  };
});

/** The JobManager deployment state in the operator's words, with an icon; the colour only repeats it. */
export function JobManagerStateChip(props: {
  state: JobManagerDeploymentStatus;
}) {
  const classes = useStyles();
  const severity = SEVERITY[props.state];
  const Icon = ICON[severity];
  return (
    <Chip
      variant="outlined"
      className={classes[severity]}
      classes={{ icon: classes.icon }}
      icon={<Icon fontSize="small" />}
      label={props.state}
    />
  );
}
