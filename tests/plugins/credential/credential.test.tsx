import { expectValidPlugin, reply, renderPlugin } from '@/core/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import credential from '../../../plugins/credential';

vi.setConfig({ testTimeout: 30_000 });

const web = { id: 'c1', name: 'web 密码', type: 'custom', username: 'root', owner: 'u1', ownerName: 'Ann', created: '2026-11-01 10:00:00' };
const deploy = { id: 'c2', name: 'deploy 密钥', type: 'private-key', username: 'deploy', owner: 'u2', ownerName: 'Bob', created: '2026-11-02 10:00:00' };
const page = { total: 2, items: [web, deploy] };
const FIRST = { pageIndex: 1, pageSize: 10, order: '', field: '' };
const admin = (menus: string[]) => ({ user: { id: 'me', type: 'admin', menus } });

const row = (name: string) => {
  const tr = screen.getByText(name, { selector: 'td, td *' }).closest('tr');
  if (!tr) throw new Error(`no row for ${name}`);
  return within(tr);
};
const openDialog = async (name: string) => within(await screen.findByRole('dialog', { name }));

describe('credential plugin', () => {
  it('is a valid plugin', async () => {
    await expectValidPlugin(credential);
  });

  it('lists credentials under 资源管理 with type badges, owner and date, and searches by name', async () => {
    const { user, api } = await renderPlugin(credential, { route: '/credential', api: { 'GET /credentials/paging': page } });
    await screen.findByText('web 密码');
    expect(screen.getByRole('tree', { name: '主菜单' })).toHaveTextContent('资源管理');
    expect(screen.getByRole('tree', { name: '主菜单' })).toHaveTextContent('授权凭证');
    expect(api.callsTo('GET /credentials/paging')[0]?.query).toEqual(FIRST);
    const w = row('web 密码');
    for (const text of ['密码', 'root', 'Ann', '2026-11-01 10:00:00']) expect(w.getByText(text)).toBeInTheDocument();
    const d = row('deploy 密钥');
    for (const text of ['密钥', 'deploy', 'Bob', '2026-11-02 10:00:00']) expect(d.getByText(text)).toBeInTheDocument();

    await user.type(screen.getByRole('textbox', { name: '凭证名称' }), 'web');
    await user.click(await screen.findByRole('button', { name: '查询' }));
    await waitFor(() => expect(api.callsTo('GET /credentials/paging').at(-1)?.query).toEqual({ ...FIRST, name: 'web' }));
  });

  it('hides new, edit and delete without their keys, and shows 403 without credential', async () => {
    const view = await renderPlugin(credential, { route: '/credential', session: admin(['credential']), api: { 'GET /credentials/paging': page } });
    await screen.findByText('web 密码');
    for (const name of ['新建', '编辑', '删除']) expect(screen.queryByRole('button', { name })).toBeNull();
    expect(screen.queryByRole('checkbox', { name: '全选当前页' })).toBeNull();
    view.unmount();

    const edit = await renderPlugin(credential, {
      route: '/credential',
      session: admin(['credential', 'credential-edit']),
      api: { 'GET /credentials/paging': page },
    });
    await screen.findByText('web 密码');
    expect(row('web 密码').getByRole('button', { name: '编辑' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '新建' })).toBeNull();
    expect(screen.queryByRole('button', { name: '删除' })).toBeNull();
    edit.unmount();

    await renderPlugin(credential, { route: '/credential', session: admin(['asset']) });
    expect(screen.getByText('抱歉，您似乎没有此页面的权限。')).toBeInTheDocument();
  });

  it('creates a password credential: required name, then the exact body', async () => {
    const { user, api, eventsOf } = await renderPlugin(credential, {
      route: '/credential',
      api: { 'GET /credentials/paging': page, 'POST /credentials': { id: 'c3' } },
    });
    await user.click(await screen.findByRole('button', { name: '新建' }));
    const dialog = await openDialog('新建授权凭证');
    expect(dialog.getByRole('radio', { name: '密码' })).toBeChecked();
    expect(dialog.queryByRole('textbox', { name: /私钥/ })).toBeNull();
    await user.click(dialog.getByRole('button', { name: '确定' }));
    expect(await dialog.findByText('请输入凭证名称')).toBeInTheDocument();
    expect(api.callsTo('POST /credentials')).toHaveLength(0);

    await user.type(dialog.getByRole('textbox', { name: /凭证名称/ }), ' db 密码 ');
    await user.type(dialog.getByRole('textbox', { name: /授权账户/ }), 'postgres');
    await user.type(dialog.getByLabelText(/授权密码/), 'S3cret!');
    await user.click(dialog.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(api.callsTo('POST /credentials')).toHaveLength(1));
    expect(api.callsTo('POST /credentials')[0]?.body).toEqual({ name: 'db 密码', type: 'custom', username: 'postgres', password: 'S3cret!' });
    await waitFor(() => expect(eventsOf('notify')).toContainEqual({ intent: 'success', message: '保存成功' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(api.callsTo('GET /credentials/paging').length).toBeGreaterThan(1));
  });

  it('switches to a private key: the password goes, the key is required, the body carries key and passphrase only', async () => {
    const { user, api } = await renderPlugin(credential, {
      route: '/credential',
      api: { 'GET /credentials/paging': page, 'POST /credentials': { id: 'c3' } },
    });
    await user.click(await screen.findByRole('button', { name: '新建' }));
    const dialog = await openDialog('新建授权凭证');
    await user.type(dialog.getByRole('textbox', { name: /凭证名称/ }), 'ops 密钥');
    await user.type(dialog.getByLabelText(/授权密码/), 'typed before the switch');
    await user.click(dialog.getByRole('radio', { name: '密钥' }));
    expect(dialog.queryByLabelText(/授权密码/)).toBeNull();
    await user.click(dialog.getByRole('button', { name: '确定' }));
    expect(await dialog.findByText('请输入私钥')).toBeInTheDocument();
    expect(api.callsTo('POST /credentials')).toHaveLength(0);

    await user.type(dialog.getByRole('textbox', { name: /授权账户/ }), 'ops');
    await user.type(dialog.getByRole('textbox', { name: /^私钥/ }), 'KEY-LINE-1{Enter}KEY-LINE-2');
    await user.type(dialog.getByLabelText(/私钥密码/), 'pass');
    await user.click(dialog.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(api.callsTo('POST /credentials')).toHaveLength(1));
    expect(api.callsTo('POST /credentials')[0]?.body).toEqual({
      name: 'ops 密钥',
      type: 'private-key',
      username: 'ops',
      privateKey: 'KEY-LINE-1\nKEY-LINE-2',
      passphrase: 'pass',
    });
  });

  it('edits without touching the password: the field is never filled, says it is set, and the PUT leaves it out', async () => {
    const { user, api } = await renderPlugin(credential, {
      route: '/credential',
      api: {
        'GET /credentials/paging': page,
        // A server that wrongly sent the secret still would not get it shown.
        'GET /credentials/:id': { id: 'c1', name: 'web 密码', type: 'custom', username: 'root', passwordSet: true, privateKeySet: false, passphraseSet: false, password: 'leaked' },
        'PUT /credentials/:id': null,
      },
    });
    await screen.findByText('web 密码');
    await user.click(await row('web 密码').findByRole('button', { name: '编辑' }));
    const dialog = await openDialog('更新授权凭证');
    expect(await dialog.findByRole('textbox', { name: /凭证名称/ })).toHaveValue('web 密码');
    expect(dialog.getByRole('textbox', { name: /授权账户/ })).toHaveValue('root');
    const password = dialog.getByLabelText(/授权密码/);
    expect(password).toHaveValue('');
    expect(dialog.getByText('已设置；留空则保持不变')).toBeInTheDocument();
    await user.clear(dialog.getByRole('textbox', { name: /凭证名称/ }));
    await user.type(dialog.getByRole('textbox', { name: /凭证名称/ }), 'web 凭证');
    await user.click(dialog.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(api.callsTo('PUT /credentials/:id')).toHaveLength(1));
    expect(api.callsTo('PUT /credentials/:id')[0]).toMatchObject({
      path: '/credentials/c1',
      body: { name: 'web 凭证', type: 'custom', username: 'root' },
    });
    expect(api.callsTo('PUT /credentials/:id')[0]?.body).not.toHaveProperty('password');

    // Retyped, it is sent.
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(await row('web 密码').findByRole('button', { name: '编辑' }));
    const again = await openDialog('更新授权凭证');
    await user.type(await again.findByLabelText(/授权密码/), 'n3w');
    await user.click(again.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(api.callsTo('PUT /credentials/:id')).toHaveLength(2));
    expect(api.callsTo('PUT /credentials/:id')[1]?.body).toEqual({ name: 'web 密码', type: 'custom', username: 'root', password: 'n3w' });
  });

  it('edits a key credential keeping its key and passphrase; a save refusal stays in the dialog', async () => {
    const { user, api } = await renderPlugin(credential, {
      route: '/credential',
      api: {
        'GET /credentials/paging': page,
        'GET /credentials/:id': { id: 'c2', name: 'deploy 密钥', type: 'private-key', username: 'deploy', passwordSet: false, privateKeySet: true, passphraseSet: true },
        'PUT /credentials/:id': reply.envelope(-1, '授权凭证名称已存在：deploy 密钥'),
      },
    });
    await screen.findByText('deploy 密钥');
    await user.click(await row('deploy 密钥').findByRole('button', { name: '编辑' }));
    const dialog = await openDialog('更新授权凭证');
    expect(await dialog.findByRole('radio', { name: '密钥' })).toBeChecked();
    expect(dialog.getByRole('textbox', { name: /^私钥/ })).toHaveValue('');
    expect(dialog.getAllByText('已设置；留空则保持不变')).toHaveLength(2);
    await user.click(dialog.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(api.callsTo('PUT /credentials/:id')).toHaveLength(1));
    expect(api.callsTo('PUT /credentials/:id')[0]?.body).toEqual({ name: 'deploy 密钥', type: 'private-key', username: 'deploy' });
    expect(await dialog.findByRole('alert')).toHaveTextContent('授权凭证名称已存在：deploy 密钥');
    expect(screen.getByRole('dialog', { name: '更新授权凭证' })).toBeInTheDocument();
  });

  it('deletes after confirming, and shows the server refusing', async () => {
    const { user, api, eventsOf } = await renderPlugin(credential, {
      route: '/credential',
      api: { 'GET /credentials/paging': page, 'DELETE /credentials/:id': reply.envelope(-1, '授权凭证正在被资产使用：web-01') },
    });
    await screen.findByText('web 密码');
    await user.click(await row('web 密码').findByRole('button', { name: '删除' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: '确认' }));
    await waitFor(() => expect(api.callsTo('DELETE /credentials/:id').map((c) => c.path)).toEqual(['/credentials/c1']));
    await waitFor(() => expect(eventsOf('notify')).toEqual([{ intent: 'error', message: '授权凭证正在被资产使用：web-01' }]));

    api.on({ 'DELETE /credentials/:id': null });
    await user.click(await screen.findByRole('checkbox', { name: '全选当前页' }));
    const batch = screen.getAllByRole('button', { name: '删除' }).find((b) => !b.closest('tr'));
    if (!batch) throw new Error('no batch delete');
    await user.click(batch);
    const ask = within(await screen.findByRole('alertdialog'));
    expect(ask.getByText('您确定要删除选中的 2 个授权凭证吗？')).toBeInTheDocument();
    await user.click(ask.getByRole('button', { name: '确认' }));
    await waitFor(() => expect(api.callsTo('DELETE /credentials/:id').at(-1)?.path).toBe('/credentials/c1,c2'));
    await waitFor(() => expect(eventsOf('notify')).toContainEqual({ intent: 'success', message: '删除成功' }));
  });
});
