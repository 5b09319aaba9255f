/**
 * The terminal's file manager on a large folder, in Chromium against the real server and a real sshd (SFTP): ms from
 * Enter in the path box to the folder's first entry on screen, and from a click on an entry's checkbox to it showing
 * checked — for a folder of `--entries` names (2,000 by default: /usr/bin, /var/log or a busy /tmp hold that many) and,
 * in the same run, a folder of 10 (the reference). Needs root (sshd) and the console built (`npx vite build`).
 *
 * Run: npm run bench:file-manager [-- --entries 2000 --runs 5]
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Page } from 'playwright-core';
import { startServer } from '../tests/e2e/server';
import { sshAsset, startSshd } from '../tests/server/sshd.ts';
import { api } from './bench/api.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.ts';

const { values: flags } = parseArgs({ options: { entries: { type: 'string', default: '2000' }, runs: { type: 'string', default: '5' } } });
const ENTRIES = Number(flags.entries);
const RUNS = Number(flags.runs);
if (!Number.isInteger(ENTRIES) || ENTRIES < 1 || !Number.isInteger(RUNS) || RUNS < 1) {
  console.error('usage: bench-file-manager [--entries N≥1] [--runs N≥1]');
  process.exit(2);
}

/** A folder the SSH account can list: a tenth folders, the rest empty files; `a-first` sorts first among the folders. */
function makeFolder(count: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'jumpgate-bench-files-'));
  chmodSync(dir, 0o755);
  mkdirSync(join(dir, 'a-first'));
  for (let i = 1; i < count; i++) {
    const name = `${i % 10 === 0 ? 'dir' : 'file'}-${String(i).padStart(5, '0')}`;
    if (i % 10 === 0) mkdirSync(join(dir, name));
    else writeFileSync(join(dir, name), '');
  }
  return dir;
}

interface Measure {
  list: number;
  /** Of `list`: the listing request, as the page's Resource Timing saw it (the server's SFTP readdir and the wire). */
  request: number;
  check: number;
}

/** One visit: open the folder in the file manager; ms to its first entry, ms for a checkbox to show checked. */
async function measure(page: Page, folder: string): Promise<Measure> {
  const path = page.getByRole('textbox', { name: '路径' });
  await path.fill(folder);
  const first = page.getByRole('row', { name: 'a-first', exact: true });
  const started = Date.now();
  await path.press('Enter');
  await first.waitFor({ timeout: 120_000 });
  const list = Date.now() - started;
  const request = await page.evaluate(() => {
    const calls = performance.getEntriesByType('resource').filter((r) => /\/sessions\/[^/]+\/ls/.test(r.name));
    return Math.round(calls.at(-1)?.duration ?? 0);
  });
  const box = first.getByRole('checkbox');
  const clicked = Date.now();
  await box.click();
  await page.waitForFunction((el) => (el as HTMLInputElement).checked, await box.elementHandle(), { polling: 'raf' });
  return { list, request, check: Date.now() - clicked };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

const sshd = await startSshd();
const server = await startServer('Bench-Admin-Pass-1');
const big = makeFolder(ENTRIES);
const small = makeFolder(10);
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
try {
  const login = await api<{ token: string; info: unknown }>(server.baseURL, '', 'POST', '/login', { username: 'admin', password: server.adminPassword });
  const asset = await api<{ id: string }>(server.baseURL, login.token, 'POST', '/assets', sshAsset(sshd, 'bench-files'));
  const results = { big: [] as Measure[], small: [] as Measure[] };
  for (let run = 0; run < RUNS; run++) {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, locale: 'zh-CN' });
    await context.addInitScript(({ token, info }) => {
      localStorage.setItem('X-Auth-Token', token);
      localStorage.setItem('user', JSON.stringify(info));
    }, login);
    const page = await context.newPage();
    await page.goto(`${server.baseURL}/#/term?assetId=${encodeURIComponent(asset.id)}&assetName=bench-files`);
    await page.locator('.xterm-rows').filter({ hasText: '$' }).waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: '文件管理' }).click();
    await page.getByRole('table', { name: '文件管理' }).waitFor();
    // Alternate which folder goes first, so neither always meets a cold SFTP channel.
    for (const which of run % 2 ? (['big', 'small'] as const) : (['small', 'big'] as const)) {
      results[which].push(await measure(page, which === 'big' ? big : small));
    }
    await context.close();
  }
  const row = (label: string, xs: number[]) => console.log(`| ${label} | ${median(xs)} | ${Math.min(...xs)}–${Math.max(...xs)} |`);
  console.log(`\nFile manager, ${RUNS} runs (Chromium, real server, sshd on loopback; medians):\n`);
  console.log('| measure | ms | range |');
  console.log('|---|---:|---:|');
  row('10 entries: Enter → first entry shown', results.small.map((r) => r.list));
  row(`${ENTRIES} entries: Enter → first entry shown`, results.big.map((r) => r.list));
  row('10 entries: of which the listing request', results.small.map((r) => r.request));
  row(`${ENTRIES} entries: of which the listing request`, results.big.map((r) => r.request));
  row('10 entries: click → checkbox checked', results.small.map((r) => r.check));
  row(`${ENTRIES} entries: click → checkbox checked`, results.big.map((r) => r.check));
  const ratio = (a: number[], b: number[]) => (median(a) / median(b)).toFixed(2);
  console.log(`\nRatios to the 10-entry folder: listing ${ratio(results.big.map((r) => r.list), results.small.map((r) => r.list))}, checkbox ${ratio(results.big.map((r) => r.check), results.small.map((r) => r.check))}`);
} finally {
  await browser.close();
  await server.stop();
  await sshd.stop();
  rmSync(big, { recursive: true, force: true });
  rmSync(small, { recursive: true, force: true });
}
process.exit(0);
