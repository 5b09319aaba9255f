import { expect, type Page, test } from '@playwright/test';
import { generate } from 'otplib';
import { type RunningServer, startServer } from './server';

// The whole sign-in story against a real server and the built console (run `npx vite build` first):
// log in, enable two-factor, log out, log in with a code, then use a personal access token on the API.
let server: RunningServer;

test.beforeAll(async () => {
  server = await startServer();
});

test.afterAll(async () => {
  await server?.stop();
});

async function logIn(page: Page, password: string) {
  await page.getByLabel('登录账号').fill('admin');
  await page.getByLabel('登录密码').fill(password);
  await page.getByRole('button', { name: '登录', exact: true }).click();
}

test('log in, enable two-factor, log in again with a code, and call the API with an access token', async ({ page, request }) => {
  // Signed out, the console sends us to the login page, titled with the brand name.
  await page.goto(`${server.baseURL}/`);
  await expect(page).toHaveURL(/#\/login$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Jumpgate' })).toBeVisible();
  await expect(page).toHaveTitle('Jumpgate');
  // Fluent's theme arrives as a stylesheet of CSS variables on :root: the primary button is painted with the brand colour.
  const colours = await page.evaluate(() => {
    const brand = getComputedStyle(document.documentElement).getPropertyValue('--colorBrandBackground').trim();
    const probe = document.createElement('div');
    probe.style.color = brand;
    document.body.append(probe);
    const expected = getComputedStyle(probe).color;
    probe.remove();
    const submit = [...document.querySelectorAll('button')].find((b) => b.textContent === '登录');
    return { brand, expected, submit: submit ? getComputedStyle(submit).backgroundColor : null };
  });
  expect(colours.brand).toMatch(/^#[0-9a-f]{6}$/i);
  expect(colours.submit).toBe(colours.expected);

  // A wrong password is refused with the server's message, shown once.
  await logIn(page, 'not-the-password');
  await expect(page.getByRole('alert')).toHaveText('您输入的账号或密码不正确');
  await expect(page.getByText('您输入的账号或密码不正确')).toHaveCount(1);

  await logIn(page, server.adminPassword);
  // The dashboard plugin declares 控制面板 the admins' home: core's landing rule sends them there.
  await expect(page).toHaveURL(/#\/dashboard$/);
  await expect(page.getByTestId('core.admin-layout')).toBeVisible();
  const menu = page.getByRole('tree', { name: '主菜单' });
  await expect(menu.getByText('个人中心')).toBeVisible();
  await menu.getByText('个人中心').click();
  await expect(page).toHaveURL(/#\/info/);

  // Enable two-factor with the secret shown as text.
  await page.getByRole('tab', { name: '两步认证' }).click();
  await expect(page.getByText('您还未开启双因素认证！')).toBeVisible();
  await page.getByRole('button', { name: '去开启' }).click();
  await expect(page.getByRole('img', { name: /双因素认证二维码/ })).toBeVisible();
  const secret = (await page.getByTestId('info.totp-secret').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await page.getByLabel('TOTP').fill(await generate({ secret }));
  await page.getByRole('button', { name: '确认', exact: true }).click();
  await expect(page.getByText('您已成功开启双因素认证!')).toBeVisible();
  await expect(page.locator('.fui-ToastTitle', { hasText: 'TOTP启用成功' })).toBeVisible();

  // Log out through the header's account menu and its confirm.
  await page.getByRole('button', { name: '超级管理员' }).click();
  await page.getByRole('menuitem', { name: '退出登录' }).click();
  const logout = page.getByRole('alertdialog', { name: '退出登录' });
  await logout.getByRole('button', { name: '确定' }).click();
  await expect(page).toHaveURL(/#\/login$/);

  // Log in again: the server asks for a code (code 100) and the dialog takes it.
  await logIn(page, server.adminPassword);
  const dialog = page.getByRole('dialog', { name: '双因素认证' });
  await expect(dialog).toBeVisible();
  const code = dialog.getByLabel('请输入双因素认证码');
  await expect(code).toBeFocused();
  // A code is accepted once (the server refuses a replay): sign in with the next 30 s step's code, not the one
  // just used to confirm the binding.
  await code.fill(await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }));
  await code.press('Enter');
  await expect(page).toHaveURL(/#\/dashboard$/);

  // A personal access token, read from the page, works as X-Auth-Token.
  await page.goto(`${server.baseURL}/#/info?activeKey=token`);
  await expect(page.getByText('您还没有授权令牌。')).toBeVisible();
  await page.getByRole('button', { name: '生成令牌' }).click();
  await page.getByRole('button', { name: '显示令牌' }).click();
  const token = page.getByTestId('info.token');
  await expect(token).toHaveText(/^forever-/);
  const value = (await token.textContent())?.trim() ?? '';

  const answer = await request.get(`${server.baseURL}/account/info`, { headers: { 'X-Auth-Token': value } });
  expect(answer.ok()).toBe(true);
  const body = (await answer.json()) as { code: number; data: { username: string } };
  expect(body.code).toBe(1);
  expect(body.data.username).toBe('admin');
});
