// A newcomer's first grant, end to end, the way issue 27 tried it: a new administrator signs in on the login page and,
// only through the side menu and labelled fields, makes a credential, an SSH asset using it, a user in a user group,
// then opens 资产授权 and grants the group the asset, and asks 为什么 for the member; the user then signs in and finds
// the asset in 我的资产. No API shortcut. The asset need not be reachable (no sshd). Real server, real build
// (`npx vite build` first).
import { expect, type Locator, type Page, test } from '@playwright/test';
import { type RunningServer, startServer } from './server';

let server: RunningServer;

test.beforeAll(async () => {
  server = await startServer();
});

test.afterAll(async () => {
  await server?.stop();
});

async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto(`${server.baseURL}/#/login`);
  await page.getByLabel('登录账号').fill(username);
  await page.getByLabel('登录密码').fill(password);
  await page.getByRole('button', { name: '登录', exact: true }).click();
}

/** Opens a page from the side menu: its group (opened if closed), then the page. */
async function fromMenu(page: Page, group: string, item: string): Promise<void> {
  const tree = page.getByRole('tree', { name: '主菜单' });
  const branch = tree.getByRole('treeitem', { name: group, level: 1 });
  if ((await branch.getAttribute('aria-expanded')) !== 'true') await branch.locator('.fui-TreeItemLayout').first().click();
  await tree.getByRole('treeitem', { name: item, level: 2 }).click();
}

/** Picks an option of a searchable multi-select, then leaves it (its list closes). */
async function pick(page: Page, field: Locator, option: string): Promise<void> {
  await field.click();
  await page.getByRole('option', { name: option }).click();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('option', { name: option, exact: true })).toHaveCount(0);
}

const row = (page: Page, text: string): Locator => page.getByRole('row').filter({ hasText: text });

