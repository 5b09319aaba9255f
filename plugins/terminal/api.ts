import { type ApiClient, downloadUrl, type Envelope, type PageResult, SUCCESS_CODE } from '@/core';

/** The flags of `POST /sessions` (contract §2.10): what the strategy lets this session do, "1" or "0". */
export interface SessionFlags {
  id: string;
  upload: string;
  download: string;
  delete: string;
  rename: string;
  edit: string;
  /** Ours (1.3.9 had none); absent from a 1.3.9 server, where mkdir follows `upload`. */
  createDir?: string;
  copy: string;
  paste: string;
  fileSystem: string;
  storageId: string;
  /**
   * The session's protocol, when the server says it (neither 1.3.9 nor ours does yet): it then wins over what the link
   * or the picker asked for.
   */
  protocol?: string;
}

/** The protocols this page opens: each speaks the terminal frames (contract §5.1) on `/sessions/:id/<protocol>`. */
export const TERM_PROTOCOLS = ['ssh', 'telnet'] as const;
export type TermProtocol = (typeof TERM_PROTOCOLS)[number];

export const isTermProtocol = (value: unknown): value is TermProtocol => (TERM_PROTOCOLS as readonly unknown[]).includes(value);

/**
 * The protocol a link's `protocol` parameter names: SSH when it is missing (the links of before Telnet had none) or
 * names one this page does not open (the server then refuses the session, which the tab shows).
 */
export const termProtocol = (value: string | null | undefined): TermProtocol => (isTermProtocol(value) ? value : 'ssh');

/** The protocol a tab's socket speaks: the server's word when it gives one, else what the tab was opened for. */
export function sessionProtocol(flags: Pick<SessionFlags, 'protocol'> | null | undefined, asked: TermProtocol): TermProtocol {
  const told = flags?.protocol;
  return isTermProtocol(told) ? told : asked;
}

/** The host's status panel (`GET /sessions/:id/stats`) is gathered over SSH: other protocols have none. */
export const hasStats = (protocol: TermProtocol) => protocol === 'ssh';

/** A directory entry of `POST /sessions/:id/ls` (contract §3.16). */
export interface RemoteFile {
  name: string;
  path: string;
  isDir: boolean;
  isLink: boolean;
  size: number;
  modTime: string;
  mode: string;
}

/** `GET /sessions/:id/stats` (contract §3.9). */
export interface SessionStats {
  /** Milliseconds since the host booted. */
  uptime: number;
  hostname: string;
  load1: string;
  load5: string;
  /** The 15-minute load, under 1.3.9's name. */
  load10: string;
  runningProcess: string;
  totalProcess: string;
  memTotal: number;
  memAvailable: number;
  memFree: number;
  memBuffers: number;
  memCached: number;
  swapTotal: number;
  swapFree: number;
  fileSystems: { mountPoint: string; used: number; free: number }[] | null;
  network: Record<string, { ipv4: string; ipv6: string; rx: number; tx: number }> | null;
  cpu: { user: number; nice: number; system: number; idle: number; ioWait: number; irq: number; softIrq: number; steal: number; guest: number };
}

/** A snippet: one of the user's commands (`GET /commands` or `GET /worker/commands`). */
export interface Snippet {
  id: string;
  name: string;
  content: string;
}

/** A row of the asset picker (AssetForPage, from `/worker/assets/paging` or `/assets/paging`). */
export interface PickableAsset {
  id: string;
  name: string;
  protocol: string;
  description?: string;
}

/** "1" = allowed; anything else (missing included) = refused. */
export const allowed = (flag: string | undefined) => flag === '1';

/** The envelope in a text body, or null when the text is not one. */
export function parseEnvelope(text: string): Envelope | null {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && typeof (value as { code?: unknown }).code === 'number') {
      const { code, message, data } = value as { code: number; message?: unknown; data?: unknown };
      return { code, message: typeof message === 'string' ? message : '', data };
    }
  } catch {
    // not JSON
  }
  return null;
}

const form = (fields: Record<string, string>) => {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.set(name, value);
  return body;
};

