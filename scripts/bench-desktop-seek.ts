/**
 * Seek time of the desktop player (plugins/desktop/components/player.ts, `#/guacd-playback`) on a generated one-hour
 * recording (issue 31's goal, the terminal player's: seek anywhere in an hour in p95 ≤ 200 ms), in Chromium against
 * the production build and a real server.
 *
 * The recording (`recording.rfb`, docs/SERVER.md) is made here as the recorder would write it: 1024x768, a header
 * with a ServerInit in noVNC's pixel format (32 bpp little-endian true colour), a type-1 record of that format, then
 * type-0 FramebufferUpdates: a full-screen Raw desktop at the start and every 5 minutes, a terminal-like window whose
 * lines change twice a second in Hextile (a screenful every 10 s), a 480x360 Raw dialog every 45 s, a 256x192
 * photo-like (incompressible) picture every 2 minutes; and a type-2 keyframe (zlib of the whole screen the generator
 * keeps) after the first update and then every 30 s. The same records without the keyframes make the contrast file.
 *
 * A real VNC session is made through the API to a real Xvnc (attached briefly over `/sessions/:id/vnc`, so it is a
 * real session with a real recording folder, then ended); its `recording.rfb` is replaced by the generated file. The
 * page opens it logged in as the admin, waits for the first picture, pauses, then sets the seek slider (as a drag does:
 * the range input's value and an `input` event) to 60 random moments and to the last minute. A seek is timed from the
 * input to the moment the screen region's `aria-busy` goes back to false (the player handed the viewer the screen of
 * that moment: keyframe and records after it) and one animation frame after (the canvas painted).
 *
 * Run: npm run bench:desktop-seek [-- --seeks 60 --contrast-seeks 60]
 *   Needs the console built (`npx vite build`), Chromium (/usr/bin/chromium), Xvnc (tigervnc-standalone-server).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { chromium, type Page } from 'playwright-core';
import { startXvnc } from '../tests/server/sessions/vnc/xvnc.ts';
import { api } from './bench/api.ts';
import { flag } from './bench/args.ts';
import { rfbConnect } from './bench/rfb-client.ts';
import { percentile, startBenchServer } from './bench/server.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.ts';

const PASSWORD = 'Bench-Admin-Pass-1';
const VNC_PASSWORD = 'bench-vnc';
const W = 1024;
const H = 768;
const HOUR_MS = 3_600_000;
const TICK_MS = 500;
const KEYFRAME_MS = 30_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------------------------
// The recording

/** noVNC's pixel format: 32 bpp, depth 24, little-endian, true colour, 8 bits a channel, red at 0, green 8, blue 16. */
function pixelFormat(): Buffer {
  const f = Buffer.alloc(16);
  f.set([32, 24, 0, 1], 0);
  f.writeUInt16BE(255, 4);
  f.writeUInt16BE(255, 6);
  f.writeUInt16BE(255, 8);
  f.set([0, 8, 16], 10);
  return f;
}

function serverInit(name: string): Buffer {
  const n = Buffer.from(name, 'utf8');
  const b = Buffer.alloc(24 + n.length);
  b.writeUInt16BE(W, 0);
  b.writeUInt16BE(H, 2);
  pixelFormat().copy(b, 4);
  b.writeUInt32BE(n.length, 20);
  n.copy(b, 24);
  return b;
}

type Rgb = readonly [number, number, number];

/** A deterministic generator (the same file every run). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}

/** The screen as the recorder keeps it: RGBX bytes (noVNC's format in memory). */
class Screen {
  readonly px = new Uint8Array(W * H * 4);

  fill(x: number, y: number, w: number, h: number, [r, g, b]: Rgb): void {
    for (let row = y; row < y + h; row++) {
      let at = (row * W + x) * 4;
      for (let col = 0; col < w; col++, at += 4) {
        this.px[at] = r;
        this.px[at + 1] = g;
        this.px[at + 2] = b;
        this.px[at + 3] = 0;
      }
    }
  }

