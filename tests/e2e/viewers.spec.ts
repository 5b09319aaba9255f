// The monitor and the playback are readable at the window sizes the session lists open them with (issue 27): a user's
// terminal of 200 × 50 runs `top`; the admin's monitor in a 1024 × 768 window shows the same 50 rows of 200 columns
// (nothing wraps, the header intact) at the largest font the window allows, then the playback in 1280 × 720 does too;
// zoom makes the text larger still (the window then scrolls). Screenshots and the measured sizes go to
// JUMPGATE_REPORT_DIR (default .tmp). Real server, real build (`npx vite build` first), real sshd.
//
// Geometry: DejaVu Sans Mono (Debian's monospace) advances 0.602 em, so 200 columns need 200 × 0.602 × f px at a font
// of f px: at 11 px that is 1324 px, wider than either window. Fitting would give ≈ 8.5 px in 1024 (less in playback
// beside its command index), so the fit stops at a readable floor (12 px) and the window scrolls sideways; a smaller
// terminal is fitted whole. Both are measured and asserted here.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { sshAsset, startSshd, type TestSshd } from '../server/sshd';
import { apiCall, apiToken, type RunningServer, signedIn, startServer } from './server';

const REPORT_DIR = process.env.JUMPGATE_REPORT_DIR ?? '.tmp';
const COLS = 200;
const ROWS = 50;

let server: RunningServer;
let sshd: TestSshd;

test.beforeAll(async () => {
  [server, sshd] = await Promise.all([startServer(), startSshd()]);
  mkdirSync(REPORT_DIR, { recursive: true });
});

test.afterAll(async () => {
  await Promise.all([server?.stop(), sshd?.stop()]);
});

/** What a page's (visible) xterm shows and how large, measured from the DOM's boxes. */
interface Shown {
  rows: string[];
  /** The font as it reaches the screen: the computed font size times any CSS scale of the screen. */
  fontPx: number;
  rowPx: number;
  cellPx: number;
  screen: { width: number; height: number };
  /** The viewer's window (the fitted terminal's box), or the page's for the user's terminal. */
  room: { width: number; height: number; scrollWidth: number };
}

function shown(page: Page): Promise<Shown> {
  return page.evaluate((cols) => {
    const screens = [...document.querySelectorAll<HTMLElement>('.xterm-screen')].filter((el) => el.offsetParent !== null);
    const screen = screens[0];
    if (!screen) throw new Error('no visible xterm');
    const rowBox = screen.querySelector<HTMLElement>('.xterm-rows');
    if (!rowBox) throw new Error('no xterm rows');
    const box = screen.getBoundingClientRect();
    const cssScale = box.width / screen.offsetWidth;
    const rowEls = [...rowBox.children] as HTMLElement[];
    const viewport = screen.closest<HTMLElement>('[data-viewer="viewport"]');
    const room = viewport?.getBoundingClientRect() ?? { width: window.innerWidth, height: window.innerHeight };
    return {
      rows: rowEls.map((r) => (r.textContent ?? '').replace(/\u00a0/g, ' ')),
      fontPx: Number.parseFloat(getComputedStyle(rowBox).fontSize) * cssScale,
      rowPx: (rowEls[0]?.getBoundingClientRect().height ?? 0) || box.height / rowEls.length,
      cellPx: box.width / cols,
      screen: { width: box.width, height: box.height },
      room: { width: room.width, height: room.height, scrollWidth: viewport?.scrollWidth ?? 0 },
    };
  }, COLS);
}

const round = (n: number) => Math.round(n * 100) / 100;
const trimmed = (rows: string[]) => rows.map((r) => r.trimEnd());

/**
 * 50 rows with top's header first and its table header whole. (That nothing wraps is shown by the comparison with the
 * user's own screen: a narrower mirror would break the 200-column lines over two rows and push the rest down.)
 */
/** Fitted and readable: at least 11 px on screen; the whole terminal in the window, or the window scrolling at the floor. */
function expectReadableFit(view: Shown, label: string) {
  expect(view.fontPx, `${label}: text size on screen`).toBeGreaterThanOrEqual(11);
  const fits = view.screen.width <= view.room.width + 0.5 && view.screen.height <= view.room.height + 0.5;
  if (fits) expect(Math.max(view.screen.width / view.room.width, view.screen.height / view.room.height), `${label}: fills the window`).toBeGreaterThan(0.98);
  else expect(view.room.scrollWidth, `${label}: scrolls sideways to what does not fit`).toBeGreaterThan(view.room.width);
}

