/**
 * What a first visit to the login page costs in a real browser: Debian's Chromium against the real server
 * (fresh data folder, built console), cold cache, on loopback and under an emulated slow link. Reports the
 * time until the login form can be used (the 登录 button is visible and enabled and the API transport has
 * arrived) and the bytes on the wire, as the server sends them (pre-compressed). Median of RUNS visits.
 * Run after `npx vite build`: npx tsx scripts/bench-login-page.ts
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { startServer } from '../tests/e2e/server';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.ts';

// A build whose client carries axios in the entry has no transport chunk to wait for.
const manifestPath = join(import.meta.dirname, '..', 'dist', '.vite', 'manifest.json');
const hasTransportChunk = existsSync(manifestPath) && 'core/api/transport.ts' in JSON.parse(readFileSync(manifestPath, 'utf8'));

const RUNS = 5;
/** Chrome DevTools' "Fast 3G" preset: 150 ms latency, 1.6 Mbit/s down, 750 kbit/s up. */
const SLOW = { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 };

interface Visit {
  ms: number;
  bytes: number;
  requests: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

const server = await startServer();
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
try {
  for (const [label, conditions] of [
    ['loopback', null],
    ['Fast 3G', SLOW],
  ] as const) {
    const visits: Visit[] = [];
    for (let i = 0; i < RUNS; i++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
      if (conditions) await cdp.send('Network.emulateNetworkConditions', conditions);
      let bytes = 0;
      let requests = 0;
      let transportArrived = !hasTransportChunk;
      const urls = new Map<string, string>();
      cdp.on('Network.requestWillBeSent', (event) => urls.set(event.requestId, event.request.url));
      cdp.on('Network.loadingFinished', (event) => {
        bytes += event.encodedDataLength;
        requests += 1;
        if (/\/static\/transport-[^/]+\.js$/.test(urls.get(event.requestId) ?? '')) transportArrived = true;
      });
      const started = performance.now();
      await page.goto(`${server.baseURL}/#/login`);
      await page.getByRole('button', { name: '登录', exact: true }).waitFor({ state: 'visible' });
      while (!transportArrived) await page.waitForTimeout(5);
      visits.push({ ms: performance.now() - started, bytes, requests });
      await context.close();
    }
    console.log(
      `${label.padEnd(9)} login form usable in ${median(visits.map((v) => v.ms)).toFixed(0).padStart(5)} ms (median of ${RUNS}), ` +
        `${(median(visits.map((v) => v.bytes)) / 1024).toFixed(1)} KB on the wire in ${median(visits.map((v) => v.requests))} requests`,
    );
  }
} finally {
  await browser.close();
  await server.stop();
}
