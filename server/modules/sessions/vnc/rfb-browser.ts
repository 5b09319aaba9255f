import type { Duplex } from 'node:stream';
import type { RawData, WebSocket } from 'ws';
import { type RfbConnected, type RfbConnectOptions, type RfbVersion, rfbConnect, rfbServerInit, SECURITY_NONE, type ServerInit, parseVersion, versionLine } from './rfb-handshake.ts';
import { bound, HANDSHAKE_TIMEOUT_MS, printable, type ReadLimits, RfbError, RfbReader } from './rfb-reader.ts';

/*
 * The browser's side of a VNC session. noVNC in the browser speaks RFB over a WebSocket of binary messages to the
 * bastion, which plays the RFB *server* towards it and offers a single security type, None: the bastion has already
 * authenticated to the target (rfb-handshake.ts), so the target's password never reaches the browser. After both
 * handshakes the browser's ClientInit goes to the target, the target's ServerInit comes back unchanged, and from
 * there every byte is relayed as it is (the relay's business, with the ServerInit kept for the recording).
 */

/** A binary message channel to the browser; `wsChannel` makes one of a `ws` WebSocket. */
export interface BrowserChannel {
  send(data: Buffer): void;
  /**
   * Delivers the browser's bytes to `onData` and its end to `onEnd` (a ChannelRuleError when it broke the channel's
   * rules, such as a text message); returns what stops the delivery.
   */
  listen(onData: (chunk: Buffer) => void, onEnd: (error?: Error) => void): () => void;
}

/** What a channel ends with when the browser broke its rules (a text message where RFB needs binary ones). */
export class ChannelRuleError extends Error {}

const asBuffer = (data: RawData): Buffer => (Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data));

export function wsChannel(ws: WebSocket): BrowserChannel {
  return {
    send: (data) => ws.send(data, { binary: true }),
    listen(onData, onEnd) {
      const message = (data: RawData, isBinary: boolean) => (isBinary ? onData(asBuffer(data)) : onEnd(new ChannelRuleError('a text message')));
      const close = () => onEnd();
      const error = (err: Error) => onEnd(err);
      ws.on('message', message);
      ws.on('close', close);
      ws.on('error', error);
      return () => {
        ws.off('message', message);
        ws.off('close', close);
        ws.off('error', error);
      };
    },
  };
}

export interface BrowserHandshake {
  version: RfbVersion;
  /** The ClientInit's shared flag. */
  shared: boolean;
  /**
   * Gives the browser's bytes to the relay: first what arrived after the ClientInit (synchronously, in this call),
   * then every later message. Until it is called they are buffered (up to the handshake's limit), never lost.
   * Returns what stops the delivery.
   */
  handOff(onData: (chunk: Buffer) => void, onEnd: (error?: Error) => void): () => void;
  /** Stops listening (when the session fails before the hand-off). */
  stop(): void;
  /**
   * Why the browser's side failed after its ClientInit and before the hand-off (it left, or sent more than the
   * handshake buffers), if it did; `onFailure` is told when that happens.
   */
  failed(): RfbError | undefined;
  onFailure(fn: (error: RfbError) => void): void;
}

/**
 * Plays the RFB server to the browser up to its ClientInit: version 3.8 offered (3.3 and 3.7 clients answered in
 * their version), security type None only, SecurityResult OK. Rejects with an RfbError (side `browser`).
 */
