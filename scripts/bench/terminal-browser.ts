import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { build } from 'vite';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium.ts';

/*
 * bench:terminal's browser part: `cat` of the payload through our relay into our /term page (real server, real build,
 * Chromium), against the same xterm.js parsing the same bytes locally in the same Chromium (scripts/bench/xterm-local).
 * The end-to-end time runs from Enter to the sentinel painted in the terminal; the local one from the first write to
 * the last parsed. Needs the console built (`npx vite build`).
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const VIEWPORT = { width: 1350, height: 940 };

export interface BrowserTarget {
  base: string;
  username: string;
  password: string;
  assetId: string;
}

/** Builds the reference page and serves it with the payload as a PTY delivers it (`\n` → `\r\n`). */
async function serveReference(file: string): Promise<{ url: string; bytes: number; close: () => void }> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'jumpgate-bench-xterm-'));
  await build({ root: path.join(here, 'xterm-local'), configFile: false, logLevel: 'silent', build: { outDir: out, emptyOutDir: true } });
  const text = fs.readFileSync(file);
  const crlf = Buffer.from(text.toString('latin1').replace(/\n/g, '\r\n'), 'latin1');
  const server = http.createServer((req, res) => {
    if (req.url === '/payload') {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': crlf.length });
      res.end(crlf);
      return;
    }
    const name = req.url === '/' ? 'index.html' : (req.url ?? '').replace(/^\/+/, '');
    const target = path.join(out, path.normalize(name));
    if (!target.startsWith(out) || !fs.existsSync(target)) {
      res.writeHead(404).end();
      return;
    }
    const type = target.endsWith('.js') ? 'text/javascript' : target.endsWith('.css') ? 'text/css' : 'text/html';
    res.writeHead(200, { 'content-type': type }).end(fs.readFileSync(target));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    bytes: crlf.length,
    close: () => {
      server.close();
      fs.rmSync(out, { recursive: true, force: true });
    },
  };
}

/** One `cat` in our /term page: ms from Enter to the sentinel on screen, and the terminal's box. */
async function endToEnd(browser: Browser, target: BrowserTarget, file: string): Promise<{ ms: number; box: { width: number; height: number } }> {
  const login = await fetch(`${target.base}/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: target.username, password: target.password }) });
  const { data } = (await login.json()) as { data: { token: string; info: unknown } };
  const context = await browser.newContext({ viewport: VIEWPORT });
  await context.addInitScript(({ token, info }) => {
    localStorage.setItem('X-Auth-Token', token);
    localStorage.setItem('user', JSON.stringify(info));
  }, data);
  const page = await context.newPage();
  try {
    await page.goto(`${target.base}/#/term?assetId=${encodeURIComponent(target.assetId)}&assetName=bench`);
    const rows = page.locator('.xterm-rows');
    await rows.filter({ hasText: '$' }).waitFor({ timeout: 30_000 });
    const box = (await page.locator('.xterm').first().boundingBox()) ?? { width: 1200, height: 800 };
    await page.locator('.xterm-helper-textarea').first().focus();
    await page.keyboard.type(`clear; cat ${file}; printf '__TP_%s__\\n' DONE`);
    const started = Date.now();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('.xterm-rows')?.textContent?.includes('__TP_DONE__') ?? false, undefined, { polling: 20, timeout: 300_000 });
    return { ms: Date.now() - started, box: { width: box.width, height: box.height } };
  } finally {
    await context.close();
  }
}

/** Rows for bench:terminal's table: end to end into xterm in Chromium vs xterm parsing locally, MB/s and the ratio. */
export async function browserRows(target: BrowserTarget, file: string, runs: number): Promise<[string, string][]> {
  const reference = await serveReference(file);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
  const e2e: number[] = [];
  const local: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const run = await endToEnd(browser, target, file);
      e2e.push(reference.bytes / 1e6 / (run.ms / 1000));
      const page = await browser.newPage({ viewport: VIEWPORT });
      await page.goto(reference.url);
      const ms = await page.evaluate(({ url, width, height }) => window.benchLocal(url, width, height), { url: `${reference.url}/payload`, ...run.box });
      local.push(reference.bytes / 1e6 / (ms / 1000));
      await page.close();
    }
  } finally {
    await browser.close();
    reference.close();
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
  const fmt = (xs: number[]) => `${median(xs).toFixed(1)} (${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)})`;
  return [
    [`browser: xterm.js parsing the same ${(reference.bytes / 1e6).toFixed(0)} MB locally (MB/s)`, fmt(local)],
    ['browser: relay → our /term page, Enter to sentinel painted (MB/s)', fmt(e2e)],
    ['browser: end to end / local parse (goal ≥ 0.8)', (median(e2e) / median(local)).toFixed(3)],
  ];
}
