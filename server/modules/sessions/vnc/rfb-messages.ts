import { text } from '../../../lib/i18n.ts';

/*
 * The RFB messages after both handshakes (RFC 6143 §7.5, §7.6), parsed incrementally in both directions so that the
 * bastion knows where every message starts and ends: the recording keeps whole messages and its own copy of the
 * screen, the clipboard follows the session's copy / paste flags, the browser's encodings are cut down to those the
 * bastion can parse (stateless ones: a recording can then be played from any keyframe), and a watcher's input is
 * dropped. Anything the parser does not know ends the session (an RfbStreamError) instead of desynchronising it.
 *
 * A parser is a generator that asks for exact byte counts (`yield n` gives back n bytes); `Feeder` serves it from the
 * chunks as they arrive. Every read is bounded (a Raw rectangle is read a row at a time, a cut text in pieces), so a
 * peer can never make the bastion buffer more than one row or one piece beyond what it forwards.
 */

/** Client cut text and server cut text above this are dropped whole (never buffered). */
export const MAX_CUT_TEXT = 1024 * 1024;
/** A dropped cut text is skipped in pieces of this size. */
const SKIP_PIECE = 64 * 1024;

export const ENC_RAW = 0;
export const ENC_COPYRECT = 1;
export const ENC_RRE = 2;
export const ENC_HEXTILE = 5;
export const ENC_DESKTOP_SIZE = -223;
export const ENC_LAST_RECT = -224;
export const ENC_CURSOR = -239;
export const ENC_EXTENDED_DESKTOP_SIZE = -308;
/** What the bastion lets the browser ask for: the four stateless encodings and the pseudo-encodings it parses. */
export const ALLOWED_ENCODINGS: ReadonlySet<number> = new Set([
  ENC_RAW,
  ENC_COPYRECT,
  ENC_RRE,
  ENC_HEXTILE,
  ENC_DESKTOP_SIZE,
  ENC_LAST_RECT,
  ENC_CURSOR,
  ENC_EXTENDED_DESKTOP_SIZE,
]);

export const MSG_TARGET_STREAM = text('VNC 服务器发送了无法解析的数据，会话已结束', 'The VNC server sent data the bastion cannot parse; the session ended');
export const MSG_BROWSER_STREAM = text('浏览器发送了无效的 VNC 数据，会话已结束', "The browser's VNC client sent invalid data; the session ended");

/** A message the parser cannot follow: `message` is the fixed sentence (user-facing), `detail` for the log. */
export class RfbStreamError extends Error {
  constructor(
    readonly side: 'target' | 'browser',
    readonly detail: string,
  ) {
    super(side === 'target' ? MSG_TARGET_STREAM : MSG_BROWSER_STREAM);
  }
}

type Parser = Generator<number, void, Buffer>;
const EMPTY = Buffer.alloc(0);

/** Serves a parser the exact byte counts it asks for, from chunks as they arrive. */
class Feeder {
  private chunks: Buffer[] = [];
  private avail = 0;
  private need: number;

  constructor(private readonly parser: Parser) {
    const first = parser.next(EMPTY);
    this.need = first.done ? Number.POSITIVE_INFINITY : first.value;
  }

  push(chunk: Buffer): void {
    if (chunk.length > 0) {
      this.chunks.push(chunk);
      this.avail += chunk.length;
    }
    while (this.avail >= this.need) {
      const next = this.parser.next(this.take(this.need));
      this.need = next.done ? Number.POSITIVE_INFINITY : next.value;
    }
  }

  private take(n: number): Buffer {
    if (n === 0) return EMPTY;
    this.avail -= n;
    const first = this.chunks[0] as Buffer;
    if (first.length >= n) {
      if (first.length === n) this.chunks.shift();
      else this.chunks[0] = first.subarray(n);
      return first.subarray(0, n);
    }
    const parts: Buffer[] = [];
    let left = n;
    while (left > 0) {
      const c = this.chunks[0] as Buffer;
      if (c.length <= left) {
        parts.push(c);
        this.chunks.shift();
        left -= c.length;
      } else {
        parts.push(c.subarray(0, left));
        this.chunks[0] = c.subarray(left);
        left = 0;
      }
    }
    return Buffer.concat(parts, n);
  }
}