// File operations toast the server's refusal (`禁止操作`, a missing file…): they answer a click.
export const sessionApi = (api: ApiClient) => {
  const at = (id: string, what: string) => `/sessions/${encodeURIComponent(id)}/${what}`;
  return {
    // The page shows a creation failure itself (the tab's error state), so no toast.
    create: (assetId: string) => api.post<SessionFlags>('/sessions', undefined, { params: { assetId, mode: 'native' }, silent: true }),
    connect: (id: string) => api.post<null>(at(id, 'connect')),
    stats: (id: string, signal?: AbortSignal) => api.get<SessionStats>(at(id, 'stats'), { silent: true, signal }),
    /**
     * Where the file manager opens: the session's home folder on the host (ours; a 1.3.9 server has no such route,
     * and any failure opens `/`, as 1.3.9's console did).
     */
    home: async (id: string): Promise<string> => {
      try {
        const answer = await api.get<{ path?: unknown } | null>(at(id, 'home'), { silent: true });
        return typeof answer?.path === 'string' && answer.path.startsWith('/') ? answer.path : '/';
      } catch {
        return '/';
      }
    },
    // Form fields as 1.3.9's console sends them (multipart), so both servers read them.
    ls: async (id: string, dir: string) => (await api.post<RemoteFile[] | null>(at(id, 'ls'), form({ dir }))) ?? [],
    mkdir: (id: string, dir: string) => api.post<null>(at(id, 'mkdir'), undefined, { params: { dir } }),
    rm: (id: string, file: string) => api.post<null>(at(id, 'rm'), form({ file })),
    rename: (id: string, oldName: string, newName: string) => api.post<null>(at(id, 'rename'), undefined, { params: { oldName, newName } }),
    // A file's whole text: its time grows with its size, so no request timeout.
    edit: (id: string, file: string, fileContent: string) => api.post<null>(at(id, 'edit'), form({ file, fileContent }), { timeout: 0 }),
    /** The browser download URL of a remote file (token in the query). */
    downloadUrl: (id: string, file: string) => downloadUrl(api, at(id, 'download'), { file, t: Date.now() }),
    /**
     * A remote file as text, for the editor. A plain fetch, not the JSON client: the body is the file as it is (a JSON
     * file must not be parsed); a refusal comes back as an envelope (`application/json`).
     */
    read: async (id: string, file: string): Promise<string> => {
      const response = await fetch(downloadUrl(api, at(id, 'download'), { file, t: Date.now() }));
      const text = await response.text();
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      if ((response.headers.get('content-type') ?? '').includes('application/json')) {
        const envelope = parseEnvelope(text);
        if (envelope && envelope.code !== SUCCESS_CODE) throw new Error(envelope.message);
      }
      return text;
    },
    /** Where the upload XHR posts (token in the query, as 1.3.9's console sends it). */
    uploadUrl: (id: string, dir: string) => downloadUrl(api, at(id, 'upload'), { dir }),
  };
};

export type SessionApi = ReturnType<typeof sessionApi>;

/** The snippets of the caller: everybody's commands for holders of `command`, else the caller's own. */
export const snippetApi = (api: ApiClient, own: boolean) => ({
  list: async () => (await api.get<Snippet[] | null>(own ? '/worker/commands' : '/commands', { silent: true })) ?? [],
});

/**
 * The SSH and Telnet assets the caller may open, for the "+" picker: one page of each (the list filters on one protocol
 * at a time), by name.
 */
export const pickerApi = (api: ApiClient, portal: boolean) => ({
  list: async (name: string): Promise<PickableAsset[]> => {
    const pages = await Promise.all(
      TERM_PROTOCOLS.map(async (protocol) => {
        const answer = await api.get<PageResult<PickableAsset> | null>(portal ? '/worker/assets/paging' : '/assets/paging', {
          params: { pageIndex: 1, pageSize: 50, protocol, name: name || undefined },
          silent: true,
        });
        return (answer?.items ?? []).filter((a) => a.protocol === protocol);
      }),
    );
    return pages.flat().sort((a, b) => a.name.localeCompare(b.name));
  },
});
