import { expect, type Page, test } from '@playwright/test';
import { type RunningServer, startServer } from './server';

// Where the console sends people: anonymous visitors to the login page, a signed-in account to a real page by
// core's landing rule (run `npx vite build` first).
let server: RunningServer;

test.beforeAll(async () => {
  server = await startServer();
});

test.afterAll(async () => {
  await server?.stop();
});

/** Holds the libraries (the vendor chunk) back: the console cannot start until the returned function lets them come. */
async function holdLibraries(page: Page): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/static\/vendor-[^/]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

test('an anonymous visit to #/user ends on #/login, and signing in returns there', async ({ page }) => {
  await page.goto(`${server.baseURL}/#/user`);
  await expect(page).toHaveURL(/#\/login\?from=%2Fuser$/);
  await expect(page.getByRole('button', { name: '登录', exact: true })).toBeVisible();
  await expect(page.getByTestId('core.admin-layout')).toHaveCount(0);
  await page.getByLabel('登录账号').fill('admin');
  await page.getByLabel('登录密码').fill(server.adminPassword);
  await page.getByRole('button', { name: '登录', exact: true }).click();
  await expect(page).toHaveURL(/#\/user$/);
  await expect(page.getByTestId('core.admin-layout')).toBeVisible();
});

test('a type-user account logs in and lands on 我的资产, its home; the personal centre is one click away', async ({ page, request }) => {
  // The admin creates an ordinary account through the API.
  const login = await request.post(`${server.baseURL}/login`, { data: { username: 'admin', password: server.adminPassword } });
  const { data } = (await login.json()) as { data: { token: string } };
  const password = 'Portal-User-Pass-1';
  const created = await request.post(`${server.baseURL}/users`, {
    headers: { 'X-Auth-Token': data.token },
    data: { username: 'ann', nickname: 'Ann', type: 'user', mail: '', roles: [], password },
  });
  const answer = (await created.json()) as { code: number; message: string };
  expect(answer.code, answer.message).toBe(1);

  await page.goto(`${server.baseURL}/`);
  await expect(page).toHaveURL(/#\/login$/);
  await page.getByLabel('登录账号').fill('ann');
  await page.getByLabel('登录密码').fill(password);
  await page.getByRole('button', { name: '登录', exact: true }).click();
  await expect(page).toHaveURL(/#\/my-asset$/);
  await expect(page.getByTestId('core.user-layout')).toBeVisible();
  await expect(page.getByText('暂无可访问的资产，请联系管理员为您授权')).toBeVisible();
  await page.getByRole('button', { name: '个人中心' }).click();
  await expect(page).toHaveURL(/#\/my-info$/);
  await expect(page.getByRole('tablist', { name: '个人中心选项' })).toBeVisible();
  await expect(page.getByText('普通用户')).toBeVisible();
  // Not a 404 anywhere on the way.
  await expect(page.getByText('抱歉，您似乎到达了预期之外的页面。')).toHaveCount(0);
});

test("index.html's login form takes a visitor's input before the console's code has arrived; the console then signs them in", async ({ page }) => {
  const release = await holdLibraries(page);
  await page.goto(`${server.baseURL}/#/user`);
  await expect(page.getByRole('heading', { level: 1, name: 'Jumpgate' })).toBeVisible();
  await expect(page.getByText('远程访问堡垒机')).toBeVisible(); // the server's branding, written into the page
  await page.getByLabel('登录账号').fill('admin');
  await page.getByLabel('登录密码').fill(server.adminPassword);
  await page.getByRole('button', { name: '登录', exact: true }).click();
  // Queued, and the console is still not up.
  await expect(page.getByRole('button', { name: '登录', exact: true })).toHaveAttribute('aria-busy', 'true');
  expect(await page.locator('#root').textContent()).toContain('正在努力加载中');
  await expect(page).toHaveURL(/#\/user$/);

  release();
  // The console takes the form over, sends the queued log-in, and returns to the page asked for.
  await expect(page.getByTestId('core.admin-layout')).toBeVisible();
  await expect(page).toHaveURL(/#\/user$/);
  await expect(page.locator('#first-screen')).toHaveCount(0);
});

test("a signed-in visit to #/user shows the server's drawing of the list before the console's code has arrived; the console then takes its place", async ({ page, request }) => {
  const login = await request.post(`${server.baseURL}/login`, { data: { username: 'admin', password: server.adminPassword } });
  const { data } = (await login.json()) as { data: { token: string; info: Record<string, unknown> } };
  await page.addInitScript(([token, user]) => {
    localStorage.setItem('X-Auth-Token', token);
    localStorage.setItem('user', user);
  }, [data.token, JSON.stringify(data.info)] as const);
  const release = await holdLibraries(page);
  await page.goto(`${server.baseURL}/#/user`, { waitUntil: 'commit' });
  // The rows are there, from the server, while the console cannot start: a picture of the page, not yet usable.
  const drawn = page.locator('#first-screen');
  await expect(drawn.getByRole('cell', { name: 'admin', exact: true })).toBeAttached();
  await expect(drawn).toBeVisible();
  await expect(drawn).toHaveAttribute('inert', '');
  expect(await page.locator('#root').isVisible()).toBe(false);

  release();
  // The console renders the same page and the drawing goes: one table, the console's, usable.
  await expect(page.locator('#first-screen')).toHaveCount(0);
  await expect(page.getByTestId('core.admin-layout')).toBeVisible();
  await expect(page.getByRole('table')).toHaveCount(1);
  await expect(page.getByRole('cell', { name: 'admin', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: '新建' })).toBeEnabled();
});
