import { defineConfig } from '@playwright/test';

// Debian's Chromium: Playwright's own browser downloads cannot reach their hosts from these machines.
export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: process.env.JUMPGATE_REPORT_DIR
    ? [['list'], ['json', { outputFile: `${process.env.JUMPGATE_REPORT_DIR}/e2e.json` }]]
    : [['list']],
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1400, height: 900 },
    locale: 'zh-CN',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
