import { type ApiClient, type PageResult, pageSource, type SearchFieldOption } from '@/core';

/** A row of `GET /sessions/paging` (SessionForPage, contract §3.8) plus our `commandCount`. */
export interface SessionRow {
  id: string;
  protocol: string;
  ip: string;
  port: number;
  username: string;
  assetId: string;
  assetName: string;
  creator: string;
  creatorName: string;
  clientIp: string;
  width: number;
  height: number;
  status: 'no_connect' | 'connecting' | 'connected' | 'disconnected';
  /** '1' when the recording file exists (paging rewrites the path to a flag). */
  recording: string;
  /** Ours (a 1.3.9 server leaves it out): the recording file's size in bytes, 0 when there is none. */
  recordingSize?: number;
  connectedTime: string;
  disconnectedTime: string;
  /** Close code and reason (contract §5.4). */
  code: number;
  message: string;
  mode: string;
  reviewed: boolean;
  commandCount: number;
  /** Ours (a 1.3.9 server leaves them out): the recording could not be written from `recordingFailedAt` on. */
  recordingIncomplete?: boolean;
  /** Why: the system's error code (ENOSPC, EDQUOT, EIO…). */
  recordingFailure?: string;
  /** `YYYY-MM-DD HH:mm:ss`, server time. */
  recordingFailedAt?: string;
}

/** One line of a session's command index (`GET /sessions/:id/commands/paging`). */
export interface SessionCommand {
  id: number;
  /** Milliseconds from the start of the recording. */
  offsetMs: number;
  command: string;
  created: string;
}

export const SESSION_KEYS = {
  online: ['session-audit', 'online'] as const,
  offline: ['session-audit', 'offline'] as const,
  users: ['session-audit', 'user-options'] as const,
  assets: ['session-audit', 'asset-options'] as const,
  one: (id: string) => ['session-audit', 'session', id] as const,
  recording: (id: string) => ['session-audit', 'recording', id] as const,
  commands: (id: string) => ['session-audit', 'commands', id] as const,
};

/** Comma ids in one path segment, as 1.3.9's batch routes take them. */
const ids = (list: readonly (string | number)[]) => list.map((id) => encodeURIComponent(String(id))).join(',');

/** The protocols whose sessions are terminals: the same frames, monitor (`/sessions/:id/<protocol>-monitor`) and asciicast. */
export const TERMINAL_PROTOCOLS = ['ssh', 'telnet'] as const;
export type TerminalProtocol = (typeof TERMINAL_PROTOCOLS)[number];

export const isTerminalProtocol = (value: unknown): value is TerminalProtocol => (TERMINAL_PROTOCOLS as readonly unknown[]).includes(value);

/**
 * Terminal sessions (SSH and Telnet, native; SSH through sshd's `terminal`) can be watched and played back here;
 * graphical ones (guacd mode, RDP, VNC) cannot.
 */
export const isTerminalSession = (row: Pick<SessionRow, 'mode' | 'protocol'>) => row.mode !== 'guacd' && isTerminalProtocol(row.protocol);

/** The graphical protocols watched and played back by the desktop pages (`/guacd-monitor`, `/guacd-playback`). */
export const DESKTOP_PROTOCOLS = ['vnc', 'rdp'] as const;

/** A desktop session (VNC or RDP in mode guacd): the desktop monitor and player open it. */
export const isDesktopSession = (row: Pick<SessionRow, 'mode' | 'protocol'>) => row.mode === 'guacd' && (DESKTOP_PROTOCOLS as readonly string[]).includes(row.protocol);

/** The monitor socket of a terminal session of `protocol` (SSH's for anything else: the only one before Telnet). */
export const monitorPath = (sessionId: string, protocol: string | null | undefined) =>
  `/sessions/${encodeURIComponent(sessionId)}/${isTerminalProtocol(protocol) ? protocol : 'ssh'}-monitor`;

/** The most commands the index page asks for at once; a session with more shows the first ones and says so. */
export const COMMAND_PAGE_SIZE = 1000;

export const sessionApi = (api: ApiClient) => ({
  page: pageSource<SessionRow>(api, '/sessions/paging'),
  get: (id: string) => api.get<SessionRow>(`/sessions/${encodeURIComponent(id)}`),
  disconnect: (list: readonly (string | number)[]) => api.post<null>(`/sessions/${ids(list)}/disconnect`),
  remove: (list: readonly (string | number)[]) => api.delete<null>(`/sessions/${ids(list)}`),
  clear: () => api.post<null>('/sessions/clear'),
  markReviewed: (list: readonly (string | number)[]) => api.post<null>(`/sessions/${ids(list)}/reviewed`),
  markUnreviewed: (list: readonly (string | number)[]) => api.post<null>(`/sessions/${ids(list)}/unreviewed`),
  markAllReviewed: () => api.post<null>('/sessions/reviewed'),
  /** The asciicast file as text (a one-line file arrives parsed: it is turned back into its line). */
  recording: async (id: string): Promise<string> => {
    // A download whose time grows with the session's length: no request timeout.
    const body = await api.get<unknown>(`/sessions/${encodeURIComponent(id)}/recording`, { timeout: 0 });
    if (typeof body === 'string') return body;
    return body === null || body === undefined ? '' : JSON.stringify(body);
  },
  commands: (id: string) =>
    api.get<PageResult<SessionCommand>>(`/sessions/${encodeURIComponent(id)}/commands/paging`, { params: { pageIndex: 1, pageSize: COMMAND_PAGE_SIZE } }),
  userOptions: async (): Promise<SearchFieldOption[]> =>
    ((await api.get<{ id: string; username: string; nickname: string }[] | null>('/users')) ?? []).map((u) => ({ value: u.id, label: u.nickname || u.username })),
  assetOptions: async (): Promise<SearchFieldOption[]> =>
    ((await api.get<{ id: string; name: string }[] | null>('/assets')) ?? []).map((a) => ({ value: a.id, label: a.name })),
});

export type SessionApi = ReturnType<typeof sessionApi>;
