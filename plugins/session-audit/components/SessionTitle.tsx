import { formatDateTime, useCan, useEndpoints, useQuery } from '@/core';
import { SESSION_KEYS, type SessionRow, sessionApi } from './api';

/**
 * The session a full-window page shows (who, what, when), when the viewer may read it: `GET /sessions/:id` is granted
 * by the history's key and by the monitor and playback keys that open these pages; without any, no title line.
 */
export function useSessionInfo(id: string): SessionRow | undefined {
  return useSessionRow(id).info;
}

/** The session as `useSessionInfo` reads it, and whether that is over: read, failed, or not to be read at all. */
export function useSessionRow(id: string): { info: SessionRow | undefined; settled: boolean } {
  const sessions = useEndpoints(sessionApi);
  const mayRead = useCan('offline-session', 'online-session-monitor', 'offline-session-playback');
  const enabled = mayRead && id !== '';
  const query = useQuery({ queryKey: SESSION_KEYS.one(id), queryFn: () => sessions.get(id), enabled });
  return { info: query.data, settled: !enabled || query.isSuccess || query.isError };
}

export const sessionWhen = (s: SessionRow) => formatDateTime(s.connectedTime);