  /** The rectangle's pixels, row after row (a Raw rectangle's body). */
  copy(x: number, y: number, w: number, h: number): Buffer {
    const out = Buffer.alloc(w * h * 4);
    for (let row = 0; row < h; row++) out.set(this.px.subarray(((y + row) * W + x) * 4, ((y + row) * W + x + w) * 4), row * w * 4);
    return out;
  }
}

const rectHead = (x: number, y: number, w: number, h: number, encoding: number): Buffer => {
  const b = Buffer.alloc(12);
  b.writeUInt16BE(x, 0);
  b.writeUInt16BE(y, 2);
  b.writeUInt16BE(w, 4);
  b.writeUInt16BE(h, 6);
  b.writeInt32BE(encoding, 8);
  return b;
};

/** A FramebufferUpdate of the given rectangles (each: its 12-byte head and body). */
const update = (rects: Buffer[][]): Buffer => {
  const head = Buffer.alloc(4);
  head.writeUInt16BE(rects.length, 2);
  return Buffer.concat([head, ...rects.flat()]);
};

const pixel = ([r, g, b]: Rgb) => Buffer.from([r, g, b, 0]);

/** One Raw rectangle of what `paint` drew on the screen there. */
function raw(screen: Screen, x: number, y: number, w: number, h: number, paint: () => void): Buffer[] {
  paint();
  return [rectHead(x, y, w, h, 0), screen.copy(x, y, w, h)];
}

const TERM = { x: 16, y: 16, cols: 80, rows: 40 } as const;
const TERM_BG: Rgb = [0x1e, 0x1e, 0x1e];
const TERM_FG: Rgb[] = [
  [0xd0, 0xd0, 0xd0],
  [0x4e, 0xc9, 0x4e],
  [0x5c, 0x9c, 0xf5],
];

/**
 * Terminal line `row` redrawn with `chars` characters of text, in Hextile (5): 16x16 tiles, each with its background,
 * its foreground and a subrectangle per stroke of its two 8x16 character cells (what Xvnc sends for text).
 */
function terminalLine(screen: Screen, random: () => number, row: number, chars: number): Buffer[] {
  const x0 = TERM.x;
  const y0 = TERM.y + row * 16;
  const fg = TERM_FG[Math.floor(random() * TERM_FG.length)] as Rgb;
  screen.fill(x0, y0, TERM.cols * 8, 16, TERM_BG);
  const body: Buffer[] = [];
  for (let tile = 0; tile < TERM.cols / 2; tile++) {
    const subrects: number[] = [];
    for (let cell = 0; cell < 2; cell++) {
      const col = tile * 2 + cell;
      if (col >= chars || random() < 0.15) continue; // a space
      const strokes = 2 + Math.floor(random() * 3);
      for (let s = 0; s < strokes; s++) {
        const vertical = random() < 0.5;
        const sx = cell * 8 + 1 + Math.floor(random() * (vertical ? 6 : 2));
        const sy = 3 + Math.floor(random() * (vertical ? 3 : 9));
        const sw = vertical ? 1 : 3 + Math.floor(random() * 3);
        const sh = vertical ? 6 + Math.floor(random() * 4) : 1;
        subrects.push(sx, sy, sw, sh);
        screen.fill(x0 + tile * 16 + sx, y0 + sy, sw, sh, fg);
      }
    }
    if (subrects.length === 0) {
      body.push(Buffer.from([2]), pixel(TERM_BG)); // background only
      continue;
    }
    const t = Buffer.alloc(1 + 4 + 4 + 1 + (subrects.length / 4) * 2);
    t[0] = 2 | 4 | 8; // BackgroundSpecified | ForegroundSpecified | AnyRects
    pixel(TERM_BG).copy(t, 1);
    pixel(fg).copy(t, 5);
    t[9] = subrects.length / 4;
    for (let i = 0; i < subrects.length; i += 4) {
      const [sx, sy, sw, sh] = subrects.slice(i, i + 4) as [number, number, number, number];
      t[10 + (i / 4) * 2] = (sx << 4) | sy;
      t[11 + (i / 4) * 2] = ((sw - 1) << 4) | (sh - 1);
    }
    body.push(t);
  }
  return [rectHead(x0, y0, TERM.cols * 8, 16, 5), Buffer.concat(body)];
}

