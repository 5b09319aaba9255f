// The terminal end to end: a user opens a terminal on a granted host from 我的资产 and runs a command; an admin
// watches the session live from 在线会话, force-closes it, then plays its recording back from 历史会话 and jumps to
// the command from the command index. Real server, real build (`npx vite build` first), real sshd (root).
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, expect, type Locator, type Page, test } from '@playwright/test';
import { sshAsset, startSshd, type TestSshd } from '../server/sshd';
import { apiCall, apiToken, type RunningServer, signedIn, startServer } from './server';

let server: RunningServer;
let sshd: TestSshd;
/** The file manager's folder: this test's own, so its listing holds only what the test makes (a busy /tmp lists thousands). */
let filesDir: string;

test.beforeAll(async () => {
  [server, sshd] = await Promise.all([startServer(), startSshd()]);
  filesDir = mkdtempSync(join(tmpdir(), 'jumpgate-e2e-files-'));
  chmodSync(filesDir, 0o777); // the SSH account (not root) makes its folder here
});

test.afterAll(async () => {
  await Promise.all([server?.stop(), sshd?.stop()]);
  if (filesDir) rmSync(filesDir, { recursive: true, force: true });
});

/** What an xterm shows (its DOM renderer's rows). */
const screen = (page: Page): Locator => page.locator('.xterm-rows');

/** The page a click opens with window.open. */
async function opened(context: BrowserContext, click: () => Promise<void>): Promise<Page> {
  const [page] = await Promise.all([context.waitForEvent('page'), click()]);
  await page.waitForLoadState();
  return page;
}