/** What the recorder keeps of the screen (rfb-recording.ts): told of every rectangle the target draws. */
export interface ScreenSink {
  /** The pixel size in bytes changed (a SetPixelFormat). */
  pixelBytes(bpp: number): void;
  resize(width: number, height: number): void;
  /** One row of pixels at (x, y), `bytes` of `w` pixels. */
  row(x: number, y: number, w: number, bytes: Buffer): void;
  fill(x: number, y: number, w: number, h: number, pixel: Buffer): void;
  copy(sx: number, sy: number, x: number, y: number, w: number, h: number): void;
}

export interface ServerStreamOptions {
  /** Bytes per pixel of the pixel format in effect (the ServerInit's, then the browser's SetPixelFormat). */
  pixelBytes: number;
  /** The session's `copy` flag: false drops the target's ServerCutText. */
  copy: boolean;
  /** Bytes to send on, in order (called once per pushed chunk at most). */
  forward(bytes: Buffer): void;
  /** Whole messages as forwarded (for the recording); only when given. */
  message?(bytes: Buffer, kind: number): void;
  screen?: ScreenSink;
}

/** The target → browser stream. */
export class ServerStream {
  private readonly feeder: Feeder;
  private bpp: number;
  private out: Buffer[] = [];
  private current: Buffer[] = [];

  constructor(private readonly options: ServerStreamOptions) {
    this.bpp = options.pixelBytes;
    this.feeder = new Feeder(this.run());
  }

  /** The browser's SetPixelFormat has been sent to the target: updates from now on use it. */
  setPixelBytes(bpp: number): void {
    this.bpp = bpp;
    this.options.screen?.pixelBytes(bpp);
  }

  /** Parses and forwards a chunk; throws an RfbStreamError when the stream breaks the protocol. */
  push(chunk: Buffer): void {
    try {
      this.feeder.push(chunk);
    } finally {
      if (this.out.length > 0) {
        const bytes = this.out.length === 1 ? (this.out[0] as Buffer) : Buffer.concat(this.out);
        this.out = [];
        this.options.forward(bytes);
      }
    }
  }

  private pass(b: Buffer): void {
    if (b.length === 0) return;
    this.out.push(b);
    if (this.options.message) this.current.push(b);
  }

  private end(kind: number): void {
    if (!this.options.message) return;
    const whole = this.current.length === 1 ? (this.current[0] as Buffer) : Buffer.concat(this.current);
    this.current = [];
    this.options.message(whole, kind);
  }

  private *read(n: number): Generator<number, Buffer, Buffer> {
    const b = yield n;
    this.pass(b);
    return b;
  }

  private *run(): Parser {
    for (;;) {
      const type = (yield 1)[0] as number;
      if (type === 3) {
        // ServerCutText: held until its length is known, then forwarded whole or dropped whole.
        const head = yield 7;
        const length = head.readUInt32BE(3);
        if (!this.options.copy || length > MAX_CUT_TEXT) {
          for (let left = length; left > 0; left -= SKIP_PIECE) yield Math.min(left, SKIP_PIECE);
          continue;
        }
        this.pass(Buffer.of(3));
        this.pass(head);
        yield* this.read(length);
        this.end(3);
        continue;
      }
      this.pass(Buffer.of(type));
      switch (type) {
        case 0:
          yield* this.update();
          break;
        case 1: {
          // SetColourMapEntries: padding, first colour, count, then 6 bytes a colour.
          const head = yield* this.read(5);
          yield* this.read(head.readUInt16BE(3) * 6);
          break;
        }
        case 2: // Bell
          break;
        default:
          throw new RfbStreamError('target', `unknown server message type ${type}`);
      }
      this.end(type);
    }
  }