/** The desktop behind the windows: a smooth gradient. */
function wallpaper(screen: Screen, shade: number): void {
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const at = (y * W + x) * 4;
      screen.px[at] = (40 + ((x * 60) >> 10) + shade) & 0xff;
      screen.px[at + 1] = (70 + ((y * 80) / H) | 0) & 0xff;
      screen.px[at + 2] = (120 + (((x + y) * 70) >> 11)) & 0xff;
      screen.px[at + 3] = 0;
    }
  }
}

/** A window: title bar, light body, lines of dark "text" blocks. */
function dialog(screen: Screen, random: () => number, x: number, y: number, w: number, h: number): void {
  screen.fill(x, y, w, h, [0xf3, 0xf3, 0xf3]);
  screen.fill(x, y, w, 24, [0x2b, 0x57, 0x9a]);
  for (let line = 40; line < h - 12; line += 18) {
    let cx = x + 12;
    while (cx < x + w - 40) {
      const word = 12 + Math.floor(random() * 48);
      screen.fill(cx, y + line, Math.min(word, x + w - 12 - cx), 8, [0x33, 0x33, 0x33]);
      cx += word + 8;
    }
  }
}

/** A photo-like picture (noise: what zlib cannot shrink). */
function photo(screen: Screen, random: () => number, x: number, y: number, w: number, h: number): void {
  for (let row = y; row < y + h; row++) {
    for (let col = x; col < x + w; col++) {
      const at = (row * W + col) * 4;
      const v = (random() * 2 ** 24) | 0;
      screen.px[at] = v & 0xff;
      screen.px[at + 1] = (v >> 8) & 0xff;
      screen.px[at + 2] = (v >> 16) & 0xff;
      screen.px[at + 3] = 0;
    }
  }
}

/** Appends records to files; `keyframes: false` files leave out type 2. */
class RecordingWriter {
  private readonly files: { fd: number; keyframes: boolean; chunks: Buffer[]; size: number }[];

  constructor(paths: { path: string; keyframes: boolean }[], header: string) {
    this.files = paths.map((p) => ({ fd: fs.openSync(p.path, 'w', 0o600), keyframes: p.keyframes, chunks: [], size: 0 }));
    for (const f of this.files) fs.writeSync(f.fd, `${header}\n`);
  }

  record(type: number, ms: number, data: Buffer): void {
    const head = Buffer.alloc(9);
    head.writeUInt8(type, 0);
    head.writeUInt32BE(ms, 1);
    head.writeUInt32BE(data.length, 5);
    for (const f of this.files) {
      if (type === 2 && !f.keyframes) continue;
      f.chunks.push(head, data);
      f.size += 9 + data.length;
      if (f.size > 8 * 1024 * 1024) this.flush(f);
    }
  }

  close(): void {
    for (const f of this.files) {
      this.flush(f);
      fs.closeSync(f.fd);
    }
  }

  private flush(f: (typeof this.files)[number]): void {
    fs.writeSync(f.fd, Buffer.concat(f.chunks));
    f.chunks = [];
    f.size = 0;
  }
}

interface Generated {
  records: number;
  updates: number;
  keyframes: number;
  keyframeBytes: number;
  /** The time of the last record: the player's duration. */
  lastMs: number;
  /** The screen at {@link LAST_MINUTE_MS}, every {@link SAMPLE_EVERY}th pixel's RGB (what the canvas must show then). */
  sample: number[];
}

/** The last-minute seek's target, and how the screen there is checked. */
const LAST_MINUTE_MS = HOUR_MS - 30_000;
const SAMPLE_EVERY = 97;