test('a user runs a command; an admin watches it live, force-closes it, and plays it back from the command index', async ({ browser, request }) => {
  const token = await apiToken(request, server, 'admin', server.adminPassword);

  // The admin's setup, through the API: a plain user, an SSH host (the test's sshd) granted to them.
  await apiCall(request, server, token, 'POST', '/users', { username: 'operator', nickname: 'Operator', type: 'user', mail: '', roles: [], password: 'Operator-Pass-1' });
  const users = await apiCall<{ id: string; username: string }[]>(request, server, token, 'GET', '/users');
  const operatorId = users.find((u) => u.username === 'operator')?.id ?? '';
  const asset = await apiCall<{ id: string }>(request, server, token, 'POST', '/assets', sshAsset(sshd, 'build-host'));
  await apiCall(request, server, token, 'POST', '/authorised/users', { userIds: [operatorId], assetId: asset.id });

  // The user: 我的资产 → 接入 opens the terminal in a new tab; a command's output shows.
  const userContext = await browser.newContext();
  const portal = await userContext.newPage();
  await portal.goto(`${server.baseURL}/#/login`);
  await portal.getByLabel('登录账号').fill('operator');
  await portal.getByLabel('登录密码').fill('Operator-Pass-1');
  await portal.getByRole('button', { name: '登录', exact: true }).click();
  await expect(portal).toHaveURL(/#\/my-asset$/);
  const term = await opened(userContext, () => portal.getByRole('button', { name: '接入', exact: true }).first().click());
  await expect(term).toHaveTitle(/build-host/);
  const input = term.getByRole('textbox', { name: 'build-host 的终端' });
  await expect(input).toBeAttached();
  await expect(screen(term)).toContainText('$', { timeout: 15_000 }); // the shell's prompt
  await input.focus();
  await term.keyboard.type('echo jumpgate-$((6*7))');
  await term.keyboard.press('Enter');
  await expect(screen(term)).toContainText('jumpgate-42');

  // The window shrinks: the terminal refits and the shell learns its new size (a resize frame, then SIGWINCH).
  const size = async (marker: string): Promise<[number, number]> => {
    await term.keyboard.type(`echo ${marker}=$(stty size | tr ' ' x)`);
    await term.keyboard.press('Enter');
    const found = screen(term).getByText(new RegExp(`^${marker}=\\d+x\\d+`));
    await expect(found).toBeVisible();
    const [rows, cols] = ((await found.textContent()) ?? '').replace(`${marker}=`, '').trim().split('x').map(Number);
    return [rows ?? 0, cols ?? 0];
  };
  const [rows, cols] = await size('before');
  await term.setViewportSize({ width: 800, height: 500 });
  await expect.poll(async () => (await size(`after${Date.now() % 1000}`))[1], { timeout: 15_000 }).toBeLessThan(cols);
  expect((await size('last'))[0]).toBeLessThan(rows);
  await term.setViewportSize({ width: 1400, height: 900 });

  // 文件管理: the session's files over SFTP; a new folder shows in the list (and in the file-operation log below).
  const folder = `e2e-${Date.now()}`;
  await term.getByRole('button', { name: '文件管理' }).click();
  const files = term.getByRole('table', { name: '文件管理' });
  await expect(files).toBeVisible();
  await term.getByRole('textbox', { name: '路径' }).fill(filesDir);
  await term.getByRole('textbox', { name: '路径' }).press('Enter');
  await expect(files.getByRole('row').nth(1)).toContainText('..');
  await term.getByRole('button', { name: '创建文件夹' }).click();
  const mkdir = term.getByRole('dialog', { name: '创建文件夹' });
  await mkdir.getByRole('textbox', { name: '文件夹名称' }).fill(folder);
  await mkdir.getByRole('button', { name: '确定' }).click();
  await expect(files.getByText(folder)).toBeVisible();
  await term.getByRole('button', { name: '关闭' }).first().click();
  await expect(files).toBeHidden();

  // The admin: 在线会话 lists it; 监控 opens the live mirror, which starts with the current screen and follows.
  const admin = await signedIn(browser, request, server, 'admin', server.adminPassword, '/online-session');
  const row = admin.getByRole('row').filter({ hasText: 'build-host' });
  await expect(row).toBeVisible();
  const monitor = await opened(admin.context(), () => row.getByRole('button', { name: '监控' }).click());
  await expect(screen(monitor)).toContainText('last=');
  await input.focus();
  await term.keyboard.type('echo watched-$((2+3))');
  await term.keyboard.press('Enter');
  await expect(screen(term)).toContainText('watched-5');
  await expect(screen(monitor)).toContainText('watched-5');

  // 断开: the user's terminal says why, the monitor says the session ended.
  await row.getByRole('button', { name: '断开' }).click();
  await admin.getByRole('alertdialog').getByRole('button', { name: '确定' }).click();
  await expect(term.getByText('管理员强制关闭了此会话').first()).toBeVisible();
  await expect(monitor.getByText(/管理员强制关闭了此会话/).first()).toBeVisible();

  // 历史会话 → 回放: the command index lists both commands; a click jumps to the first one's moment.
  await admin.goto(`${server.baseURL}/#/offline-session`);
  const history = admin.getByRole('row').filter({ hasText: 'build-host' });
  await expect(history).toBeVisible();
  const playback = await opened(admin.context(), () => history.getByRole('button', { name: '回放' }).click());
  const first = playback.getByRole('button', { name: /echo jumpgate-\$\(\(6\*7\)\)/ });
  await expect(first).toBeVisible({ timeout: 15_000 });
  await expect(playback.getByRole('button', { name: /echo watched-\$\(\(2\+3\)\)/ })).toBeVisible();
  await first.click();
  await expect(screen(playback)).toContainText('echo jumpgate-$((6*7))');
  await expect(screen(playback)).not.toContainText('watched-5');
  await expect(first).toHaveAttribute('aria-current', 'true');

  // 文件日志: the folder the user made.
  await admin.goto(`${server.baseURL}/#/storage-log`);
  await expect(admin.getByRole('row').filter({ hasText: folder })).toContainText('创建文件夹');

  await userContext.close();
  await admin.context().close();
});
