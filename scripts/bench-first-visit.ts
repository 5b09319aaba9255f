/**
 * First visits in a real browser (issue 10): how soon our login form is usable and how soon a direct open of a
 * list page (`#/user` with a token already stored) paints its rows, against the floor of this stack (a page with
 * only React + Fluent UI v9 and a login form, built and served here the same way) and, with `--before <dist>`,
 * against another build of the console (e.g. the one before a change), all in one interleaved run.
 *
 * Method (the one of /work/shared/reference/perf-anchors.md, so the ratios compare):
 * - the real server (`server/main.ts`, fresh data folder) serves the built console (precompressed, immutable
 *   hashed files); a tiny static server serves the floor the same way (brotli/gzip files written at build);
 * - Debian's Chromium through playwright-core, a fresh profile per visit (cold cache), viewport 1350×940,
 *   no network throttle; CPU unthrottled and 4× slower (CDP `Emulation.setCPUThrottlingRate`);
 * - one unmeasured warm-up per target and CPU setting, then N visits per cell, targets interleaved;
 * - the browser, once launched, is left `--settle` ms (2,000 by default) before the navigation: a Chromium that has
 *   just started is still loading its own pages (the omnibox popup's WebUI, ≈ 30 chrome:// files) on the same two
 *   cores for ≈ 200 ms, which a user's long-running browser has done long before. The cache stays cold; with
 *   `--settle 0` the first visits overlap the browser's start as they did until session 10;
 * - "usable" (login) = `performance.now()` in the page when a password input is visible and its form's submit
 *   button is visible, enabled and not busy; "rows" (list) = when the first data row of the table (a body row
 *   holding the seeded `admin` user) is visible. Checked by a MutationObserver and on every animation frame; the page
 *   then says so on the console (no polling from the test side: that would load Playwright's script into the page
 *   while it is measured — until session 7 it did, ≈ 40 ms at 1× on every target);
 * - bytes = transfer size (Resource Timing) of the document and of every resource finished before that moment.
 *
 * Prints median and p90 per cell, ratios (to the floor, to `--before`, to perf-anchors' 1.3.9 figures), and the
 * waterfall of the median visit of each target. Run after `npx vite build`:
 *   npm run bench:first-visit -- [--runs 7] [--cpu 1,4] [--before /path/to/other/dist] [--waterfall 1|4|none]
 *                                 [--settle 2000]
 */
import { createReadStream, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import react from '@vitejs/plugin-react';
import { startServer } from '../tests/e2e/server';
import { precompress } from './precompress';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.ts';

const root = join(import.meta.dirname, '..');
const { values: flags } = parseArgs({
  options: {
    runs: { type: 'string', default: '7' },
    cpu: { type: 'string', default: '1,4' },
    before: { type: 'string' },
    waterfall: { type: 'string', default: '1' },
    settle: { type: 'string', default: '2000' },
  },
});
const RUNS = Number(flags.runs);
const CPU_RATES = flags.cpu.split(',').map(Number);
const SETTLE_MS = Number(flags.settle);
if (!Number.isInteger(RUNS) || RUNS < 1 || CPU_RATES.some((rate) => !(rate >= 1)) || !(SETTLE_MS >= 0)) {
  console.error('usage: bench-first-visit [--runs N≥1] [--cpu 1,4] [--before <dist>] [--waterfall <cpu>|none] [--settle ms≥0]');
  process.exit(2);
}
const BEFORE_DIST = flags.before ? resolve(flags.before) : null;
if (!existsSync(join(root, 'dist', 'index.html')) || (BEFORE_DIST && !existsSync(join(BEFORE_DIST, 'index.html')))) {
  console.error('✗ no built console: run `npx vite build` first (and check the --before folder).');
  process.exit(1);
}

const VIEWPORT = { width: 1350, height: 940 };
const ADMIN_PASSWORD = 'Bench-Admin-Pass-1';
const SEEDED_USERNAME = 'admin';

/** perf-anchors.md, 2026-11-23: 1.3.9's login page, same method, another machine and run. */
const ANCHOR_1_3_9_LOGIN_MS: Record<number, number> = { 1: 199, 4: 645 };

type Mode = 'login' | 'rows';
interface Target {
  id: string;
  url: string;
  mode: Mode;
  /** Token and user put in localStorage before the page's scripts run. */
  session?: { token: string; user: unknown };
  /** A page with no app (no #root): "app ms" = ms. */
  staticOnly?: boolean;
}

interface Resource {
  name: string;
  start: number;
  end: number;
  size: number;
}
interface Visit {
  ms: number;
  /** When the console's own form or rows (in #root, not index.html's prerendered copy or the server's drawing) are there. */
  appMs: number;
  bytes: number;
  requests: number;
  resources: Resource[];
}

// ---------------------------------------------------------------------------------------------------------------
// The floor page: built into a temp folder with Vite's defaults (+ the same precompression), served like ours.

async function buildFloor(): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), 'jumpgate-floor-'));
  await build({
    configFile: false,
    logLevel: 'warn',
    root: join(root, 'scripts', 'floor'),
    plugins: [react(), precompress()],
    build: {
      outDir,
      assetsDir: 'static',
      emptyOutDir: true,
      rollupOptions: { input: ['index.html', 'bare.html', 'list.html'].map((page) => join(root, 'scripts', 'floor', page)) },
    },
  });
  return outDir;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/**
 * `/` → index.html (no-cache), other pages by name; `/static/*` immutable, as .br or .gz beside the file when the
 * browser accepts it. Any other GET goes to `api` (the real server), so the list floor asks it from its own origin.
 */