  /** A FramebufferUpdate after its type byte. */
  private *update(): Generator<number, void, Buffer> {
    const head = yield* this.read(3);
    const count = head.readUInt16BE(1);
    const screen = this.options.screen;
    for (let i = 0; i < count; i++) {
      const r = yield* this.read(12);
      const x = r.readUInt16BE(0);
      const y = r.readUInt16BE(2);
      const w = r.readUInt16BE(4);
      const h = r.readUInt16BE(6);
      const encoding = r.readInt32BE(8);
      const bpp = this.bpp;
      switch (encoding) {
        case ENC_RAW:
          if (w === 0) break;
          for (let row = 0; row < h; row++) {
            // Read first: `screen?.row(…, yield* …)` would skip the read itself when there is no screen (a watcher, an
            // unrecorded session), and the stream would lose its place.
            const pixels = yield* this.read(w * bpp);
            screen?.row(x, y + row, w, pixels);
          }
          break;
        case ENC_COPYRECT: {
          const src = yield* this.read(4);
          screen?.copy(src.readUInt16BE(0), src.readUInt16BE(2), x, y, w, h);
          break;
        }
        case ENC_RRE: {
          const rh = yield* this.read(4 + bpp);
          const n = rh.readUInt32BE(0);
          screen?.fill(x, y, w, h, rh.subarray(4));
          for (let s = 0; s < n; s++) {
            const sr = yield* this.read(bpp + 8);
            const at = sr.subarray(bpp);
            screen?.fill(x + at.readUInt16BE(0), y + at.readUInt16BE(2), at.readUInt16BE(4), at.readUInt16BE(6), sr.subarray(0, bpp));
          }
          break;
        }
        case ENC_HEXTILE:
          yield* this.hextile(x, y, w, h, bpp);
          break;
        case ENC_DESKTOP_SIZE:
          screen?.resize(w, h);
          break;
        case ENC_LAST_RECT:
          return;
        case ENC_CURSOR:
          // The cursor's pixels, a row at a time, then its mask: shown by the browser, not part of the screen.
          if (w > 0) for (let row = 0; row < h; row++) yield* this.read(w * bpp);
          yield* this.read(((w + 7) >> 3) * h);
          break;
        case ENC_EXTENDED_DESKTOP_SIZE: {
          const n = (yield* this.read(4))[0] as number;
          yield* this.read(n * 16);
          screen?.resize(w, h);
          break;
        }
        default:
          throw new RfbStreamError('target', `rectangle in encoding ${encoding}, which was not asked for`);
      }
    }
  }

  private *hextile(x: number, y: number, w: number, h: number, bpp: number): Generator<number, void, Buffer> {
    const screen = this.options.screen;
    let bg: Buffer = Buffer.alloc(bpp);
    let fg: Buffer = Buffer.alloc(bpp);
    for (let ty = y; ty < y + h; ty += 16) {
      const th = Math.min(16, y + h - ty);
      for (let tx = x; tx < x + w; tx += 16) {
        const tw = Math.min(16, x + w - tx);
        const sub = (yield* this.read(1))[0] as number;
        if (sub & 1) {
          const raw = yield* this.read(tw * th * bpp);
          if (screen) for (let row = 0; row < th; row++) screen.row(tx, ty + row, tw, raw.subarray(row * tw * bpp, (row + 1) * tw * bpp));
          continue;
        }
        if (sub & 2) bg = Buffer.from(yield* this.read(bpp));
        if (sub & 4) fg = Buffer.from(yield* this.read(bpp));
        screen?.fill(tx, ty, tw, th, bg);
        if (!(sub & 8)) continue;
        const n = (yield* this.read(1))[0] as number;
        const coloured = (sub & 16) !== 0;
        const subs = yield* this.read(n * (coloured ? bpp + 2 : 2));
        if (!screen) continue;
        const size = coloured ? bpp + 2 : 2;
        for (let s = 0; s < n; s++) {
          const at = s * size;
          const pixel = coloured ? subs.subarray(at, at + bpp) : fg;
          const xy = subs[at + size - 2] as number;
          const wh = subs[at + size - 1] as number;
          screen.fill(tx + (xy >> 4), ty + (xy & 15), (wh >> 4) + 1, (wh & 15) + 1, pixel);
        }
      }
    }
  }
}