function expectTopScreen(view: Shown, label: string) {
  expect(view.rows, `${label}: one DOM row per terminal row`).toHaveLength(ROWS);
  expect(view.rows[0], `${label}: top's header on the first row`).toMatch(/^top - \d\d:\d\d:\d\d up .*load average: [\d.]+, [\d.]+, [\d.]+\s*$/);
  const head = view.rows.findIndex((r) => /^\s*PID\s+USER\s+PR\s+NI\s+VIRT\s+RES\s+SHR\s+S\s+%CPU\s+%MEM\s+TIME\+\s+COMMAND\s*$/.test(r));
  expect(head, `${label}: the process table's header in one row`).toBeGreaterThan(0);
}

test('a 200×50 top is readable in the monitor at 1024×768 and in the playback at 1280×720', async ({ browser, request }) => {
  test.setTimeout(180_000);
  const token = await apiToken(request, server, 'admin', server.adminPassword);
  await apiCall(request, server, token, 'POST', '/users', { username: 'watched', nickname: 'Watched', type: 'user', mail: '', roles: [], password: 'Watched-Pass-1' });
  const users = await apiCall<{ id: string; username: string }[]>(request, server, token, 'GET', '/users');
  const userId = users.find((u) => u.username === 'watched')?.id ?? '';
  const asset = await apiCall<{ id: string }>(request, server, token, 'POST', '/assets', sshAsset(sshd, 'top-host'));
  await apiCall(request, server, token, 'POST', '/authorised/users', { userIds: [userId], assetId: asset.id });

  // The user's terminal, sized to 200 × 50: the page grows by the missing cells (the terminal fits its box).
  const term = await signedIn(browser, request, server, 'watched', 'Watched-Pass-1', `/term?assetId=${asset.id}&assetName=top-host`);
  await term.setViewportSize({ width: 1900, height: 1100 });
  const rowsOf = term.locator('.xterm-rows').first();
  await expect(rowsOf).toContainText('$', { timeout: 15_000 });
  const input = term.locator('textarea.xterm-helper-textarea').first();
  const sttySize = async (marker: string): Promise<[number, number]> => {
    await input.focus();
    await term.keyboard.type(`echo ${marker}=$(stty size | tr ' ' x)`);
    await term.keyboard.press('Enter');
    const found = rowsOf.getByText(new RegExp(`^${marker}=\\d+x\\d+`));
    await expect(found).toBeVisible();
    const [rows, cols] = ((await found.textContent()) ?? '').replace(`${marker}=`, '').trim().split('x').map(Number);
    return [rows ?? 0, cols ?? 0];
  };
  for (let attempt = 0; ; attempt++) {
    const [rows, cols] = await sttySize(`size${attempt}`);
    if (rows === ROWS && cols === COLS) break;
    expect(attempt, `the user's terminal reaches ${COLS}×${ROWS} (it is ${cols}×${rows})`).toBeLessThan(4);
    // xterm's fit gives floor(box / cell) cells (the width less its 14 px scrollbar): aim at half a cell past the size.
    const box = await term.evaluate(
      ({ c, r }) => {
        const screen = [...document.querySelectorAll<HTMLElement>('.xterm-screen')].find((el) => el.offsetParent !== null);
        const host = screen?.closest('.xterm')?.parentElement;
        if (!screen || !host) throw new Error('no visible xterm');
        const style = getComputedStyle(host);
        return { width: Number.parseInt(style.width, 10), height: Number.parseInt(style.height, 10), cellW: screen.offsetWidth / c, cellH: screen.offsetHeight / r };
      },
      { c: cols, r: rows },
    );
    const viewport = term.viewportSize() ?? { width: 1900, height: 1100 };
    await term.setViewportSize({
      width: viewport.width + Math.ceil((COLS + 0.5) * box.cellW + 14) - box.width,
      height: viewport.height + Math.ceil((ROWS + 0.5) * box.cellH) - box.height,
    });
    await term.waitForTimeout(300); // the refit and its resize frame
  }
  // top, redrawing every 5 minutes: the screens compared below stay still for the test's length.
  await input.focus();
  await term.keyboard.type('clear; top -d 300');
  await term.keyboard.press('Enter');
  await expect(rowsOf).toContainText('load average', { timeout: 15_000 });
  // top's first screen drawn to its last row.
  await expect.poll(async () => (await shown(term)).rows[ROWS - 1]?.trim() ?? '', { timeout: 15_000 }).not.toBe('');
  const userScreen = await shown(term);
  expectTopScreen(userScreen, 'user');

  // The admin's monitor in a 1024 × 768 window.
  const sessions = await apiCall<{ items: { id: string; assetName: string }[] }>(request, server, token, 'GET', '/sessions/paging?pageIndex=1&pageSize=10&status=connected');
  const sessionId = sessions.items.find((s) => s.assetName === 'top-host')?.id ?? '';
  expect(sessionId).not.toBe('');
  const monitor = await signedIn(browser, request, server, 'admin', server.adminPassword, `/term-monitor?sessionId=${sessionId}`);
  await monitor.setViewportSize({ width: 1024, height: 768 });
  await expect(monitor.locator('.xterm-rows')).toContainText('load average', { timeout: 15_000 });
  // The same screen as the user's, row for row, once the fit has settled.
  await expect.poll(async () => trimmed((await shown(monitor)).rows), { timeout: 10_000 }).toEqual(trimmed(userScreen.rows));
  await monitor.waitForTimeout(300);
  const watched = await shown(monitor);
  expectTopScreen(watched, 'monitor');
  // Fitted: as large as the window allows but readable, so here at the floor: the window scrolls sideways.
  expectReadableFit(watched, 'monitor');
  await monitor.screenshot({ path: join(REPORT_DIR, 'monitor-1024x768.png') });
  // Zoom in: larger still, the rows whole.
  await monitor.getByRole('button', { name: '放大' }).click();
  await expect.poll(async () => (await shown(monitor)).fontPx).toBeGreaterThan(watched.fontPx + 0.5);
  const zoomedMonitor = await shown(monitor);
  expectTopScreen(zoomedMonitor, 'monitor zoomed');
  await monitor.screenshot({ path: join(REPORT_DIR, 'monitor-1024x768-zoomed.png') });
  await monitor.getByRole('button', { name: '适应窗口' }).click();
  // Fit again: the fitted size, to the font's rounding (the fit settles from a larger font this time).
  await expect.poll(async () => Math.abs((await shown(monitor)).fontPx - watched.fontPx)).toBeLessThan(0.1);

  // The session ends; its playback in a 1280 × 720 window, at the end of the recording (top's last screen).
  await apiCall(request, server, token, 'POST', `/sessions/${sessionId}/disconnect`);
  await expect(monitor.getByText(/会话已结束/)).toBeVisible();
  const playback = await signedIn(browser, request, server, 'admin', server.adminPassword, `/term-playback?sessionId=${sessionId}`);
  await playback.setViewportSize({ width: 1280, height: 720 });
  // From the command index: top's line, then play to the end.
  const topCommand = playback.getByRole('button', { name: /clear; top -d 300/ });
  await expect(topCommand).toBeVisible({ timeout: 15_000 });
  await expect(playback.getByRole('button', { name: '播放' })).toBeEnabled();
  await topCommand.click();
  await playback.getByRole('button', { name: '播放' }).click();
  await expect(playback.getByRole('button', { name: '播放' })).toBeVisible({ timeout: 15_000 }); // stopped at the end
  await expect.poll(async () => trimmed((await shown(playback)).rows), { timeout: 15_000 }).toEqual(trimmed(userScreen.rows));
  await playback.waitForTimeout(300);
  const played = await shown(playback);
  expectTopScreen(played, 'playback');
  expectReadableFit(played, 'playback');
  await playback.screenshot({ path: join(REPORT_DIR, 'playback-1280x720.png') });
  await playback.getByRole('button', { name: '放大' }).click();
  await expect.poll(async () => (await shown(playback)).fontPx).toBeGreaterThan(played.fontPx + 0.5);
  const zoomedPlayback = await shown(playback);
  expectTopScreen(zoomedPlayback, 'playback zoomed');
  await playback.screenshot({ path: join(REPORT_DIR, 'playback-1280x720-zoomed.png') });

  const measured = {
    monitor: { window: '1024x768', fitted: pick(watched), zoomed: pick(zoomedMonitor) },
    playback: { window: '1280x720', fitted: pick(played), zoomed: pick(zoomedPlayback) },
  };
  writeFileSync(join(REPORT_DIR, 'viewers.json'), `${JSON.stringify(measured, null, 2)}\n`);
  console.log(`viewers: ${JSON.stringify(measured)}`);

  await term.context().close();
  await monitor.context().close();
  await playback.context().close();
});

const pick = (s: Shown) => ({
  fontPx: round(s.fontPx),
  rowPx: round(s.rowPx),
  cellPx: round(s.cellPx),
  screen: { width: round(s.screen.width), height: round(s.screen.height) },
  room: { width: round(s.room.width), height: round(s.room.height) },
});
