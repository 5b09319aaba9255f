import { deflate } from 'node:zlib';
import type { Recording } from '../recording.ts';
import type { ScreenSink } from './rfb-messages.ts';

/*
 * A desktop's recording, `recording.rfb` (the wire contract, shared with the console's player): a JSON header line,
 * then records `[u8 type][u32 BE ms since start][u32 BE length][bytes]` — 0: whole server messages as the browser got
 * them, 1: the pixel format from then on, 2: a keyframe `[u16 width][u16 height][zlib of width*height*4 bytes]`. The
 * records go through the core's Recording (recording.ts: batching, back-pressure, the failure policy).
 *
 * Keyframes: the recorder keeps its own 32-bpp copy of the screen (Screen, fed by the stream parser) and writes one
 * after the first whole update, then every KEYFRAME_MS of session time in which the screen changed. Deflating runs on
 * the thread pool (zlib's async deflate); records that come meanwhile wait in memory behind it so the file keeps its
 * order, and the relay never waits for it. Only while the pixel format is 32 bpp (noVNC's): in another format there
 * are no keyframes and a player replays from the start.
 */

export const KEYFRAME_MS = 30_000;
export const RECORD_OUTPUT = 0;
export const RECORD_PIXEL_FORMAT = 1;
export const RECORD_KEYFRAME = 2;
/** A screen larger than this (in pixels) is not copied: no keyframes (16384 × 16384 would be 1 GiB). */
const MAX_SCREEN_PIXELS = 8192 * 8192;

export interface RfbHeaderInit {
  width: number;
  height: number;
  name: string;
  raw: Buffer;
}

/** The header line (with its `\n`). Never anything but the ServerInit: no password, no challenge. */
export function rfbRecordingHeader(init: RfbHeaderInit, started: Date): string {
  return `${JSON.stringify({ version: 1, kind: 'rfb', width: init.width, height: init.height, name: init.name, serverInit: init.raw.toString('base64'), started: started.toISOString() })}\n`;
}

/** The recorder's copy of the screen: 4 bytes a pixel, as the pixel format in effect lays them out. */
export class Screen implements ScreenSink {
  pixels: Buffer;
  /** False while the pixel format is not 32 bpp (or the screen is too large): nothing is kept. */
  active: boolean;
  changed = false;
  private bpp: number;

  constructor(
    public width: number,
    public height: number,
    bpp: number,
  ) {
    this.bpp = bpp;
    this.active = bpp === 4 && width * height <= MAX_SCREEN_PIXELS;
    this.pixels = Buffer.alloc(this.active ? width * height * 4 : 0);
  }

  pixelBytes(bpp: number): void {
    this.bpp = bpp;
    this.active = bpp === 4 && this.width * this.height <= MAX_SCREEN_PIXELS;
    this.pixels = Buffer.alloc(this.active ? this.width * this.height * 4 : 0);
  }

  resize(width: number, height: number): void {
    this.width = width;
    this.height = height;
    this.pixelBytes(this.bpp);
    this.changed = true;
  }

  /** The part of a rectangle inside the screen. */
  private clip(x: number, y: number, w: number, h: number): [number, number] {
    return [Math.max(0, Math.min(w, this.width - x)), Math.max(0, Math.min(h, this.height - y))];
  }

  row(x: number, y: number, w: number, bytes: Buffer): void {
    if (!this.active || y >= this.height) return;
    const [cw] = this.clip(x, y, w, 1);
    bytes.copy(this.pixels, (y * this.width + x) * 4, 0, cw * 4);
    this.changed = true;
  }

  fill(x: number, y: number, w: number, h: number, pixel: Buffer): void {
    if (!this.active) return;
    const [cw, ch] = this.clip(x, y, w, h);
    if (cw === 0 || ch === 0) return;
    const start = (y * this.width + x) * 4;
    const first = this.pixels.subarray(start, start + cw * 4);
    for (let i = 0; i < cw; i++) pixel.copy(first, i * 4, 0, 4);
    for (let r = 1; r < ch; r++) first.copy(this.pixels, start + r * this.width * 4);
    this.changed = true;
  }

  copy(sx: number, sy: number, x: number, y: number, w: number, h: number): void {
    if (!this.active) return;
    const [cw, ch] = this.clip(Math.max(x, sx), Math.max(y, sy), w, h);
    if (cw === 0 || ch === 0) return;
    // Row order that never reads a row already overwritten (overlapping source and destination).
    const rows = [...Array(ch).keys()];
    if (y > sy) rows.reverse();
    for (const r of rows) {
      const from = ((sy + r) * this.width + sx) * 4;
      this.pixels.copyWithin(((y + r) * this.width + x) * 4, from, from + cw * 4);
    }
    this.changed = true;
  }
}

/** Writes a desktop session's records (type 0, 1, 2) into its Recording, keyframes included. */
export class RfbRecorder {
  readonly screen: Screen;
  private lastKeyframe = Number.NEGATIVE_INFINITY;
  private updates = 0;
  /** Records waiting behind a keyframe being deflated (the file keeps the session's order). */
  private waiting: Buffer[] | undefined;

  constructor(
    private readonly recording: Recording,
    init: { width: number; height: number; bpp: number },
  ) {
    this.screen = new Screen(init.width, init.height, init.bpp);
  }

  private put(type: number, body: Buffer, at = performance.now()): void {
    const head = Buffer.alloc(9);
    head.writeUInt8(type, 0);
    head.writeUInt32BE(this.recording.offsetMs(at), 1);
    head.writeUInt32BE(body.length, 5);
    const record = Buffer.concat([head, body]);
    if (this.waiting) this.waiting.push(record);
    else this.recording.record(record);
  }

  /** A whole server message as the browser got it (kind: its type). */
  message(bytes: Buffer, kind: number): void {
    this.put(RECORD_OUTPUT, bytes);
    if (kind !== 0) return;
    this.updates++;
    const now = performance.now();
    const due = this.updates === 1 || (now - this.lastKeyframe >= KEYFRAME_MS && this.screen.changed);
    if (due && this.screen.active && !this.waiting) this.keyframe(now);
  }

  /** The browser's SetPixelFormat (16 bytes): in effect for what follows. */
  pixelFormat(format: Buffer): void {
    this.put(RECORD_PIXEL_FORMAT, format);
  }

  private keyframe(now: number): void {
    const { width, height } = this.screen;
    const at = this.recording.offsetMs(now);
    this.lastKeyframe = now;
    this.screen.changed = false;
    const pixels = Buffer.from(this.screen.pixels);
    this.waiting = [];
    deflate(pixels, (err, packed) => {
      const queued = this.waiting ?? [];
      this.waiting = undefined;
      if (!err) {
        const head = Buffer.alloc(13);
        head.writeUInt8(RECORD_KEYFRAME, 0);
        head.writeUInt32BE(at, 1);
        head.writeUInt32BE(4 + packed.length, 5);
        head.writeUInt16BE(width, 9);
        head.writeUInt16BE(height, 11);
        this.recording.record(Buffer.concat([head, packed]));
      }
      for (const r of queued) this.recording.record(r);
    });
  }

  /** Waits for a keyframe being deflated, then ends the recording. */
  async end(): Promise<void> {
    while (this.waiting) await new Promise((resolve) => setTimeout(resolve, 5));
    await this.recording.end();
  }
}
