import { expect, test } from '@playwright/test';
import { type RunningServer, startServer } from './server';

// The admins' home: after login they land on 控制面板, whose counters come from the real server (run `npx vite build` first).
let server: RunningServer;

test.beforeAll(async () => {
  server = await startServer();
});

test.afterAll(async () => {
  await server?.stop();
});

test('the admin lands on the dashboard after login, and sees the failed-login counter count a wrong password', async ({ page, request }) => {
  const login = await request.post(`${server.baseURL}/login`, { data: { username: 'admin', password: server.adminPassword } });
  const { data } = (await login.json()) as { data: { token: string } };
  const counter = await request.get(`${server.baseURL}/overview/counter`, { headers: { 'X-Auth-Token': data.token } });
  const before = ((await counter.json()) as { data: { failLoginCount: number } }).data.failLoginCount;
  // One asset, so that the asset-type donut has a slice to draw (with none it says 还没有资产).
  const asset = { name: 'web-01', protocol: 'ssh', ip: '10.9.0.1', port: 22, accountType: 'custom', username: 'root', password: 'x-Secret-1', tags: '', description: '' };
  const created = await request.post(`${server.baseURL}/assets`, { data: asset, headers: { 'X-Auth-Token': data.token } });
  expect(((await created.json()) as { code: number }).code).toBe(1);

  await page.goto(`${server.baseURL}/`);
  await expect(page).toHaveURL(/#\/login$/);
  await page.getByLabel('登录账号').fill('admin');
  await page.getByLabel('登录密码').fill('not-the-password');
  await page.getByRole('button', { name: '登录', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText('您输入的账号或密码不正确');
  await page.getByLabel('登录密码').fill(server.adminPassword);
  await page.getByRole('button', { name: '登录', exact: true }).click();

  await expect(page).toHaveURL(/#\/dashboard$/);
  const failed = page.getByRole('link', { name: `登录失败次数 ${before + 1}` });
  await expect(failed).toBeVisible();
  await expect(page.getByRole('figure', { name: '资产类型' }).locator('svg')).toBeVisible();
  await expect(page.getByRole('figure', { name: '会话统计' }).locator('svg')).toBeVisible();

  // The counter opens the login log filtered on failures.
  await failed.click();
  await expect(page).toHaveURL(/#\/login-log\?state=0$/);
  await expect(page.getByRole('combobox', { name: '登录状态' })).toHaveValue('0');
  await expect(page.getByRole('cell', { name: '账号或密码不正确' }).first()).toBeVisible();
});