export interface ClientStreamOptions {
  /** The session's `paste` flag: false drops the browser's ClientCutText. */
  paste: boolean;
  /** A watcher: only SetPixelFormat, SetEncodings and FramebufferUpdateRequest go through. */
  watchOnly?: boolean;
  /** One whole message to send to the target. */
  forward(bytes: Buffer): void;
  /** The browser's SetPixelFormat (its 16-byte PIXEL_FORMAT), before the message is forwarded. */
  pixelFormat?(format: Buffer): void;
}

/** SetEncodings with only the allowed encodings, in the browser's order. */
export function rewriteEncodings(asked: readonly number[]): Buffer {
  const kept = asked.filter((e, i) => ALLOWED_ENCODINGS.has(e) && asked.indexOf(e) === i);
  const out = Buffer.alloc(4 + 4 * kept.length);
  out.writeUInt8(2, 0);
  out.writeUInt16BE(kept.length, 2);
  for (const [i, e] of kept.entries()) out.writeInt32BE(e, 4 + 4 * i);
  return out;
}

/** The browser → target stream: every message whole, rewritten or dropped as the session's rules say. */
export class ClientStream {
  private readonly feeder: Feeder;

  constructor(private readonly options: ClientStreamOptions) {
    this.feeder = new Feeder(this.run());
  }

  /** Parses a chunk; throws an RfbStreamError when the browser breaks the protocol. */
  push(chunk: Buffer): void {
    this.feeder.push(chunk);
  }

  private *run(): Parser {
    const { options } = this;
    const user = !options.watchOnly;
    for (;;) {
      const type = (yield 1)[0] as number;
      switch (type) {
        case 0: {
          const body = yield 19;
          const format = Buffer.from(body.subarray(3, 19));
          const bits = format[0] as number;
          if (![8, 16, 32].includes(bits)) throw new RfbStreamError('browser', `SetPixelFormat with ${bits} bits per pixel`);
          options.pixelFormat?.(format);
          options.forward(Buffer.concat([Buffer.of(0), body]));
          break;
        }
        case 2: {
          const head = yield 3;
          const list = yield head.readUInt16BE(1) * 4;
          const asked: number[] = [];
          for (let i = 0; i < list.length; i += 4) asked.push(list.readInt32BE(i));
          options.forward(rewriteEncodings(asked));
          break;
        }
        case 3:
          options.forward(Buffer.concat([Buffer.of(3), yield 9]));
          break;
        case 4: {
          const body = yield 7;
          if (user) options.forward(Buffer.concat([Buffer.of(4), body]));
          break;
        }
        case 5: {
          const body = yield 5;
          if (user) options.forward(Buffer.concat([Buffer.of(5), body]));
          break;
        }
        case 6: {
          const head = yield 7;
          const length = head.readUInt32BE(3);
          if (!user || !options.paste || length > MAX_CUT_TEXT) {
            for (let left = length; left > 0; left -= SKIP_PIECE) yield Math.min(left, SKIP_PIECE);
            break;
          }
          options.forward(Buffer.concat([Buffer.of(6), head, yield length]));
          break;
        }
        case 251: {
          // SetDesktopSize (ExtendedDesktopSize): padding, width, height, screen count, padding, 16 bytes a screen.
          const head = yield 7;
          const screens = yield (head[5] as number) * 16;
          if (user) options.forward(Buffer.concat([Buffer.of(251), head, screens]));
          break;
        }
        default:
          throw new RfbStreamError('browser', `unknown client message type ${type}`);
      }
    }
  }
}
