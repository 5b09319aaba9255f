/**
 * Login click → first screen painted (issue 14): the admin signs in on `#/login` and lands on 控制面板 (measured until
 * both of its charts have drawn their SVG), against the same sign-in sent to the user list (`#/login?from=/user`,
 * measured until the seeded `admin` row is visible). Same stack and method as bench-first-visit: the real server
 * (fresh data folder) serving the built console, Debian's Chromium through playwright-core, a fresh profile per visit
 * (so the page's chunks come cold after the click), viewport 1350×940, CPU unthrottled and 4× slower.
 *
 * t0 = `performance.now()` of the click on 登录 (a capture listener), t1 = the first animation frame or DOM change
 * where the target is visible; the login page itself is loaded before and not counted.
 *
 * `/overview/*` answers come from the server when it has them; `--fake-overview` answers them in the browser with
 * fixed data instead (a branch without the overview module), which the output says. Run after `npx vite build`:
 *   npm run bench:dashboard -- [--runs 7] [--cpu 1,4] [--fake-overview]
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { startServer } from '../tests/e2e/server';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.ts';

const root = join(import.meta.dirname, '..');
const { values: flags } = parseArgs({
  options: {
    runs: { type: 'string', default: '7' },
    cpu: { type: 'string', default: '1,4' },
    'fake-overview': { type: 'boolean', default: false },
  },
});
const RUNS = Number(flags.runs);
const CPU_RATES = flags.cpu.split(',').map(Number);
if (!Number.isInteger(RUNS) || RUNS < 1 || CPU_RATES.some((rate) => !(rate >= 1))) {
  console.error('usage: bench-dashboard [--runs N≥1] [--cpu 1,4] [--fake-overview]');
  process.exit(2);
}
if (!existsSync(join(root, 'dist', 'index.html'))) {
  console.error('✗ no built console: run `npx vite build` first.');
  process.exit(1);
}

const ADMIN_PASSWORD = 'Bench-Admin-Pass-1';

type Target = 'dashboard' | 'user list';
const TARGETS: readonly Target[] = ['dashboard', 'user list'];

/** Fixed answers for `--fake-overview`: a week of four series, a few assets. */
const FAKE: Record<string, unknown> = {
  '/overview/counter': { totalUser: 12, onlineUser: 3, totalAsset: 40, activeAsset: 5, offlineSession: 230, failLoginCount: 7 },
  '/overview/asset': { ssh: 25, rdp: 8, vnc: 4, telnet: 2, kubernetes: 1, all: 40 },
  '/overview/date-counter': Array.from({ length: 7 }, (_, i) => `2026-11-${String(17 + i).padStart(2, '0')}`).flatMap((date, i) =>
    ['登录次数', '活跃用户', '活跃资产', '会话次数'].map((type, k) => ({ date, type, value: (i + 1) * (k + 2) })),
  ),
};

/** In the page: t0 at the click on 登录, t1 when the target is visible (MutationObserver + every animation frame). */
function watchScript(target: Target): string {
  return `(() => {
  if (location.protocol !== 'http:') return;
  const visible = (el) => { if (!el) return false; const b = el.getBoundingClientRect(); return b.width > 0 && b.height > 0; };
  const reached = ${
    target === 'dashboard'
      ? `() => ['资产类型', '会话统计'].every((name) => visible(document.querySelector('figure[aria-label="' + name + '"] svg')))`
      : `() => [...document.querySelectorAll('tbody tr')].some((row) => visible(row) && [...row.cells].some((c) => c.textContent.trim() === 'admin'))`
  };
  document.addEventListener('click', (e) => {
    const button = e.target instanceof Element ? e.target.closest('button') : null;
    if (button && button.textContent.trim() === '登录' && window.__clickAt === undefined) window.__clickAt = performance.now();
  }, true);
  const check = () => {
    if (window.__clickAt === undefined || window.__doneAt !== undefined) return;
    if (reached()) window.__doneAt = performance.now();
  };
  const frame = () => { check(); if (window.__doneAt === undefined) requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true });
})();`;
}

async function visit(baseURL: string, target: Target, cpuRate: number, fake: boolean): Promise<number> {
  const profile = mkdtempSync(join(tmpdir(), 'jumpgate-bench-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    viewport: { width: 1350, height: 940 },
    locale: 'zh-CN',
  });
  try {
    if (fake) {
      await context.route(/\/overview\/(counter|asset|date-counter)(\?|$)/, (route) => {
        const path = new URL(route.request().url()).pathname;
        return route.fulfill({ contentType: 'application/json', body: JSON.stringify({ code: 1, message: 'success', data: FAKE[path] }) });
      });
    }
    await context.addInitScript(watchScript(target));
    const page = context.pages()[0] ?? (await context.newPage());
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuRate });
    await page.goto(`${baseURL}/#/login${target === 'user list' ? '?from=%2Fuser' : ''}`);
    await page.getByLabel('登录账号').fill('admin');
    await page.getByLabel('登录密码').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: '登录', exact: true }).click();
    type Marks = { __clickAt?: number; __doneAt?: number };
    await page.waitForFunction(() => (window as Marks).__doneAt !== undefined, undefined, { timeout: 60_000, polling: 50 });
    return await page.evaluate(() => ((window as Marks).__doneAt ?? 0) - ((window as Marks).__clickAt ?? 0));
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const median = (values: number[]) => {
  const s = sorted(values);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
const p90 = (values: number[]) => sorted(values)[Math.max(0, Math.ceil(values.length * 0.9) - 1)]!;

const server = await startServer(ADMIN_PASSWORD);
try {
  // Without the overview module the dashboard cannot draw: say so rather than time an error state.
  const login = (await (await fetch(`${server.baseURL}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
  })).json()) as { data: { token: string } };
  const probe = (await (await fetch(`${server.baseURL}/overview/counter`, { headers: { 'X-Auth-Token': login.data.token } })).json()) as { code: number };
  const fake = flags['fake-overview'];
  if (probe.code !== 1 && !fake) {
    console.error('✗ this server has no /overview/counter; run with --fake-overview to time the console alone.');
    process.exit(1);
  }
  console.log(`overview answers: ${fake ? 'faked in the browser (--fake-overview)' : 'from the server'}; ${RUNS} runs per cell, cold profile each`);
  for (const rate of CPU_RATES) {
    const times: Record<Target, number[]> = { dashboard: [], 'user list': [] };
    for (const target of TARGETS) await visit(server.baseURL, target, rate, fake); // warm-up (server, disk cache)
    for (let run = 0; run < RUNS; run++) for (const target of TARGETS) times[target].push(await visit(server.baseURL, target, rate, fake));
    for (const target of TARGETS) {
      const t = times[target];
      console.log(`CPU ${rate}×  ${target.padEnd(10)} median ${median(t).toFixed(0)} ms  p90 ${p90(t).toFixed(0)} ms`);
    }
    console.log(`CPU ${rate}×  dashboard / user list: ${(median(times.dashboard) / median(times['user list'])).toFixed(2)}`);
  }
} finally {
  await server.stop();
}
