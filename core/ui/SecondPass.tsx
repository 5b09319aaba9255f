import { type ReactNode, useDeferredValue } from 'react';

/** On the element a SecondPass leaves while its children wait for their pass (the test harness waits for none). */
export const SECOND_PASS_PENDING = 'data-second-pass-pending';

/**
 * Renders `fallback` in the pass it mounts in and its children in a background pass right after (React's deferred
 * value, at transition priority): what the user came for commits and paints first, this region a moment later. For
 * regions that do not move the content when they fill in — a box of fixed size (the side menu, the header bar) or
 * what comes below it (the pager). Mounted later (another page of a mounted layout), it costs one small extra pass.
 */
export function SecondPass({ children, fallback = null }: { children: ReactNode; fallback?: ReactNode }) {
  const ready = useDeferredValue(true, false);
  if (ready) return children;
  return (
    <>
      {fallback}
      <span hidden {...{ [SECOND_PASS_PENDING]: '' }} />
    </>
  );
}
