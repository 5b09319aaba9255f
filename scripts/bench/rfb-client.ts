import WebSocket from 'ws';
import { vncAuthResponse } from '../../server/modules/sessions/vnc/vnc-auth.ts';

/*
 * A minimal RFB 3.8 client over a WebSocket, for benchmarks: what noVNC does on the wire, without a browser. It asks
 * for Raw pixels only (32 bpp true colour), so an update's length is known from its rectangles: a benchmark can tell
 * when an update has fully arrived.
 */

/** Bytes from binary WebSocket messages, read by exact lengths. */
class ByteQueue {
  private chunks: Buffer[] = [];
  private length = 0;
  private waiter: { n: number; resolve: (b: Buffer) => void; reject: (e: Error) => void } | undefined;
  private failed: Error | undefined;

  private discarding = false;

  /** Drops everything from now on (a pending read never resolves). */
  discard(): void {
    this.discarding = true;
    this.chunks = [];
    this.length = 0;
  }

  push(chunk: Buffer): void {
    if (this.discarding) return;
    this.chunks.push(chunk);
    this.length += chunk.length;
    this.wake();
  }

  fail(error: Error): void {
    this.failed = error;
    this.waiter?.reject(error);
    this.waiter = undefined;
  }

  read(n: number): Promise<Buffer> {
    if (this.failed) return Promise.reject(this.failed);
    return new Promise((resolve, reject) => {
      this.waiter = { n, resolve, reject };
      this.wake();
    });
  }

  private wake(): void {
    const w = this.waiter;
    if (!w || this.length < w.n) return;
    const all = Buffer.concat(this.chunks);
    this.chunks = all.length > w.n ? [all.subarray(w.n)] : [];
    this.length = all.length - w.n;
    this.waiter = undefined;
    w.resolve(all.subarray(0, w.n));
  }
}

export interface RfbClient {
  width: number;
  height: number;
  /** Sends a key press and release (an X keysym). */
  key(keysym: number): void;
  /** Moves the pointer (no button): with no window manager, keys go to the window under it. */
  pointer(x: number, y: number): void;
  /** Asks for an update (incremental or the whole screen). */
  request(incremental: boolean): void;
  /** Reads one server message through; resolves with the number of rectangles when it was a FramebufferUpdate, else -1. */
  next(): Promise<number>;
  /**
   * From now on: asks for noVNC's encodings (the relay keeps Hextile, RRE, CopyRect and Raw of them) and throws away
   * what arrives unread (next() is over): for measuring what a session records, not what the client sees.
   */
  asNoVnc(): void;
  close(): void;
}

/**
 * Connects an RFB client over `url`. `control`: the socket also carries Jumpgate's text control frames (`1` before the
 * RFB bytes, `0<reason>` at the end); otherwise every message is RFB. `password`: answered when the server asks for
 * VncAuth (a bare proxy to the target); Jumpgate's relay offers None.
 */
export async function rfbConnect(url: string, options: { control: boolean; password?: string }): Promise<RfbClient> {
  const ws = new WebSocket(url, { perMessageDeflate: false });
  const queue = new ByteQueue();
  let opened!: () => void;
  const connected = new Promise<void>((resolve, reject) => {
    opened = resolve;
    ws.once('error', reject);
  });
  ws.on('message', (data: Buffer, isBinary: boolean) => {
    if (isBinary) return queue.push(data);
    const text = data.toString('utf8');
    if (text === '1') opened();
    else if (text.startsWith('0')) queue.fail(new Error(`closed: ${text.slice(1)}`));
  });
  ws.on('close', () => queue.fail(new Error('socket closed')));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  if (options.control) await connected;
  const send = (b: Buffer) => ws.send(b);

  const version = (await queue.read(12)).toString('latin1');
  if (!version.startsWith('RFB 003.')) throw new Error(`not RFB: ${JSON.stringify(version)}`);
  send(Buffer.from('RFB 003.008\n', 'latin1'));
  const count = (await queue.read(1))[0] as number;
  if (count === 0) throw new Error('the server refused the connection');
  const types = [...(await queue.read(count))];
  if (types.includes(1)) send(Buffer.from([1]));
  else if (types.includes(2) && options.password !== undefined) {
    send(Buffer.from([2]));
    send(vncAuthResponse(await queue.read(16), options.password));
  } else throw new Error(`no usable security type in ${types.join(',')}`);
  if ((await queue.read(4)).readUInt32BE(0) !== 0) throw new Error('security handshake failed');
  send(Buffer.from([1])); // ClientInit: shared
  const init = await queue.read(24);
  const width = init.readUInt16BE(0);
  const height = init.readUInt16BE(2);
  await queue.read(init.readUInt32BE(20)); // the desktop's name

  // SetPixelFormat: 32 bpp, depth 24, little-endian, true colour, 8 bits per channel (noVNC's default).
  const format = Buffer.alloc(20);
  format.set([0, 0, 0, 0, 32, 24, 0, 1], 0);
  format.writeUInt16BE(255, 8);
  format.writeUInt16BE(255, 10);
  format.writeUInt16BE(255, 12);
  format.set([16, 8, 0], 14);
  send(format);
  // SetEncodings: Raw only.
  send(Buffer.from([2, 0, 0, 1, 0, 0, 0, 0]));

  const request = (incremental: boolean) => {
    const b = Buffer.alloc(10);
    b[0] = 3;
    b[1] = incremental ? 1 : 0;
    b.writeUInt16BE(width, 6);
    b.writeUInt16BE(height, 8);
    send(b);
  };
  const key = (keysym: number) => {
    for (const down of [1, 0]) {
      const b = Buffer.alloc(8);
      b[0] = 4;
      b[1] = down;
      b.writeUInt32BE(keysym, 4);
      send(b);
    }
  };
  const next = async (): Promise<number> => {
    const type = (await queue.read(1))[0];
    if (type === 0) {
      const rects = (await queue.read(3)).readUInt16BE(1);
      for (let i = 0; i < rects; i++) {
        const h = await queue.read(12);
        const encoding = h.readInt32BE(8);
        const w = h.readUInt16BE(4);
        const hh = h.readUInt16BE(6);
        if (encoding === 0) await queue.read(w * hh * 4);
        else if (encoding === -223 || encoding === -224) continue;
        else throw new Error(`unexpected encoding ${encoding}`);
      }
      return rects;
    }
    if (type === 2) return -1; // Bell
    if (type === 3) {
      const len = (await queue.read(7)).readUInt32BE(3);
      await queue.read(len);
      return -1;
    }
    throw new Error(`unexpected server message ${type}`);
  };
  const pointer = (x: number, y: number) => {
    const b = Buffer.alloc(6);
    b[0] = 5;
    b.writeUInt16BE(x, 2);
    b.writeUInt16BE(y, 4);
    send(b);
  };
  const asNoVnc = () => {
    queue.discard();
    // noVNC 1.7's list, best first: Tight, ZRLE, Hextile, RRE, CopyRect, Raw, then pseudo-encodings.
    const encodings = [7, 16, 5, 2, 1, 0, -223, -224, -239, -308];
    const b = Buffer.alloc(4 + 4 * encodings.length);
    b[0] = 2;
    b.writeUInt16BE(encodings.length, 2);
    for (const [i, e] of encodings.entries()) b.writeInt32BE(e, 4 + 4 * i);
    send(b);
  };
  return { width, height, key, pointer, request, next, asNoVnc, close: () => ws.close() };
}