/** Writes the hour to `withKeyframes` and, the same without type 2, to `withoutKeyframes`. */
function generate(withKeyframes: string, withoutKeyframes: string): Generated {
  const random = rng(31);
  const screen = new Screen();
  const header = JSON.stringify({
    version: 1,
    kind: 'rfb',
    width: W,
    height: H,
    name: 'bench-desktop',
    serverInit: serverInit('bench-desktop').toString('base64'),
    started: '2026-11-28T08:00:00.000Z',
  });
  const out = new RecordingWriter(
    [
      { path: withKeyframes, keyframes: true },
      { path: withoutKeyframes, keyframes: false },
    ],
    header,
  );
  const stats: Generated = { records: 0, updates: 0, keyframes: 0, keyframeBytes: 0, lastMs: 0, sample: [] };
  let lastKeyframe = Number.NEGATIVE_INFINITY;
  const keyframe = (ms: number) => {
    const z = deflateSync(screen.px);
    const body = Buffer.alloc(4 + z.length);
    body.writeUInt16BE(W, 0);
    body.writeUInt16BE(H, 2);
    z.copy(body, 4);
    out.record(2, ms, body);
    stats.keyframes++;
    stats.keyframeBytes += body.length;
    lastKeyframe = ms;
  };
  /** The whole desktop: wallpaper, the picture, the terminal window (all its lines). */
  const fullScreen = (shade: number) =>
    raw(screen, 0, 0, W, H, () => {
      wallpaper(screen, shade);
      photo(screen, random, 700, 540, 256, 192);
      screen.fill(TERM.x - 2, TERM.y - 2, TERM.cols * 8 + 4, TERM.rows * 16 + 4, [0x55, 0x55, 0x55]);
      for (let row = 0; row < TERM.rows; row++) terminalLine(screen, random, row, Math.floor(random() * TERM.cols));
    });

  out.record(1, 0, pixelFormat());
  for (let ms = 0; ms < HOUR_MS; ms += TICK_MS) {
    const at = ms + Math.floor(random() * 40); // the update's arrival
    if (at > LAST_MINUTE_MS && stats.sample.length === 0) {
      for (let i = 0; i < W * H; i += SAMPLE_EVERY) stats.sample.push(screen.px[i * 4] as number, screen.px[i * 4 + 1] as number, screen.px[i * 4 + 2] as number);
    }
    const rects: Buffer[][] = [];
    if (ms % 300_000 === 0) rects.push(fullScreen(ms / 300_000));
    else if (ms % 10_000 === 0) {
      // A screenful: `ls -l` in the terminal.
      for (let row = 0; row < TERM.rows; row++) rects.push(terminalLine(screen, random, row, 20 + Math.floor(random() * 60)));
    } else {
      // `top`-like: the clock line and a few changed lines.
      rects.push(terminalLine(screen, random, 0, 70));
      const lines = 2 + Math.floor(random() * 4);
      for (let i = 0; i < lines; i++) rects.push(terminalLine(screen, random, 6 + Math.floor(random() * (TERM.rows - 6)), 30 + Math.floor(random() * 50)));
    }
    if (ms % 45_000 === 22_500) {
      const x = 400 + Math.floor(random() * 100);
      const y = 100 + Math.floor(random() * 200);
      rects.push(raw(screen, x, y, 480, 360, () => dialog(screen, random, x, y, 480, 360)));
    }
    if (ms % 120_000 === 60_000) rects.push(raw(screen, 700, 540, 256, 192, () => photo(screen, random, 700, 540, 256, 192)));
    out.record(0, at, update(rects));
    stats.updates++;
    stats.lastMs = at;
    // The recorder's rule: one after the first update, then every KEYFRAME_MS in which the screen changed.
    if (at - lastKeyframe >= KEYFRAME_MS) keyframe(at);
  }
  out.close();
  stats.records = 1 + stats.updates + stats.keyframes;
  return stats;
}

// ---------------------------------------------------------------------------------------------------------------
// The page

interface Loaded {
  loadMs: number;
}

/** Opens the player; ms from navigation to the first picture (the screen no longer busy, a frame painted). */
async function open(page: Page, base: string, sessionId: string): Promise<Loaded> {
  const started = Date.now();
  await page.goto(`${base}/#/guacd-playback?sessionId=${encodeURIComponent(sessionId)}`);
  const region = page.locator('[role="img"][aria-busy]');
  await region.and(page.locator('[aria-busy="false"]')).waitFor({ timeout: 300_000 });
  await region.locator('canvas').waitFor({ state: 'attached' });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(r)));
  const loadMs = Date.now() - started;
  const pause = page.getByRole('button', { name: '暂停' });
  try {
    await pause.click({ timeout: 10_000 });
  } catch (error) {
    await page.screenshot({ path: path.join(os.tmpdir(), 'bench-desktop-seek.png') });
    console.error(await page.locator('body').textContent());
    throw error;
  }
  return { loadMs };
}