async function serveStatic(dir: string, api: string): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path !== '/' && !path.startsWith('/static/') && !path.endsWith('.html')) {
      fetch(`${api}${req.url ?? '/'}`, { headers: { 'X-Auth-Token': String(req.headers['x-auth-token'] ?? '') } }).then(
        async (answer) => res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' }).end(Buffer.from(await answer.arrayBuffer())),
        () => res.writeHead(502).end(),
      );
      return;
    }
    const file = path === '/' ? join(dir, 'index.html') : normalize(join(dir, path));
    if (!file.startsWith(dir) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    const accepts = String(req.headers['accept-encoding'] ?? '');
    const encoding = path.startsWith('/static/')
      ? [
          ['br', '.br'],
          ['gzip', '.gz'],
        ].find(([name, suffix]) => accepts.includes(name!) && existsSync(file + suffix))
      : undefined;
    res.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'cache-control': path.startsWith('/static/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      vary: 'accept-encoding',
      ...(encoding ? { 'content-encoding': encoding[0] } : {}),
    });
    createReadStream(encoding ? file + encoding[1] : file).pipe(res);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((done) => server.close(() => done())) };
}

// ---------------------------------------------------------------------------------------------------------------
// In the page: the moment the target is reached, by MutationObserver and on every animation frame.

const DONE_MESSAGE = 'jumpgate-bench:reached';

function watchScript(mode: Mode, username: string, session: Target['session'], staticOnly = false): string {
  return `(() => {
  ${session ? `try { localStorage.setItem('X-Auth-Token', ${JSON.stringify(session.token)}); localStorage.setItem('user', ${JSON.stringify(JSON.stringify(session.user))}); } catch {}` : ''}
  if (location.protocol !== 'http:') return;
  const visible = (el) => {
    if (!el) return false;
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) return false;
    const style = getComputedStyle(el);
    return style.visibility !== 'hidden' && style.display !== 'none' && style.opacity !== '0';
  };
  const loginIn = (scope) => {
    for (const input of scope.querySelectorAll('input[type=password]')) {
      if (!visible(input) || !input.form) continue;
      const button = input.form.querySelector('button[type=submit], button:not([type])');
      if (visible(button) && !button.disabled && button.getAttribute('aria-disabled') !== 'true' && button.getAttribute('aria-busy') !== 'true') return true;
    }
    return false;
  };
  const rowsIn = (scope) => {
    for (const row of scope.querySelectorAll('tbody tr, [role=rowgroup] [role=row]')) {
      const cells = row.querySelectorAll('td, [role=cell], [role=gridcell]');
      if ([...cells].some((cell) => cell.textContent.trim() === ${JSON.stringify(username)}) && visible(row)) return true;
    }
    return false;
  };
  // The login form may first be index.html's prerendered copy; "app" = the console's own form (in #root) is up.
  const login = () => loginIn(document);
  const loginApp = ${staticOnly ? 'login' : "() => { const root = document.getElementById('root'); return root !== null && loginIn(root); }"};
  // The rows may first be the server's drawing of the page (GET /first-screen); "app" = the console's own rows.
  const rows = () => rowsIn(document);
  const rowsApp = ${staticOnly ? 'rows' : "() => { const root = document.getElementById('root'); return root !== null && rowsIn(root); }"};
  const reached = ${mode === 'login' ? 'login' : 'rows'};
  const reachedApp = ${mode === 'login' ? 'loginApp' : 'rowsApp'};
  let observer = null;
  const done = () => window.__benchAt !== undefined && window.__benchAppAt !== undefined;
  const check = () => {
    if (window.__benchAt === undefined && reached()) window.__benchAt = performance.now();
    if (window.__benchAppAt === undefined && reachedApp()) window.__benchAppAt = performance.now();
    if (done() && observer) {
      observer.disconnect();
      observer = null;
      console.debug(${JSON.stringify(DONE_MESSAGE)});
    }
  };
  const frame = () => { check(); if (!done()) requestAnimationFrame(frame); };
  observer = new MutationObserver(check);
  observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  requestAnimationFrame(frame);
})();`;
}

