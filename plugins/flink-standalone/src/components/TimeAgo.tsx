/** @jsxImportSource react */
import { useNow } from '../hooks/useNow';
import { formatAgo } from './format';

/** "3 min ago", the exact time on hover. */
export function TimeAgo(props: { at?: string }) {
  const now = useNow(5000);
  if (!props.at) return <>—</>;
  return (
    <time dateTime={props.at} title={props.at}>
      {formatAgo(props.at, now)}
    </time>
  );
}