/**
 * One seek, timed inside the page: the slider set as a drag sets it (value, then `input`), until the screen region's
 * aria-busy leaves true (the seek is on the screen) and the next animation frame.
 */
function seek(page: Page, targetMs: number): Promise<number> {
  return page.evaluate(
    (target) =>
      new Promise<number>((resolve, reject) => {
        const input = document.querySelector<HTMLInputElement>('input[type="range"]');
        const region = document.querySelector('[role="img"][aria-busy]');
        if (!input || !region) return reject(new Error('no slider or screen region'));
        const timeout = setTimeout(() => reject(new Error(`seek to ${target} ms not done in 5 minutes`)), 300_000);
        let t0 = 0;
        const observer = new MutationObserver((changes) => {
          // Only true ↔ false: a change from true is the end of the seek (several at once are batched together).
          if (!changes.some((c) => c.oldValue === 'true')) return;
          observer.disconnect();
          requestAnimationFrame(() => {
            clearTimeout(timeout);
            resolve(performance.now() - t0);
          });
        });
        observer.observe(region, { attributes: true, attributeFilter: ['aria-busy'], attributeOldValue: true });
        const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
        t0 = performance.now();
        setValue?.call(input, String(target));
        input.dispatchEvent(new Event('input', { bubbles: true }));
      }),
    targetMs,
  );
}

/** The seek targets: `count` random moments, rounded to the slider's 100 ms step. */
function targets(durationMs: number, count: number): number[] {
  const random = rng(42);
  return Array.from({ length: count }, () => Math.round((random() * durationMs) / 100) * 100);
}

/** Of the sampled pixels, how many the player's canvas shows as the generator drew them (0 when there is no canvas). */
function matching(page: Page, sample: number[]): Promise<number> {
  return page.evaluate(
    ({ sample, every }) => {
      const canvas = document.querySelector<HTMLCanvasElement>('[role="img"][aria-busy] canvas');
      const data = canvas?.getContext('2d')?.getImageData(0, 0, canvas.width, canvas.height).data;
      if (!data || canvas?.width !== 1024) return 0;
      let same = 0;
      for (let i = 0, p = 0; i < sample.length; i += 3, p += every) {
        if (data[p * 4] === sample[i] && data[p * 4 + 1] === sample[i + 1] && data[p * 4 + 2] === sample[i + 2]) same++;
      }
      return same;
    },
    { sample, every: SAMPLE_EVERY },
  );
}

interface Run {
  loadMs: number;
  times: number[];
  lastMinute: number;
  /** Sampled pixels right on the canvas after the last-minute seek. */
  right: number;
}

async function measure(page: Page, base: string, sessionId: string, gen: Generated, count: number): Promise<Run> {
  const { loadMs } = await open(page, base, sessionId);
  const times: number[] = [];
  for (const target of targets(gen.lastMs, count)) {
    times.push(await seek(page, target));
    await sleep(50);
  }
  const lastMinute = await seek(page, LAST_MINUTE_MS);
  return { loadMs, times: times.sort((a, b) => a - b), lastMinute, right: await matching(page, gen.sample) };
}