test('a new admin grants a new user group an SSH asset from 资产授权; the member finds it in 我的资产', async ({ browser }) => {
  test.setTimeout(180_000); // five forms and two sign-ins, on a shared machine
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signIn(admin, 'admin', server.adminPassword);
  await expect(admin.getByRole('tree', { name: '主菜单' })).toBeVisible();

  // A credential.
  await fromMenu(admin, '资源管理', '授权凭证');
  await expect(admin).toHaveURL(/#\/credential$/);
  await admin.getByRole('button', { name: '新建' }).click();
  const credential = admin.getByRole('dialog', { name: '新建授权凭证' });
  await credential.getByRole('textbox', { name: '凭证名称' }).fill('newcomer-cred');
  await credential.getByRole('textbox', { name: '授权账户' }).fill('root');
  await credential.getByLabel('授权密码').fill('Newcomer-Secret-1');
  await credential.getByRole('button', { name: '确定' }).click();
  await expect(credential).toBeHidden();
  await expect(row(admin, 'newcomer-cred')).toBeVisible();

  // An SSH asset using it.
  await fromMenu(admin, '资源管理', '资产管理');
  await expect(admin).toHaveURL(/#\/asset$/);
  await admin.getByRole('button', { name: '新建' }).click();
  const asset = admin.getByRole('dialog', { name: '新建资产' });
  await asset.getByRole('radio', { name: 'SSH' }).check();
  await asset.getByRole('textbox', { name: '资产名称' }).fill('newcomer-ssh');
  await asset.getByRole('textbox', { name: '主机地址' }).fill('127.0.0.1');
  await asset.getByRole('spinbutton', { name: '端口' }).fill('22');
  await asset.getByRole('combobox', { name: '账户类型' }).selectOption({ label: '授权凭证' });
  await asset.getByRole('combobox', { name: '授权凭证' }).selectOption({ label: 'newcomer-cred' });
  await asset.getByRole('button', { name: '确定' }).click();
  await expect(asset).toBeHidden();
  await expect(row(admin, 'newcomer-ssh')).toBeVisible();

  // A user.
  await fromMenu(admin, '用户管理', '用户管理');
  await expect(admin).toHaveURL(/#\/user$/);
  await admin.getByRole('button', { name: '新建' }).click();
  const userDialog = admin.getByRole('dialog', { name: '新建用户' });
  await userDialog.getByRole('textbox', { name: /^登录账[号户]/ }).fill('newbie');
  await userDialog.getByRole('textbox', { name: /^昵称/ }).fill('Newbie');
  await userDialog.getByRole('radio', { name: '普通用户' }).check();
  await userDialog.getByLabel('登录密码').fill('Newbie-Pass-1');
  await userDialog.getByRole('button', { name: '确定' }).click();
  await expect(userDialog).toBeHidden();
  await expect(admin.getByRole('link', { name: 'Newbie' })).toBeVisible();

  // A user group holding them.
  await fromMenu(admin, '用户管理', '用户组管理');
  await expect(admin).toHaveURL(/#\/user-group$/);
  await admin.getByRole('button', { name: '新建' }).click();
  const groupDialog = admin.getByRole('dialog', { name: '新建用户组' });
  await groupDialog.getByRole('textbox', { name: /^名称/ }).fill('newcomers');
  await pick(admin, groupDialog.getByRole('combobox', { name: /^用户组成员/ }), 'Newbie (newbie)');
  await groupDialog.getByRole('button', { name: '确定' }).click();
  await expect(groupDialog).toBeHidden();
  await expect(row(admin, 'newcomers')).toBeVisible();

  // The grant, on its own page: 授权管理 → 资产授权 → 授权.
  await fromMenu(admin, '授权管理', '资产授权');
  await expect(admin).toHaveURL(/#\/authorisation$/);
  await expect(admin.getByText('暂无数据')).toBeVisible();
  await admin.getByRole('button', { name: '授权', exact: true }).click();
  const grant = admin.getByRole('dialog', { name: '授权', exact: true });
  // The focus starts on the first field, and the strategy says what leaving it empty allows.
  await expect(grant.getByRole('combobox', { name: /^用户(?!组)/ })).toBeFocused();
  await expect(grant).toContainText('不选择授权策略时不做限制');
  await pick(admin, grant.getByRole('combobox', { name: /^用户组/ }), 'newcomers');
  await pick(admin, grant.getByRole('combobox', { name: /^资产/ }), 'newcomer-ssh');
  // The end of the window in the kit's date-time field: the date typed, year first (an empty time is midnight).
  await grant.getByRole('group', { name: '失效时间' }).getByRole('textbox').first().fill('2099-12-31');
  await grant.getByRole('button', { name: '授权', exact: true }).click();
  await expect(grant).toBeHidden();
  const granted = row(admin, 'newcomers');
  await expect(granted).toContainText('newcomer-ssh');
  await expect(granted).toContainText('用户组');
  await expect(granted).toContainText('不限制');
  await expect(granted).toContainText('至 2099-12-31 00:00:00');
  await expect(granted).toContainText('生效中');

  // 为什么: for a group's grant, a member is picked, then the server's explanation shows.
  await granted.getByRole('button', { name: '为什么' }).click();
  const picker = admin.getByRole('dialog', { name: '为什么 —「newcomers」访问「newcomer-ssh」' });
  await picker.getByRole('combobox', { name: /用户组成员/ }).selectOption({ label: 'Newbie' });
  await picker.getByRole('button', { name: '查看原因' }).click();
  const why = admin.getByRole('dialog', { name: 'Newbie 访问 newcomer-ssh 的原因' });
  await expect(why).toContainText('允许访问');
  await expect(why).toContainText('newcomers');
  await why.getByRole('button', { name: '关闭' }).click();
  await expect(why).toBeHidden();

  // The user signs in and finds the asset in 我的资产.
  const userContext = await browser.newContext();
  const newbie = await userContext.newPage();
  await signIn(newbie, 'newbie', 'Newbie-Pass-1');
  await expect(newbie).toHaveURL(/#\/my-asset$/);
  await expect(newbie.getByText('newcomer-ssh')).toBeVisible();

  await userContext.close();
  await adminContext.close();
});
