// A WebSocket test double for terminal pages: tests install it on globalThis, then play the server's side.

/** One socket the page opened; `serverSends` plays a frame from the server, `sent` is what the page sent. */
export class FakeWebSocket {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  readonly CONNECTING = 0;
  readonly OPEN = 1;
  readonly CLOSING = 2;
  readonly CLOSED = 3;

  readonly url: string;
  readyState = FakeWebSocket.CONNECTING;
  bufferedAmount = 0;
  binaryType: BinaryType = 'blob';
  /** Every message the page sent, in order. */
  readonly sent: string[] = [];
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  private readonly listeners = new Map<string, Set<(event: Event) => void>>();

  constructor(url: string | URL) {
    this.url = String(url);
  }

  send(data: string): void {
    if (this.readyState !== FakeWebSocket.OPEN) throw new Error(`send on a socket that is not open: ${data.slice(0, 20)}`);
    this.sent.push(data);
  }

  close(code = 1000, reason = ''): void {
    if (this.readyState === FakeWebSocket.CLOSED) return;
    this.readyState = FakeWebSocket.CLOSED;
    this.dispatch('close', new CloseEvent('close', { code, reason, wasClean: true }));
  }

  addEventListener(type: string, listener: (event: Event) => void): void {
    if (!this.listeners.has(type)) this.listeners.set(type, new Set());
    this.listeners.get(type)?.add(listener);
  }

  removeEventListener(type: string, listener: (event: Event) => void): void {
    this.listeners.get(type)?.delete(listener);
  }

  // The server's side.

  /** The connection is up (`onopen`). */
  serverOpens(): void {
    this.readyState = FakeWebSocket.OPEN;
    this.dispatch('open', new Event('open'));
  }

  /** A text frame from the server. */
  serverSends(data: string): void {
    this.dispatch('message', new MessageEvent('message', { data }));
  }

  /** The server closes the connection. */
  serverCloses(code = 1000, reason = ''): void {
    this.close(code, reason);
  }

  private dispatch(type: 'open' | 'message' | 'close' | 'error', event: Event): void {
    const handler = this[`on${type}`] as ((e: Event) => void) | null;
    handler?.call(this, event);
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }
}

export interface FakeSockets {
  /** Every socket opened since install, in order. */
  readonly all: FakeWebSocket[];
  /** The latest socket (throws when none was opened). */
  last(): FakeWebSocket;
  /** Puts the real WebSocket back (also done by the test's cleanup when installed with `onTestFinished`). */
  restore(): void;
}

/** Replaces `globalThis.WebSocket` with {@link FakeWebSocket} until `restore()`. */
export function installFakeWebSocket(): FakeSockets {
  const real = globalThis.WebSocket;
  const all: FakeWebSocket[] = [];
  class Recorded extends FakeWebSocket {
    constructor(url: string | URL) {
      super(url);
      all.push(this);
    }
  }
  globalThis.WebSocket = Recorded as unknown as typeof WebSocket;
  return {
    all,
    last: () => {
      const socket = all.at(-1);
      if (!socket) throw new Error('no WebSocket was opened');
      return socket;
    },
    restore: () => {
      globalThis.WebSocket = real;
    },
  };
}
