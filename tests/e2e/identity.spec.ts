// Identity end to end: a role and an admin user created through the console, the new admin's side menu, and
// their session ending when an administrator disables them. Real server, real build (`npx vite build` first).
import { expect, type Page, test } from '@playwright/test';
import { type RunningServer, signedIn, startServer } from './server';

let server: RunningServer;

test.beforeAll(async () => {
  server = await startServer();
});

test.afterAll(async () => {
  await server?.stop();
});

const menuTexts = (page: Page, level: number) =>
  page
    .getByRole('tree', { name: '主菜单' })
    .locator(`[role="treeitem"][aria-level="${level}"] > .fui-TreeItemLayout`)
    .allInnerTexts();

test('a role and an admin made in the console shape that admin’s menu; disabling them ends their session', async ({ browser, request }) => {
  const admin = await signedIn(browser, request, server, 'admin', server.adminPassword, '/role');

  // A role: one action under 用户管理 (so the page itself is half-checked) and all of 角色管理.
  await admin.getByRole('button', { name: '新建' }).click();
  const roleDialog = admin.getByRole('dialog', { name: '新建角色' });
  await roleDialog.getByRole('textbox', { name: '名称' }).fill('用户查看员');
  const tree = roleDialog.getByRole('tree', { name: '权限' });
  const userPage = tree.getByRole('treeitem', { name: '用户管理', level: 2 });
  await userPage.locator('.fui-TreeItemLayout').first().click(); // expand
  await tree.getByRole('treeitem', { name: '用户详情', level: 3 }).getByRole('checkbox').first().check();
  await tree.getByRole('treeitem', { name: '角色管理', level: 2 }).getByRole('checkbox').first().check();
  await expect(userPage).toHaveAttribute('aria-checked', 'mixed');
  await roleDialog.getByRole('button', { name: '确定' }).click();
  await expect(roleDialog).toBeHidden();
  await expect(admin.getByRole('link', { name: '用户查看员' })).toBeVisible();

  // An admin user holding that role.
  await admin.goto(`${server.baseURL}/#/user`);
  await admin.getByRole('button', { name: '新建' }).click();
  const userDialog = admin.getByRole('dialog', { name: '新建用户' });
  await userDialog.getByRole('textbox', { name: '登录账号' }).fill('viewer');
  await userDialog.getByRole('textbox', { name: '昵称' }).fill('查看员');
  await userDialog.getByRole('radio', { name: '管理用户' }).check();
  await userDialog.getByRole('combobox', { name: '角色' }).click();
  await admin.getByRole('menuitemcheckbox', { name: '用户查看员' }).click();
  await admin.keyboard.press('Escape');
  await userDialog.getByLabel('登录密码').fill('Viewer-Pass-1');
  await userDialog.getByRole('button', { name: '确定' }).click();
  await expect(userDialog).toBeHidden();
  await expect(admin.getByRole('link', { name: '查看员' })).toBeVisible();

  // Their menu: the 用户管理 group with exactly 用户管理 and 角色管理.
  const viewer = await signedIn(browser, request, server, 'viewer', 'Viewer-Pass-1', '/user');
  await expect(viewer.getByRole('link', { name: '查看员' })).toBeVisible();
  await expect.poll(() => menuTexts(viewer, 1)).toEqual(['用户管理']);
  await expect.poll(() => menuTexts(viewer, 2)).toEqual(['用户管理', '角色管理']);
  await expect(viewer.getByRole('button', { name: '新建' })).toHaveCount(0);

  // Disabled by the administrator (switch + confirm) …
  await admin.getByRole('switch', { name: '启用「查看员」' }).click();
  const confirm = admin.getByRole('alertdialog');
  await expect(confirm).toContainText('您确定要禁用用户「查看员」吗？');
  await confirm.getByRole('button', { name: '禁用' }).click();
  await expect(admin.getByRole('switch', { name: '启用「查看员」' })).not.toBeChecked();

  // … their next call sends them to the login page.
  await viewer.getByRole('tree', { name: '主菜单' }).getByText('角色管理').click();
  await expect(viewer).toHaveURL(/#\/login/);
});
