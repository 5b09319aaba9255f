// Access end to end: an admin grants an asset to a user group in the console; a member logs in, lands on 我的资产 and
// sees exactly that asset; once the admin takes them out of the group, a reload shows nothing. Real server, real build.
import { expect, type Page, test } from '@playwright/test';
import { apiCall, apiToken, type RunningServer, signedIn, startServer } from './server';

let server: RunningServer;

test.beforeAll(async () => {
  server = await startServer();
});

test.afterAll(async () => {
  await server?.stop();
});

async function logInAs(page: Page, username: string, password: string): Promise<void> {
  await page.goto(`${server.baseURL}/#/login`);
  await page.getByLabel('登录账号').fill(username);
  await page.getByLabel('登录密码').fill(password);
  await page.getByRole('button', { name: '登录', exact: true }).click();
}

test('a grant to a group reaches its member’s portal, and leaving the group takes it away', async ({ browser, request }) => {
  const token = await apiToken(request, server, 'admin', server.adminPassword);

  // What the admin had before: a plain user, a group with them in it, two assets (only one will be granted).
  await apiCall(request, server, token, 'POST', '/users', { username: 'member', nickname: 'Member', type: 'user', mail: '', roles: [], password: 'Member-Pass-1' });
  const users = await request.get(`${server.baseURL}/users`, { headers: { 'X-Auth-Token': token } });
  const memberId = ((await users.json()) as { data: { id: string; username: string }[] }).data.find((u) => u.username === 'member')?.id ?? '';
  expect(memberId).not.toBe('');
  await apiCall(request, server, token, 'POST', '/user-groups', { name: 'ops', members: [memberId] });
  const asset = { protocol: 'ssh', ip: '10.9.0.1', port: 22, accountType: 'custom', username: 'root', password: 'x-Secret-1', tags: 'prod', description: '' };
  const granted = await apiCall<{ id: string }>(request, server, token, 'POST', '/assets', { ...asset, name: 'granted-host' });
  await apiCall(request, server, token, 'POST', '/assets', { ...asset, name: 'other-host', ip: '10.9.0.2' });

  // The grant, made in the console: asset detail → 授权的用户组 → 授权.
  const admin = await signedIn(browser, request, server, 'admin', server.adminPassword, `/asset/${granted.id}?activeKey=bind-user-group`);
  await admin.getByRole('button', { name: '授权' }).click();
  const dialog = admin.getByRole('dialog', { name: '用户组授权' });
  await dialog.getByRole('combobox', { name: /^用户组/ }).click();
  await admin.getByRole('option', { name: 'ops' }).click();
  await dialog.getByRole('button', { name: '确定' }).click();
  await expect(dialog).toBeHidden();
  await expect(admin.getByRole('row').filter({ hasText: 'ops' })).toContainText('生效中');

  // The member lands on 我的资产 and sees exactly that asset.
  const memberContext = await browser.newContext();
  const member = await memberContext.newPage();
  await logInAs(member, 'member', 'Member-Pass-1');
  await expect(member).toHaveURL(/#\/my-asset$/);
  await expect(member.getByText('granted-host')).toBeVisible();
  await expect(member.getByText('other-host')).toHaveCount(0);

  // Out of the group (the admin's edit): on the next request the grant no longer counts.
  const groups = await request.get(`${server.baseURL}/user-groups`, { headers: { 'X-Auth-Token': token } });
  const ops = ((await groups.json()) as { data: { id: string; name: string }[] }).data.find((g) => g.name === 'ops');
  await apiCall(request, server, token, 'PUT', `/user-groups/${ops?.id}`, { name: 'ops', members: [] });
  await member.reload();
  await expect(member.getByText('暂无可访问的资产，请联系管理员为您授权')).toBeVisible();
  await expect(member.getByText('granted-host')).toHaveCount(0);

  await memberContext.close();
  await admin.context().close();
});
