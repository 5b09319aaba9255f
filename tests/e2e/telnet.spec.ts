// Telnet end to end: a user opens a granted Telnet host from 我的资产; the bastion logs in at the host's prompts (the
// password typed by the server, never shown) and the user runs a command in the same terminal page as SSH; an admin
// watches it live from 在线会话, force-closes it, and plays its recording back from 历史会话. Real server, real build
// (`npx vite build` first), a real telnetd behind inetutils-inetd (tests/server/sessions/telnet/telnetd.ts, root).
import { type BrowserContext, expect, type Locator, type Page, test } from '@playwright/test';
import { startTelnetd, type TestTelnetd, telnetAsset } from '../server/sessions/telnet/telnetd';
import { apiCall, apiToken, type RunningServer, signedIn, startServer } from './server';

let server: RunningServer;
let telnetd: TestTelnetd;

test.beforeAll(async () => {
  [server, telnetd] = await Promise.all([startServer(), startTelnetd()]);
});

test.afterAll(async () => {
  await Promise.all([server?.stop(), telnetd?.stop()]);
});

/** What an xterm shows (its DOM renderer's rows). */
const screen = (page: Page): Locator => page.locator('.xterm-rows');

/** The page a click opens with window.open. */
async function opened(context: BrowserContext, click: () => Promise<void>): Promise<Page> {
  const [page] = await Promise.all([context.waitForEvent('page'), click()]);
  await page.waitForLoadState();
  return page;
}

test('a user logs in to a Telnet host through the bastion and runs a command; an admin watches, force-closes and plays it back', async ({ browser, request }) => {
  const token = await apiToken(request, server, 'admin', server.adminPassword);
  await apiCall(request, server, token, 'POST', '/users', { username: 'switch-op', nickname: 'Switch operator', type: 'user', mail: '', roles: [], password: 'Switch-Op-Pass-1' });
  const users = await apiCall<{ id: string; username: string }[]>(request, server, token, 'GET', '/users');
  const userId = users.find((u) => u.username === 'switch-op')?.id ?? '';
  const asset = await apiCall<{ id: string }>(request, server, token, 'POST', '/assets', telnetAsset(telnetd, 'core-switch'));
  await apiCall(request, server, token, 'POST', '/authorised/users', { userIds: [userId], assetId: asset.id });

  // The user: 我的资产 → 接入 on the Telnet asset; the login happens by itself, the shell's prompt shows.
  const userContext = await browser.newContext();
  const portal = await userContext.newPage();
  await portal.goto(`${server.baseURL}/#/login`);
  await portal.getByLabel('登录账号').fill('switch-op');
  await portal.getByLabel('登录密码').fill('Switch-Op-Pass-1');
  await portal.getByRole('button', { name: '登录', exact: true }).click();
  await expect(portal).toHaveURL(/#\/my-asset$/);
  const row = portal.getByRole('row').filter({ hasText: 'core-switch' });
  const term = await opened(userContext, () => row.getByRole('button', { name: '接入', exact: true }).click());
  await expect(term).toHaveTitle(/core-switch/);
  const input = term.getByRole('textbox', { name: 'core-switch 的终端' });
  await expect(input).toBeAttached();
  await expect(screen(term)).toContainText('Welcome', { timeout: 15_000 });
  await expect(screen(term)).not.toContainText(telnetd.password);
  // Telnet has no file manager and no status panel: their buttons say so and stay shut.
  await expect(term.getByRole('button', { name: '此会话不提供文件管理' })).toBeDisabled();
  await expect(term.getByRole('button', { name: '此会话不提供状态信息（仅 SSH 会话提供）' })).toBeDisabled();
  await input.focus();
  await term.keyboard.type('echo telnet-$((6*7)) $TERM');
  await term.keyboard.press('Enter');
  await expect(screen(term)).toContainText('telnet-42 xterm-256color');

  // The admin: 在线会话 → 监控 shows the screen so far and follows.
  const admin = await signedIn(browser, request, server, 'admin', server.adminPassword, '/online-session');
  const live = admin.getByRole('row').filter({ hasText: 'core-switch' });
  await expect(live).toBeVisible();
  const monitor = await opened(admin.context(), () => live.getByRole('button', { name: '监控' }).click());
  await expect(screen(monitor)).toContainText('telnet-42');
  await input.focus();
  await term.keyboard.type('echo watched-$((2+3))');
  await term.keyboard.press('Enter');
  await expect(screen(monitor)).toContainText('watched-5');

  // 断开: both sides say why.
  await live.getByRole('button', { name: '断开' }).click();
  await admin.getByRole('alertdialog').getByRole('button', { name: '确定' }).click();
  await expect(term.getByText('管理员强制关闭了此会话').first()).toBeVisible();
  await expect(monitor.getByText(/管理员强制关闭了此会话/).first()).toBeVisible();

  // 历史会话 → 回放: the recording plays, its command index lists the command, and the password is nowhere in it.
  await admin.goto(`${server.baseURL}/#/offline-session`);
  const history = admin.getByRole('row').filter({ hasText: 'core-switch' });
  await expect(history).toBeVisible();
  const playback = await opened(admin.context(), () => history.getByRole('button', { name: '回放' }).click());
  const command = playback.getByRole('button', { name: /echo telnet-\$\(\(6\*7\)\)/ });
  await expect(command).toBeVisible({ timeout: 15_000 });
  await command.click();
  await expect(screen(playback)).toContainText('echo telnet-$((6*7))');
  await expect(screen(playback)).not.toContainText(telnetd.password);

  await userContext.close();
  await admin.context().close();
});
