import { type ApiClient, downloadUrl } from '@/core';

/** What `POST /sessions?mode=guacd` answers that the desktop page uses: the session and its strategy's flags. */
export interface DesktopSession {
  id: string;
  /** "1": the remote clipboard may reach the browser. */
  copy: string;
  /** "1": the browser's clipboard may reach the remote. */
  paste: string;
  protocol?: string;
}

/** "1" = allowed; anything else (missing included) = refused. */
export const allowed = (flag: string | undefined) => flag === '1';

/** The protocols the desktop page opens (RDP waits for its relay). */
export const DESKTOP_PROTOCOLS = ['vnc'] as const;

const at = (id: string, rest: string) => `/sessions/${encodeURIComponent(id)}/${rest}`;

/** Why a recording could not be fetched: the HTTP status (0: no answer). */
export class RecordingFetchError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.name = 'RecordingFetchError';
    this.status = status;
  }
}

export const desktopApi = (api: ApiClient) => ({
  /** Desktops keep 1.3.9's mode `guacd` (the session lists pick the desktop monitor and player by it). */
  create: (assetId: string) => api.post<DesktopSession>('/sessions', undefined, { params: { assetId, mode: 'guacd' }, silent: true }),
  connect: (id: string) => api.post<null>(at(id, 'connect')),
  socketPath: (id: string) => at(id, 'vnc'),
  monitorPath: (id: string) => at(id, 'vnc-monitor'),
  /**
   * The recording's bytes. The API client reads JSON envelopes, so this is a plain fetch of the download URL (token in
   * the query, as every download); an envelope instead of a file (a refusal) becomes an error with its message.
   */
  recording: async (id: string, signal?: AbortSignal): Promise<ArrayBuffer> => {
    let response: Response;
    try {
      response = await fetch(downloadUrl(api, at(id, 'recording')), signal ? { signal } : {});
    } catch (error) {
      throw new RecordingFetchError(0, error instanceof Error ? error.message : String(error));
    }
    const type = response.headers.get('content-type') ?? '';
    if (!response.ok || type.includes('application/json')) {
      let message = response.statusText || String(response.status);
      try {
        const body = (await response.json()) as { message?: unknown };
        if (typeof body.message === 'string' && body.message) message = body.message;
      } catch {
        // not an envelope: the status says it
      }
      throw new RecordingFetchError(response.status, message);
    }
    return response.arrayBuffer();
  },
});
