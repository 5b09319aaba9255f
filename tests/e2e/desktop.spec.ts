// Desktops end to end. VNC: a user opens a granted VNC host from 我的资产 (the bastion logs in to it; the browser is
// offered no password), sees its pixels and types into the xterm inside it; an admin watches it live from 在线会话,
// force-closes it, and plays its recording back from 历史会话. RDP: the same user opens an RDP host (a real xrdp; the
// bastion runs FreeRDP in a private display) and sees its session; the admin watches it and ends it. Real server, real
// build (`npx vite build` first), a real Xvnc with an xterm in it (tests/server/sessions/vnc/xvnc.ts), a real xrdp
// (tests/server/sessions/rdp/xrdp.ts), Chromium.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, expect, type Locator, type Page, test } from '@playwright/test';
import { startXrdp, type TestXrdp } from '../server/sessions/rdp/xrdp';
import { startXvnc, type TestXvnc } from '../server/sessions/vnc/xvnc';
import { apiCall, apiToken, type RunningServer, signedIn, startServer } from './server';

const VNC_PASSWORD = 'desk-pw1';
let server: RunningServer;
let xvnc: TestXvnc;
let xrdp: TestXrdp;
let xterm: ChildProcess;
let dir: string;

test.beforeAll(async () => {
  [server, xvnc, xrdp] = await Promise.all([startServer(), startXvnc({ password: VNC_PASSWORD }), startXrdp()]);
  dir = mkdtempSync(join(tmpdir(), 'jumpgate-e2e-desktop-'));
  // An xterm over the whole screen (no window manager: keys go to the window under the pointer) whose shell writes
  // each typed line to a file the test reads.
  xterm = spawn('xterm', ['-geometry', '170x56+0+0', '-e', 'sh', '-c', `cat > ${join(dir, 'typed.txt')}`], {
    env: { ...process.env, DISPLAY: `:${xvnc.display}` },
    stdio: 'ignore',
  });
});

