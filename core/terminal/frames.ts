import type { ApiClient } from '../api/client';
import { type DownloadQuery, downloadUrl } from '../ui/download';

// The terminal WebSocket's frames (contract §5.1): one ASCII digit, the type, then the content, as text frames.
// The 1.3.9 console speaks types 0–4; 5 and 6 are ours (flow control), and a 1.3.9 server would ignore them.

export const FRAME = {
  /** server → client: the session ended; content = the reason. */
  closed: 0,
  /** server → client: the shell is up. */
  connected: 1,
  /** both ways: terminal output (server → client) or keystrokes (client → server). */
  data: 2,
  /** client → server: base64 of the JSON `{"cols":…,"rows":…}`. */
  resize: 3,
  /** both ways: keep-alive. */
  ping: 4,
  /** client → server: the browser is behind (xterm's write queue is long): stop reading from SSH. */
  pause: 5,
  /** client → server: caught up: read from SSH again. */
  resume: 6,
} as const;

export type FrameType = (typeof FRAME)[keyof typeof FRAME];

export interface Frame {
  type: number;
  content: string;
}

/** Splits a frame; a frame that does not start with a digit is type -1 (ignored by readers). */
export function decodeFrame(message: string): Frame {
  const type = message.charCodeAt(0) - 48;
  return type >= 0 && type <= 9 ? { type, content: message.slice(1) } : { type: -1, content: message };
}

export const encodeData = (keys: string): string => `${FRAME.data}${keys}`;
export const encodePing = (): string => `${FRAME.ping}`;
export const encodePause = (): string => `${FRAME.pause}`;
export const encodeResume = (): string => `${FRAME.resume}`;

/** Resize as 1.3.9 sends it: base64 of the JSON (ASCII only, so btoa is safe). */
export function encodeResize(cols: number, rows: number): string {
  return `${FRAME.resize}${btoa(JSON.stringify({ cols, rows }))}`;
}

/**
 * The `ws://` / `wss://` URL of a server WebSocket path, on the page's own origin (spec §1: the websocket address is
 * taken from the location of the current page), with the signed-in user's token and the console's language (`lng`: the
 * server says its close reasons in it) in the query (contract §5).
 */
export function socketUrl(api: Pick<ApiClient, 'baseUrl' | 'token'> & Partial<Pick<ApiClient, 'language'>>, path: string, query: DownloadQuery = {}, base: string = window.location.href): string {
  const url = new URL(downloadUrl(api, path, query), base);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}