// ---------------------------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const seeks = Number(flag('seeks', '60'));
  const contrastSeeks = Number(flag('contrast-seeks', '60'));
  if (!fs.existsSync(path.join(import.meta.dirname, '..', 'dist', 'index.html'))) throw new Error('build the console first: npx vite build');
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'jumpgate-desktop-seek-'));
  const withKeys = path.join(work, 'with-keyframes.rfb');
  const withoutKeys = path.join(work, 'without-keyframes.rfb');
  let t0 = performance.now();
  const gen = generate(withKeys, withoutKeys);
  const genMs = performance.now() - t0;

  const xvnc = await startXvnc({ password: VNC_PASSWORD });
  const server = await startBenchServer(PASSWORD);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const login = await api<{ token: string; info: unknown }>(server.base, '', 'POST', '/login', { username: 'admin', password: PASSWORD });
    const { id: assetId } = await api<{ id: string }>(server.base, login.token, 'POST', '/assets', {
      name: 'desktop',
      protocol: 'vnc',
      ip: xvnc.host,
      port: xvnc.port,
      accountType: 'custom',
      username: '',
      password: VNC_PASSWORD,
    });
    // A real session: attached, one screen, ended. Its recording is then replaced by the generated hour.
    const { id: sessionId } = await api<{ id: string }>(server.base, login.token, 'POST', `/sessions?assetId=${assetId}&mode=guacd`);
    const client = await rfbConnect(`${server.base.replace(/^http/, 'ws')}/sessions/${sessionId}/vnc?X-Auth-Token=${login.token}`, { control: true });
    client.request(false);
    await client.next();
    client.close();
    const recording = path.join(server.dataDir, 'recording', sessionId, 'recording.rfb');
    for (let i = 0; i < 100 && !fs.existsSync(recording); i++) await sleep(100);
    if (!fs.existsSync(recording)) throw new Error(`the session wrote no recording at ${recording}`);
    await sleep(1500); // the relay's last batch and the session's end
    const replace = (file: string) => {
      const tmp = `${recording}.tmp`;
      fs.copyFileSync(file, tmp);
      fs.chmodSync(tmp, 0o600);
      fs.renameSync(tmp, recording);
    };

    const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, locale: 'zh-CN' });
    await context.addInitScript(({ token, info }) => {
      localStorage.setItem('X-Auth-Token', token);
      localStorage.setItem('user', JSON.stringify(info));
    }, login);
    replace(withKeys);
    t0 = performance.now();
    // A fresh page for each file: the same address again would be a same-document navigation, player kept.
    let page = await context.newPage();
    const keyed = await measure(page, server.base, sessionId, gen, seeks);
    await page.close();
    const keyedWall = performance.now() - t0;
    replace(withoutKeys);
    page = await context.newPage();
    const bare = await measure(page, server.base, sessionId, gen, contrastSeeks);
    await context.close();

    const mb = (file: string) => `${(fs.statSync(file).size / 1e6).toFixed(1)} MB`;
    const ms = (x: number) => x.toFixed(0);
    const p = (xs: number[], q: number) => ms(percentile(xs, q));
    console.log(
      `\nrecording: 1024x768, 1 h, ${gen.updates} updates (${gen.records} records), ${mb(withKeys)} with ${gen.keyframes} keyframes ` +
        `(${(gen.keyframeBytes / gen.keyframes / 1e3).toFixed(0)} KB each), ${mb(withoutKeys)} without; generated in ${(genMs / 1000).toFixed(1)} s\n`,
    );
    console.log('| desktop player, one-hour recording (Chromium, production build, real server) | with keyframes (every 30 s) | without keyframes |');
    console.log('|---|---:|---:|');
    console.log(`| load: navigation → first picture (fetch, parse, handshake), ms | ${keyed.loadMs} | ${bare.loadMs} |`);
    console.log(`| seek to ${seeks} / ${contrastSeeks} random moments: p50, ms | ${p(keyed.times, 50)} | ${p(bare.times, 50)} |`);
    console.log(`| seek: p95, ms (goal ≤ 200) | ${p(keyed.times, 95)} | ${p(bare.times, 95)} |`);
    console.log(`| seek: max, ms | ${ms(keyed.times.at(-1) ?? 0)} | ${ms(bare.times.at(-1) ?? 0)} |`);
    console.log(`| seek to the last minute, ms | ${ms(keyed.lastMinute)} | ${ms(bare.lastMinute)} |`);
    const total = gen.sample.length / 3;
    console.log(`| the screen there as generated (sampled pixels right) | ${keyed.right}/${total} | ${bare.right}/${total} |`);
    console.log(`\n(with keyframes: ${(keyedWall / 1000).toFixed(0)} s of page time in all)`);
  } finally {
    await browser.close();
    await server.stop();
    await xvnc.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

await main();
process.exit(0);