async function visit(target: Target, cpuRate: number): Promise<Visit> {
  const profile = mkdtempSync(join(tmpdir(), 'jumpgate-bench-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    viewport: VIEWPORT,
    locale: 'zh-CN',
  });
  try {
    await context.addInitScript(watchScript(target.mode, SEEDED_USERNAME, target.session, target.staticOnly));
    const page = context.pages()[0] ?? (await context.newPage());
    // The browser's own start-up work finishes first (see the method above).
    if (SETTLE_MS > 0) await new Promise((done) => setTimeout(done, SETTLE_MS));
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuRate });
    // The page says when it is done (a console message): polling it with waitForFunction would load Playwright's
    // injected script (≈ 40 ms of main thread at 1×) into the page while it is being measured.
    const reached = page.waitForEvent('console', { predicate: (message) => message.text() === DONE_MESSAGE, timeout: 60_000 });
    await page.goto(target.url, { waitUntil: 'commit' });
    await reached;
    type Marks = { __benchAt?: number; __benchAppAt?: number };
    return await page.evaluate(() => {
      const at = (window as Marks).__benchAt ?? 0;
      const appMs = (window as Marks).__benchAppAt ?? 0;
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
      const resources: Resource[] = [
        ...(nav ? [{ name: nav.name, start: nav.startTime, end: nav.responseEnd, size: nav.transferSize }] : []),
        ...(performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((r) => ({
          name: r.name,
          start: r.startTime,
          end: r.responseEnd,
          size: r.transferSize,
        })),
      ];
      const before = resources.filter((r) => r.end > 0 && r.end <= at);
      return { ms: at, appMs, bytes: before.reduce((sum, r) => sum + r.size, 0), requests: before.length, resources };
    });
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------------

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const median = (values: number[]) => {
  const s = sorted(values);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
/** Nearest rank. */
const p90 = (values: number[]) => sorted(values)[Math.max(0, Math.ceil(values.length * 0.9) - 1)]!;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : '–');

async function signIn(baseURL: string): Promise<{ token: string; user: unknown }> {
  const res = await fetch(`${baseURL}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: SEEDED_USERNAME, password: ADMIN_PASSWORD, remember: false }),
  });
  const body = (await res.json()) as { code: number; data: { token: string; info: Record<string, unknown> } };
  if (body.code !== 1) throw new Error(`login failed: ${JSON.stringify(body)}`);
  const { info } = body.data;
  // The shape the login page stores (plugins/login/api.ts, sessionUserOf).
  const user = { ...info, type: String(info.type ?? ''), menus: Array.isArray(info.menus) ? info.menus.map(String) : [] };
  return { token: body.data.token, user };
}

const floorDir = await buildFloor();
const server = await startServer(ADMIN_PASSWORD);
const floor = await serveStatic(floorDir, server.baseURL);
const before = BEFORE_DIST ? await startServer(ADMIN_PASSWORD, { JUMPGATE_DIST: BEFORE_DIST }) : null;
try {
  const targets: Target[] = [
    { id: 'bare', url: `${floor.url}/bare.html`, mode: 'login', staticOnly: true },
    { id: 'floor', url: `${floor.url}/`, mode: 'login' },
    { id: 'list floor', url: `${floor.url}/list.html`, mode: 'rows', session: await signIn(server.baseURL) },
  ];
  for (const [suffix, running] of [
    ['', server],
    [' (before)', before],
  ] as const) {
    if (!running) continue;
    const session = await signIn(running.baseURL);
    targets.push({ id: `login${suffix}`, url: `${running.baseURL}/#/login`, mode: 'login' });
    targets.push({ id: `list${suffix}`, url: `${running.baseURL}/#/user`, mode: 'rows', session });
  }

  const results = new Map<string, Visit[]>(); // `${id}@${cpu}`
  for (const cpu of CPU_RATES) {
    for (const target of targets) await visit(target, cpu); // warm-up, not measured
    for (let i = 0; i < RUNS; i++) {
      for (const target of targets) {
        const key = `${target.id}@${cpu}`;
        results.set(key, [...(results.get(key) ?? []), await visit(target, cpu)]);
      }
      process.stderr.write(`  cpu ${cpu}×: ${i + 1}/${RUNS}\r`);
    }
    process.stderr.write('\n');
  }

  const cell = (id: string, cpu: number) => results.get(`${id}@${cpu}`) ?? [];
  const med = (id: string, cpu: number) => median(cell(id, cpu).map((v) => v.ms));
  console.log(`\nFirst visit, Chromium ${CHROMIUM_ARGS.length} flags, cold profile, ${VIEWPORT.width}×${VIEWPORT.height}, ${RUNS} visits per cell, interleaved, browser left ${SETTLE_MS} ms to start.`);
  console.log('login = our #/login until the form is usable; list = our #/user (token stored) until the first row shows;');
  console.log('floor = React + Fluent UI v9 login form alone (scripts/floor), served the same way; bare = a login form in plain');
  console.log('HTML, no style or script (the browser\'s own floor); list floor = React + Fluent UI v9 and one table of the users');
  console.log('page fetched from the real server (no layout, router, query cache or strings).\n');
  console.log("app ms = when the console's own form or rows are there (not index.html's prerendered login page, not the");
  console.log("server's drawing of the list, GET /first-screen): the login's queued submit runs, the list's rows are live.\n");
  console.log('| target | CPU | median ms | p90 ms | app ms (median) | bytes (median) | requests |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const cpu of CPU_RATES) {
    for (const target of targets) {
      const visits = cell(target.id, cpu);
      console.log(
        `| ${target.id} | ${cpu}× | ${med(target.id, cpu).toFixed(0)} | ${p90(visits.map((v) => v.ms)).toFixed(0)} | ` +
          `${median(visits.map((v) => v.appMs)).toFixed(0)} | ` +
          `${kb(median(visits.map((v) => v.bytes)))} | ${median(visits.map((v) => v.requests))} |`,
      );
    }
  }

  console.log('\nRatios of medians (same run unless said):');
  for (const cpu of CPU_RATES) {
    const parts = [
      `login / floor ${ratio(med('login', cpu), med('floor', cpu))} (goal ≤ 1.3)`,
      `login / bare ${ratio(med('login', cpu), med('bare', cpu))}`,
      `list / list floor ${ratio(med('list', cpu), med('list floor', cpu))}`,
    ];
    if (before) {
      parts.push(`login / login (before) ${ratio(med('login', cpu), med('login (before)', cpu))}`);
      parts.push(`list / list (before) ${ratio(med('list', cpu), med('list (before)', cpu))}`);
      const appMed = (id: string) => median(cell(id, cpu).map((v) => v.appMs));
      parts.push(`list app ms / list (before) app ms ${ratio(appMed('list'), appMed('list (before)'))}`);
    }
    const anchor = ANCHOR_1_3_9_LOGIN_MS[cpu];
    if (anchor) {
      parts.push(`login / 1.3.9 anchor ${ratio(med('login', cpu), anchor)} (perf-anchors.md: ${anchor} ms, another machine and run; goal ≤ 0.5)`);
      parts.push(`bare / 1.3.9 anchor ${ratio(med('bare', cpu), anchor)} (no page can do better here)`);
    }
    console.log(`  ${cpu}×: ${parts.join('; ')}`);
  }

  const waterfallCpu = Number(flags.waterfall);
  if (CPU_RATES.includes(waterfallCpu)) {
    for (const target of targets) {
      const visits = cell(target.id, waterfallCpu);
      const mid = med(target.id, waterfallCpu);
      const shown = visits.reduce((best, v) => (Math.abs(v.ms - mid) < Math.abs(best.ms - mid) ? v : best));
      console.log(`\nWaterfall: ${target.id} at ${waterfallCpu}× (the visit nearest the median: target reached at ${shown.ms.toFixed(0)} ms)`);
      const origin = new URL(target.url).origin;
      for (const r of [...shown.resources].sort((a, b) => a.start - b.start)) {
        const late = r.end > shown.ms || r.end === 0 ? '  (after)' : '';
        const name = r.name.startsWith(origin) ? r.name.slice(origin.length) : r.name;
        console.log(`  ${r.start.toFixed(0).padStart(5)} → ${r.end.toFixed(0).padStart(5)} ms  ${kb(r.size).padStart(9)}  ${name}${late}`);
      }
    }
  }
} finally {
  await before?.stop();
  await server.stop();
  await floor.close();
  rmSync(floorDir, { recursive: true, force: true });
}
