/**
 * Debian's Chromium as the e2e suite and the browser benchmarks launch it: Playwright's own browser downloads cannot
 * reach their hosts from these machines, and without the background-networking flags Chromium keeps dialling out.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
