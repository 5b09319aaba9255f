/**
 * The channel objects noVNC's `RFB` reads instead of a WebSocket URL (it checks these properties exist, sets
 * `binaryType`, `onopen`, `onmessage`, `onclose`, `onerror`, reads `readyState` and calls `send` and `close`).
 */

export type ChannelState = 'connecting' | 'open' | 'closing' | 'closed';

export interface RawChannel {
  binaryType: string;
  protocol: string;
  readyState: ChannelState;
  onopen: ((event: Event) => void) | null;
  onmessage: ((event: { data: ArrayBuffer }) => void) | null;
  onclose: ((event: { code: number; reason: string; wasClean: boolean }) => void) | null;
  onerror: ((event: Event) => void) | null;
  send(data: ArrayBuffer | ArrayBufferView): void;
  close(): void;
}

/** Keep-alive period of 1.3.9's console (and the terminal's): a `4` every 10 s. */
export const PING_MS = 10_000;

export interface SocketChannelEvents {
  /** The server said `1`: the bastion is logged in to the target and RFB bytes follow. */
  connected?: () => void;
  /** The socket is gone; `reason` is the server's `0<reason>` ('' when it closed without one). */
  closed?: (reason: string) => void;
}

/** Copies what noVNC sends: it hands over a view of its send buffer, which it reuses at once. */
function copyOf(data: ArrayBuffer | ArrayBufferView): Uint8Array<ArrayBuffer> {
  const view = data instanceof ArrayBuffer ? new Uint8Array(data) : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return new Uint8Array(view);
}

/**
 * A desktop session's socket (`/sessions/:id/vnc`, `/sessions/:id/vnc-monitor`) as noVNC's channel: text frames are
 * control frames (`1` open, `0<reason>` closed, `4` pong), binary frames are RFB bytes. noVNC sees the channel open at
 * `1`, never before; it gets only binary frames; a `4` goes every {@link PING_MS} while open.
 */
export class SocketChannel implements RawChannel {
  binaryType = 'arraybuffer';
  protocol = '';
  readyState: ChannelState = 'connecting';
  onopen: RawChannel['onopen'] = null;
  onmessage: RawChannel['onmessage'] = null;
  onclose: RawChannel['onclose'] = null;
  onerror: RawChannel['onerror'] = null;
  /** The server's last word (`0<reason>`), '' until it says one. */
  reason = '';
  private ping: ReturnType<typeof setInterval> | undefined;
  private readonly socket: WebSocket;
  private readonly events: SocketChannelEvents;

  constructor(socket: WebSocket, events: SocketChannelEvents = {}) {
    this.socket = socket;
    this.events = events;
    socket.binaryType = 'arraybuffer';
    socket.onmessage = (event: MessageEvent) => this.receive(event.data);
    socket.onclose = (event: CloseEvent) => this.closed(event.code, event.reason);
    socket.onerror = (event: Event) => this.onerror?.(event);
  }

  send(data: ArrayBuffer | ArrayBufferView): void {
    if (this.readyState === 'open' && this.socket.readyState === WebSocket.OPEN) this.socket.send(copyOf(data));
  }

  close(): void {
    if (this.readyState === 'closed') return;
    this.readyState = 'closing';
    this.socket.close();
  }

  private receive(data: unknown): void {
    if (typeof data === 'string') {
      const type = data.charAt(0);
      if (type === '1' && this.readyState === 'connecting') {
        this.readyState = 'open';
        this.ping = setInterval(() => {
          if (this.socket.readyState === WebSocket.OPEN) this.socket.send('4');
        }, PING_MS);
        this.events.connected?.();
        this.onopen?.(new Event('open'));
      } else if (type === '0') {
        this.reason = data.slice(1);
        this.close();
      }
      return; // `4` pongs, and what a newer server may add
    }
    if (this.readyState !== 'open') return;
    if (data instanceof ArrayBuffer) this.onmessage?.({ data });
    else if (ArrayBuffer.isView(data)) this.onmessage?.({ data: copyOf(data).buffer });
  }

  private closed(code: number, reason: string): void {
    if (this.readyState === 'closed') return;
    clearInterval(this.ping);
    this.readyState = 'closed';
    this.socket.onmessage = null;
    this.socket.onclose = null;
    this.events.closed?.(this.reason);
    this.onclose?.({ code, reason: this.reason || reason, wasClean: true });
  }
}

const SECURITY_NONE = 1;

/**
 * The player's channel: it plays an RFB 3.8 server to noVNC — its version, the one security type None, a
 * SecurityResult OK after noVNC picks it, and the recording's ServerInit after noVNC's ClientInit — then hands noVNC
 * whatever {@link PlaybackChannel.push} gives it. What noVNC sends after its ClientInit (pixel format, encodings,
 * update requests, keys) is ignored: a recording answers nobody.
 */
export class PlaybackChannel implements RawChannel {
  binaryType = 'arraybuffer';
  protocol = '';
  readyState: ChannelState = 'connecting';
  onopen: RawChannel['onopen'] = null;
  onmessage: RawChannel['onmessage'] = null;
  onclose: RawChannel['onclose'] = null;
  onerror: RawChannel['onerror'] = null;
  /** Bytes noVNC sent so far during the handshake. */
  private heard = 0;
  private stage: 'version' | 'security' | 'clientInit' | 'ready' = 'version';
  private readonly serverInit: Uint8Array;

  constructor(serverInit: Uint8Array) {
    this.serverInit = serverInit;
  }

  /** Opens the channel (noVNC must be attached: it set `onopen`) and says the server's version. */
  start(): void {
    if (this.readyState !== 'connecting') return;
    this.readyState = 'open';
    this.onopen?.(new Event('open'));
    this.deliver(new TextEncoder().encode('RFB 003.008\n'));
  }

  /** True once noVNC has its ServerInit: records may flow. */
  get ready(): boolean {
    return this.stage === 'ready';
  }

  /** Server → browser bytes of the recording (ignored before the handshake is done or after close). */
  push(bytes: Uint8Array): void {
    if (this.stage === 'ready' && this.readyState === 'open') this.deliver(bytes);
  }

  send(data: ArrayBuffer | ArrayBufferView): void {
    if (this.readyState !== 'open' || this.stage === 'ready') return;
    this.heard += data.byteLength;
    // Each step waits for the whole of noVNC's part: 12 bytes of version, 1 of chosen type, 1 of ClientInit.
    if (this.stage === 'version' && this.heard >= 12) {
      this.heard -= 12;
      this.stage = 'security';
      this.deliver(Uint8Array.of(1, SECURITY_NONE));
    }
    if (this.stage === 'security' && this.heard >= 1) {
      this.heard -= 1;
      this.stage = 'clientInit';
      this.deliver(Uint8Array.of(0, 0, 0, 0));
    }
    if (this.stage === 'clientInit' && this.heard >= 1) {
      this.heard = 0;
      this.stage = 'ready';
      this.deliver(this.serverInit);
    }
  }

  close(): void {
    if (this.readyState === 'closed') return;
    this.readyState = 'closed';
    this.onclose?.({ code: 1000, reason: '', wasClean: true });
  }

  /**
   * Later, not now: noVNC calls `send` from inside its own message handling, and must not be handed a message while
   * it is still in it. Deliveries keep their order (microtasks run first in, first out).
   */
  private deliver(bytes: Uint8Array): void {
    const copy = new Uint8Array(bytes).buffer as ArrayBuffer;
    queueMicrotask(() => {
      if (this.readyState === 'open') this.onmessage?.({ data: copy });
    });
  }
}
