/** @jsxImportSource react */
import { Link } from '@backstage/core-components';
import LaunchIcon from '@material-ui/icons/Launch';

export function FlinkUiLink(props: { url?: string }) {
  if (!props.url) return null;
  return (
    <Link to={props.url} target="_blank" rel="noopener noreferrer">
      Open the Flink UI <LaunchIcon fontSize="inherit" />
    </Link>
  );
}
