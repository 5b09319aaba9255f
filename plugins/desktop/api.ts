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

/**
 * The protocols the desktop pages open: each has `/sessions/:id/<protocol>` and `/sessions/:id/<protocol>-monitor`, with
 * the same frames and RFB (RDP is FreeRDP inside a private Xvnc on the bastion, served as VNC).
 */
export const DESKTOP_PROTOCOLS = ['vnc', 'rdp'] as const;
export type DesktopProtocol = (typeof DESKTOP_PROTOCOLS)[number];

export const isDesktopProtocol = (value: unknown): value is DesktopProtocol => (DESKTOP_PROTOCOLS as readonly unknown[]).includes(value);

/** The desktop size asked of the target at open: the viewer's area in CSS pixels, clamped to what the server accepts. */
export interface DesktopSize {
  width: number;
  height: number;
}

export const SIZE_LIMITS = { minWidth: 640, maxWidth: 3840, minHeight: 480, maxHeight: 2160 } as const;

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, Number.isFinite(value) ? Math.round(value) : min));

/** Integers within 640–3840 × 480–2160 (an unmeasurable area, 0 or NaN, gets the least). */
export const clampSize = (width: number, height: number): DesktopSize => ({
  width: clamp(width, SIZE_LIMITS.minWidth, SIZE_LIMITS.maxWidth),
  height: clamp(height, SIZE_LIMITS.minHeight, SIZE_LIMITS.maxHeight),
});

/** The CSS size of an element (not × devicePixelRatio), clamped. */
export const sizeOf = (element: Element): DesktopSize => {
  const rect = element.getBoundingClientRect();
  return clampSize(rect.width, rect.height);
};

/** What the monitor reads of `GET /sessions/:id`. */
interface SessionProtocol {
  protocol?: string;
}

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
  /** The attach socket (its query: `size`, which RDP opens at; VNC ignores it, it is sent on both). */
  socketPath: (id: string, protocol: DesktopProtocol) => at(id, protocol),
  monitorPath: (id: string, protocol: DesktopProtocol) => at(id, `${protocol}-monitor`),
  /** The session's protocol from its row (the monitor key grants the read); undefined when it cannot be read. */
  protocolOf: async (id: string): Promise<string | undefined> => {
    try {
      const row = await api.get<SessionProtocol | null>(`/sessions/${encodeURIComponent(id)}`, { silent: true });
      return typeof row?.protocol === 'string' && row.protocol ? row.protocol : undefined;
    } catch {
      return undefined; // the page falls back to the link's parameter
    }
  },
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