test.afterAll(async () => {
  xterm?.kill();
  await Promise.all([server?.stop(), xvnc?.stop(), xrdp?.stop()]);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The page a click opens with window.open. */
async function opened(context: BrowserContext, click: () => Promise<void>): Promise<Page> {
  const [page] = await Promise.all([context.waitForEvent('page'), click()]);
  await page.waitForLoadState();
  return page;
}

/** How many distinct colours a sample of the canvas shows (a blank desktop shows one). */
const colours = (canvas: Locator): Promise<number> =>
  canvas.evaluate((c: HTMLCanvasElement) => {
    const ctx = c.getContext('2d');
    if (!ctx || c.width === 0 || c.height === 0) return 0;
    const { data } = ctx.getImageData(0, 0, c.width, c.height);
    const seen = new Set<number>();
    for (let i = 0; i < data.length; i += 4 * 97) seen.add(((data[i] as number) << 16) | ((data[i + 1] as number) << 8) | (data[i + 2] as number));
    return seen.size;
  });

test('a user works on a VNC desktop through the bastion; an admin watches, force-closes and plays it back', async ({ browser, request }) => {
  const token = await apiToken(request, server, 'admin', server.adminPassword);
  await apiCall(request, server, token, 'POST', '/users', { username: 'designer', nickname: 'Designer', type: 'user', mail: '', roles: [], password: 'Designer-Pass-1' });
  const users = await apiCall<{ id: string; username: string }[]>(request, server, token, 'GET', '/users');
  const userId = users.find((u) => u.username === 'designer')?.id ?? '';
  const asset = await apiCall<{ id: string }>(request, server, token, 'POST', '/assets', {
    name: 'office-desktop',
    protocol: 'vnc',
    ip: xvnc.host,
    port: xvnc.port,
    accountType: 'custom',
    username: '',
    password: VNC_PASSWORD,
    description: 'a designer workstation',
  });
  await apiCall(request, server, token, 'POST', '/authorised/users', { userIds: [userId], assetId: asset.id });

  // The user: 我的资产 → 接入 opens the desktop; its pixels show; what is typed reaches the xterm inside.
  const userContext = await browser.newContext();
  const portal = await userContext.newPage();
  await portal.goto(`${server.baseURL}/#/login`);
  await portal.getByLabel('登录账号').fill('designer');
  await portal.getByLabel('登录密码').fill('Designer-Pass-1');
  await portal.getByRole('button', { name: '登录', exact: true }).click();
  await expect(portal).toHaveURL(/#\/my-asset$/);
  const row = portal.getByRole('row').filter({ hasText: 'office-desktop' });
  const desk = await opened(userContext, () => row.getByRole('button', { name: '接入', exact: true }).click());
  await expect(desk).toHaveTitle(/office-desktop/);
  await expect(desk.getByText('已连接').first()).toBeVisible({ timeout: 15_000 });
  const canvas = desk.locator('canvas').first();
  await expect.poll(() => colours(canvas), { timeout: 15_000 }).toBeGreaterThan(1);
  await canvas.click({ position: { x: 40, y: 40 } });
  await desk.keyboard.type('hello-desktop-42');
  await desk.keyboard.press('Enter');
  await expect.poll(() => readFileSync(join(dir, 'typed.txt'), 'utf8'), { timeout: 15_000 }).toContain('hello-desktop-42');

  // The admin: 在线会话 → 监控 shows the desktop (view only).
  const admin = await signedIn(browser, request, server, 'admin', server.adminPassword, '/online-session');
  const live = admin.getByRole('row').filter({ hasText: 'office-desktop' });
  await expect(live).toBeVisible();
  const monitor = await opened(admin.context(), () => live.getByRole('button', { name: '监控' }).click());
  await expect.poll(() => colours(monitor.locator('canvas').first()), { timeout: 15_000 }).toBeGreaterThan(1);

  // 断开: both sides say why.
  await live.getByRole('button', { name: '断开' }).click();
  await admin.getByRole('alertdialog').getByRole('button', { name: '确定' }).click();
  await expect(desk.getByText('管理员强制关闭了此会话').first()).toBeVisible();
  await expect(monitor.getByText(/管理员强制关闭了此会话/).first()).toBeVisible();

  // 历史会话 → 回放: the recording plays and seeks.
  await admin.goto(`${server.baseURL}/#/offline-session`);
  const history = admin.getByRole('row').filter({ hasText: 'office-desktop' });
  await expect(history).toBeVisible();
  await expect(history).toContainText(/\d+(\.\d+)? (KB|MB)/); // the recording's size
  const playback = await opened(admin.context(), () => history.getByRole('button', { name: '回放' }).click());
  await expect.poll(() => colours(playback.locator('canvas').first()), { timeout: 15_000 }).toBeGreaterThan(1);
  const seek = playback.getByRole('slider', { name: '播放进度' });
  await seek.focus();
  await playback.keyboard.press('Home');
  await expect.poll(() => colours(playback.locator('canvas').first()), { timeout: 15_000 }).toBeGreaterThan(1);

  await userContext.close();
  await admin.context().close();
});

test('a user opens an RDP host through the bastion; an admin watches and ends it', async ({ browser, request }) => {
  const token = await apiToken(request, server, 'admin', server.adminPassword);
  await apiCall(request, server, token, 'POST', '/users', { username: 'accountant', nickname: 'Accountant', type: 'user', mail: '', roles: [], password: 'Accountant-Pass-1' });
  const users = await apiCall<{ id: string; username: string }[]>(request, server, token, 'GET', '/users');
  const userId = users.find((u) => u.username === 'accountant')?.id ?? '';
  const asset = await apiCall<{ id: string }>(request, server, token, 'POST', '/assets', {
    name: 'windows-host',
    protocol: 'rdp',
    ip: xrdp.host,
    port: xrdp.port,
    accountType: 'custom',
    username: 'accountant',
    password: xrdp.password,
    description: 'a Windows server (xrdp here)',
  });
  await apiCall(request, server, token, 'POST', '/authorised/users', { userIds: [userId], assetId: asset.id });

  const userContext = await browser.newContext();
  const portal = await userContext.newPage();
  await portal.goto(`${server.baseURL}/#/login`);
  await portal.getByLabel('登录账号').fill('accountant');
  await portal.getByLabel('登录密码').fill('Accountant-Pass-1');
  await portal.getByRole('button', { name: '登录', exact: true }).click();
  await expect(portal).toHaveURL(/#\/my-asset$/);
  const row = portal.getByRole('row').filter({ hasText: 'windows-host' });
  const desk = await opened(userContext, () => row.getByRole('button', { name: '接入', exact: true }).click());
  await expect(desk).toHaveTitle(/windows-host/);
  await expect(desk.getByText('已连接').first()).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => colours(desk.locator('canvas').first()), { timeout: 20_000 }).toBeGreaterThan(1);

  const admin = await signedIn(browser, request, server, 'admin', server.adminPassword, '/online-session');
  const live = admin.getByRole('row').filter({ hasText: 'windows-host' });
  await expect(live).toBeVisible();
  const monitor = await opened(admin.context(), () => live.getByRole('button', { name: '监控' }).click());
  await expect.poll(() => colours(monitor.locator('canvas').first()), { timeout: 20_000 }).toBeGreaterThan(1);
  await live.getByRole('button', { name: '断开' }).click();
  await admin.getByRole('alertdialog').getByRole('button', { name: '确定' }).click();
  await expect(desk.getByText('管理员强制关闭了此会话').first()).toBeVisible();
  await expect(monitor.getByText(/管理员强制关闭了此会话/).first()).toBeVisible();

  // 历史会话 lists it with its recording; 回放 shows its pixels.
  await admin.goto(`${server.baseURL}/#/offline-session`);
  const history = admin.getByRole('row').filter({ hasText: 'windows-host' });
  await expect(history).toBeVisible();
  await expect(history).toContainText(/\d+(\.\d+)? (KB|MB)/); // the recording's size
  const playback = await opened(admin.context(), () => history.getByRole('button', { name: '回放' }).click());
  await expect.poll(() => colours(playback.locator('canvas').first()), { timeout: 15_000 }).toBeGreaterThan(1);

  await userContext.close();
  await admin.context().close();
});
