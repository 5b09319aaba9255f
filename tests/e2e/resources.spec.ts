// Resources end to end: a credential and an SSH asset made in the console, pointing at a real OpenSSH server on
// loopback; its connectivity test turns it active. Then a CSV import whose bad row the preview names before anything
// is written. Real server, real build (`npx vite build` first), real sshd (tests/server/sshd.ts, root).
import { expect, type Locator, type Page, test } from '@playwright/test';
import { startSshd, type TestSshd } from '../server/sshd';
import { type RunningServer, signedIn, startServer } from './server';

let server: RunningServer;
let sshd: TestSshd;

test.beforeAll(async () => {
  [server, sshd] = await Promise.all([startServer(), startSshd()]);
});

test.afterAll(async () => {
  await Promise.all([server?.stop(), sshd?.stop()]);
});

const row = (page: Page, text: string): Locator => page.getByRole('row').filter({ hasText: text });

test('a credential and an SSH asset using it, made in the console; the connectivity test turns the asset active', async ({ browser, request }) => {
  const admin = await signedIn(browser, request, server, 'admin', server.adminPassword, '/credential');

  await admin.getByRole('button', { name: '新建' }).click();
  const credentialDialog = admin.getByRole('dialog', { name: '新建授权凭证' });
  await credentialDialog.getByRole('textbox', { name: '凭证名称' }).fill('e2e-cred');
  await credentialDialog.getByRole('textbox', { name: '授权账户' }).fill(sshd.username);
  await credentialDialog.getByLabel('授权密码').fill(sshd.password);
  await credentialDialog.getByRole('button', { name: '确定' }).click();
  await expect(credentialDialog).toBeHidden();
  await expect(row(admin, 'e2e-cred')).toContainText(sshd.username);

  await admin.goto(`${server.baseURL}/#/asset`);
  await admin.getByRole('button', { name: '新建' }).click();
  const assetDialog = admin.getByRole('dialog', { name: '新建资产' });
  await assetDialog.getByRole('textbox', { name: '资产名称' }).fill('e2e-ssh');
  await assetDialog.getByRole('radio', { name: 'SSH' }).check();
  await assetDialog.getByRole('textbox', { name: '主机地址' }).fill(sshd.host);
  await assetDialog.getByRole('spinbutton', { name: '端口' }).fill(String(sshd.port));
  await assetDialog.getByRole('combobox', { name: '账户类型' }).selectOption({ label: '授权凭证' });
  await assetDialog.getByRole('combobox', { name: '授权凭证' }).selectOption({ label: 'e2e-cred' });
  await assetDialog.getByRole('button', { name: '确定' }).click();
  await expect(assetDialog).toBeHidden();

  // Never checked yet: not claimed reachable.
  const asset = row(admin, 'e2e-ssh');
  await expect(asset).toContainText(`${sshd.host}:${sshd.port}`);
  await expect(asset).toContainText('未检测');

  await asset.getByRole('button', { name: '更多操作' }).click();
  await admin.getByRole('menuitem', { name: '连通性测试' }).click();
  await expect(asset).toContainText('运行中');

  // The state is the server's: it survives a reload.
  await admin.reload();
  await expect(row(admin, 'e2e-ssh')).toContainText('运行中');
  await admin.context().close();
});

test('a CSV import names its bad row in the preview, writes nothing before the import, then imports the good rows', async ({ browser, request }) => {
  const admin = await signedIn(browser, request, server, 'admin', server.adminPassword, '/asset');
  const csv = [
    `csv-web,ssh,10.0.0.1,22,root,secret-1,,,web server,web|prod`,
    `csv-bad,ssh,10.0.0.2,99999,root,secret-2,,,,`,
    `csv-db,rdp,10.0.0.3,3389,administrator,secret-3,,,database,db`,
  ].join('\n');

  await admin.getByRole('button', { name: '导入' }).click();
  const dialog = admin.getByRole('dialog', { name: '导入资产' });
  await dialog.locator('input[type="file"]').setInputFiles({ name: 'assets.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(dialog).toContainText('共 3 行，其中 1 行有错误，不会导入');
  const bad = dialog.getByRole('row').filter({ hasText: 'csv-bad' });
  await expect(bad).toContainText('2');
  await expect(bad).toContainText(/端口/);

  // The dry run wrote nothing.
  const token = await admin.evaluate(() => localStorage.getItem('X-Auth-Token') ?? '');
  const names = async () => {
    const res = await request.get(`${server.baseURL}/assets/paging?pageIndex=1&pageSize=50&name=csv-`, { headers: { 'X-Auth-Token': token } });
    const body = (await res.json()) as { data: { items: { name: string }[] } };
    return body.data.items.map((a) => a.name).sort();
  };
  expect(await names()).toEqual([]);

  await dialog.getByRole('button', { name: '导入 2 行' }).click();
  await expect(admin.getByText('共导入成功2条资产，失败1条资产。', { exact: true })).toBeVisible();
  expect(await names()).toEqual(['csv-db', 'csv-web']);
  await expect(row(admin, 'csv-web')).toContainText('prod');
  await admin.context().close();
});
