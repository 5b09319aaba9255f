import { useSyncExternalStore } from 'react';

const subscribe = (changed: () => void) => {
  document.addEventListener('visibilitychange', changed);
  return () => document.removeEventListener('visibilitychange', changed);
};
const visible = () => document.visibilityState === 'visible';

/** Whether the page is shown (false in a background tab or a minimised window), following `visibilitychange`. */
export function usePageVisible(): boolean {
  return useSyncExternalStore(subscribe, visible, () => true);
}
