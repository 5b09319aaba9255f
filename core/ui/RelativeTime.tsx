import { Tooltip } from '@fluentui/react-components';
import { formatDateTime, fromNow } from './format';

/** A past moment as 1.3.9 lists it: relative (3 小时前), the exact time in a tooltip; `-` when it never happened. */
export function RelativeTime({ time }: { time: string | null | undefined }) {
  const relative = fromNow(time);
  if (relative === '-') return <>-</>;
  return (
    <Tooltip content={formatDateTime(time)} relationship="description" withArrow>
      <span>{relative}</span>
    </Tooltip>
  );
}