export async function rfbServe(browser: BrowserChannel, limits: ReadLimits = {}): Promise<BrowserHandshake> {
  const reader = new RfbReader('browser');
  let route = {
    data: (chunk: Buffer) => reader.push(chunk),
    end: (error?: Error) => reader.fail(new RfbError('browser', error instanceof ChannelRuleError ? 'protocol' : 'closed', error?.message ?? '')),
  };
  const stop = browser.listen(
    (chunk) => route.data(chunk),
    (error) => route.end(error),
  );
  const unbound = bound(reader, limits);
  try {
    browser.send(versionLine('3.8'));
    const line = await reader.read(12);
    const asked = parseVersion(line);
    if (asked?.major !== 3) throw reader.protocol(`not an RFB version line: "${printable(line)}"`);
    const version: RfbVersion = asked.minor >= 8 ? '3.8' : asked.minor === 7 ? '3.7' : '3.3';
    if (version === '3.3') {
      browser.send(u32(SECURITY_NONE));
    } else {
      browser.send(Buffer.of(1, SECURITY_NONE));
      const chosen = await reader.u8();
      if (chosen !== SECURITY_NONE) throw reader.protocol(`security type ${chosen} chosen, only None (1) was offered`);
      if (version === '3.8') browser.send(u32(0));
    }
    const shared = (await reader.u8()) !== 0;
    let handedOff = false;
    return {
      version,
      shared,
      handOff(onData, onEnd) {
        handedOff = true;
        reader.onFail = undefined;
        route = { data: onData, end: onEnd };
        // Failed between the bridge's end and this call (it left, or flooded): the relay learns it at once.
        if (reader.failed) {
          onEnd(reader.failed);
          return stop;
        }
        const rest = reader.rest();
        if (rest.length) onData(rest);
        return stop;
      },
      stop,
      failed: () => (handedOff ? undefined : reader.failed),
      onFailure(fn) {
        if (handedOff) return;
        if (reader.failed) fn(reader.failed);
        else reader.onFail = fn;
      },
    };
  } catch (err) {
    stop();
    throw err instanceof RfbError ? err : (reader.failed ?? err);
  } finally {
    unbound();
  }
}

const u32 = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};

export interface VncBridgeOptions extends RfbConnectOptions {
  /** The socket to the target, as `reach()` gives it. */
  target: Duplex;
  browser: BrowserChannel;
  /** Overrides the browser's shared flag in the ClientInit sent to the target (e.g. to let a monitor join). */
  shared?: boolean;
}

export interface VncBridge {
  target: RfbConnected;
  browser: BrowserHandshake;
  /** Already sent to the browser; kept for the recording (the framebuffer's size and pixel format). */
  serverInit: ServerInit;
}

/**
 * Both handshakes, at once (the browser's does not wait for the target's): the bastion logs in to the target with
 * the asset's password, the browser gets None, the browser's ClientInit goes to the target and the target's
 * ServerInit to the browser. Then the target's socket — `target.socket`, the TLS one when the target spoke VeNCrypt:
 * relay that one — is paused at the first byte after the ServerInit and the browser's bytes wait for
 * `browser.handOff`. One deadline (`timeoutMs`) for everything. On failure (an RfbError:
 * `side` says whose) the target socket is destroyed and the browser channel no longer listened to; closing the
 * browser's WebSocket with the reason is the caller's.
 */
export async function vncBridge({ target, browser, password, shared, timeoutMs = HANDSHAKE_TIMEOUT_MS, signal }: VncBridgeOptions): Promise<VncBridge> {
  const deadline = Date.now() + timeoutMs;
  const left = () => Math.max(1, deadline - Date.now());
  const abort = new AbortController();
  const onAbort = () => abort.abort();
  if (signal?.aborted) abort.abort();
  signal?.addEventListener('abort', onAbort);
  const failing = <T>(p: Promise<T>): Promise<T> =>
    p.catch((err) => {
      abort.abort();
      throw err;
    });
  const servingBrowser = failing(rfbServe(browser, { timeoutMs, signal: abort.signal }));
  try {
    const [connected, served] = await Promise.all([failing(rfbConnect(target, { password, timeoutMs, signal: abort.signal })), servingBrowser]);
    // The browser leaving (or flooding) while the target prepares its ServerInit ends the wait at once.
    served.onFailure(() => abort.abort());
    try {
      const serverInit = await rfbServerInit(connected.socket, shared ?? served.shared, { timeoutMs: left(), signal: abort.signal });
      const late = served.failed();
      if (late) throw late;
      browser.send(serverInit.raw);
      return { target: connected, browser: served, serverInit };
    } catch (err) {
      served.stop();
      connected.socket.destroy();
      throw served.failed() ?? err;
    }
  } catch (err) {
    target.destroy();
    throw err;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}
