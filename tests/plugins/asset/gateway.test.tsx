import { reply, renderPlugin } from '@/core/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import asset from '../../../plugins/asset';

vi.setConfig({ testTimeout: 30_000 });

const jump = {
  id: 'g1',
  name: 'jump-1',
  ip: '10.0.0.1',
  port: 22,
  accountType: 'custom',
  username: 'root',
  created: '2026-11-01 10:00:00',
  connected: false,
  message: '接入网关不可用：connection refused',
};
const bastion = { ...jump, id: 'g2', name: 'bastion', ip: '10.0.0.2', port: 2222, accountType: 'private-key', username: 'ops', connected: true, message: '' };
const page = { total: 2, items: [jump, bastion] };
const FIRST = { pageIndex: 1, pageSize: 10, order: '', field: '' };
const admin = (menus: string[]) => ({ user: { id: 'me', type: 'admin', menus } });

const row = (name: string) => {
  const tr = screen.getByText(name, { selector: 'td' }).closest('tr');
  if (!tr) throw new Error(`no row for ${name}`);
  return within(tr);
};
const openNew = async (user: { click: (e: Element) => Promise<void> }) => {
  await user.click(await screen.findByRole('button', { name: '新建' }));
  return within(await screen.findByRole('dialog', { name: '新建接入网关' }));
};

describe('asset plugin: access gateways', () => {
  it('lists gateways with account type and live state, and searches by name and ip', async () => {
    const { user, api } = await renderPlugin(asset, { route: '/access-gateway', api: { 'GET /access-gateways/paging': page } });
    await screen.findByText('jump-1', { selector: 'td' });
    expect(screen.getByRole('tree', { name: '主菜单' })).toHaveTextContent('接入网关');
    expect(api.callsTo('GET /access-gateways/paging')[0]?.query).toEqual(FIRST);
    const j = row('jump-1');
    for (const text of ['10.0.0.1', '22', '密码', 'root', '已断开', '接入网关不可用：connection refused', '2026-11-01 10:00:00']) {
      expect(j.getByText(text)).toBeInTheDocument();
    }
    const b = row('bastion');
    for (const text of ['10.0.0.2', '2222', '密钥', 'ops', '已连接']) expect(b.getByText(text)).toBeInTheDocument();

    await user.type(screen.getByRole('textbox', { name: '网关名称' }), 'jump');
    await user.type(screen.getByRole('textbox', { name: '主机' }), '10.0');
    await user.click(await screen.findByRole('button', { name: '查询' }));
    await waitFor(() => expect(api.callsTo('GET /access-gateways/paging').at(-1)?.query).toEqual({ ...FIRST, name: 'jump', ip: '10.0' }));
  });

  it('hides new, edit and delete without their keys (the page key alone may test); 403 without access-gateway', async () => {
    const view = await renderPlugin(asset, { route: '/access-gateway', session: admin(['access-gateway']), api: { 'GET /access-gateways/paging': page } });
    await screen.findByText('jump-1', { selector: 'td' });
    expect(row('jump-1').getByRole('button', { name: '测试连接' })).toBeInTheDocument();
    for (const name of ['新建', '编辑', '删除']) expect(screen.queryByRole('button', { name })).toBeNull();
    view.unmount();

    const del = await renderPlugin(asset, {
      route: '/access-gateway',
      session: admin(['access-gateway', 'access-gateway-del']),
      api: { 'GET /access-gateways/paging': page },
    });
    await screen.findByText('jump-1', { selector: 'td' });
    expect(row('jump-1').getByRole('button', { name: '删除' })).toBeInTheDocument();
    for (const name of ['新建', '编辑']) expect(screen.queryByRole('button', { name })).toBeNull();
    del.unmount();

    await renderPlugin(asset, { route: '/access-gateway', session: admin(['command']) });
    expect(screen.getByText('抱歉，您似乎没有此页面的权限。')).toBeInTheDocument();
  });

  it('tests a connection: a spinner while the handshake runs, then the row shows the new state', async () => {
    let answer: (state: { connected: boolean; message: string }) => void = () => {};
    const { user, api, eventsOf } = await renderPlugin(asset, {
      route: '/access-gateway',
      api: {
        'GET /access-gateways/paging': page,
        'POST /access-gateways/:id/reconnect': () => new Promise((resolve) => (answer = resolve)),
      },
    });
    await screen.findByText('jump-1', { selector: 'td' });
    expect(row('jump-1').getByText('已断开')).toBeInTheDocument();
    await user.click(await row('jump-1').findByRole('button', { name: '测试连接' }));
    expect(await row('jump-1').findByText('测试中')).toBeInTheDocument();
    expect(row('jump-1').getByRole('button', { name: '测试连接' })).toBeDisabled();
    expect(row('bastion').getByRole('button', { name: '测试连接' })).toBeEnabled();
    expect(api.callsTo('POST /access-gateways/:id/reconnect').map((c) => c.path)).toEqual(['/access-gateways/g1/reconnect']);

    answer({ connected: true, message: '' });
    expect(await row('jump-1').findByText('已连接')).toBeInTheDocument();
    expect(row('jump-1').queryByText('测试中')).toBeNull();
    expect(row('jump-1').queryByText('接入网关不可用：connection refused')).toBeNull();
    expect(row('jump-1').getByRole('button', { name: '测试连接' })).toBeEnabled();
    expect(eventsOf('notify')).toContainEqual({ intent: 'success', message: '接入网关「jump-1」连接成功' });
    // The row changed in place: no reload of the list was needed.
    expect(api.callsTo('GET /access-gateways/paging')).toHaveLength(1);
  });

  it('shows a failed test in the row and says why', async () => {
    const { user, eventsOf } = await renderPlugin(asset, {
      route: '/access-gateway',
      api: {
        'GET /access-gateways/paging': page,
        'POST /access-gateways/:id/reconnect': { connected: false, message: '接入网关不可用：ssh: handshake failed: unable to authenticate' },
      },
    });
    await screen.findByText('bastion', { selector: 'td' });
    await user.click(await row('bastion').findByRole('button', { name: '测试连接' }));
    expect(await row('bastion').findByText('接入网关不可用：ssh: handshake failed: unable to authenticate')).toBeInTheDocument();
    expect(row('bastion').getByText('已断开')).toBeInTheDocument();
    await waitFor(() =>
      expect(eventsOf('notify')).toContainEqual({
        intent: 'error',
        message: '接入网关「bastion」连接失败：接入网关不可用：ssh: handshake failed: unable to authenticate',
      }),
    );
  });

  it('creates a password gateway: required fields, port 22 by default and within 1–65535, sends custom', async () => {
    const { user, api } = await renderPlugin(asset, {
      route: '/access-gateway',
      api: { 'GET /access-gateways/paging': page, 'POST /access-gateways': '' },
    });
    const dialog = await openNew(user);
    const port = dialog.getByRole('spinbutton', { name: /端口号/ });
    expect(port).toHaveValue(22);
    expect(dialog.getByRole('radio', { name: '密码' })).toBeChecked();
    await user.clear(port);
    await user.click(dialog.getByRole('button', { name: '确定' }));
    for (const text of ['请输入网关名称', '请输入网关的主机名称或者IP地址', '请输入端口号', '请输入授权账户', '请输入授权密码']) {
      expect(await dialog.findByText(text)).toBeInTheDocument();
    }
    await user.type(port, '70000');
    await user.tab();
    expect(await dialog.findByText('端口号必须在1和65535之间')).toBeInTheDocument();
    await user.clear(port);
    await user.type(port, '2222');
    await user.type(dialog.getByRole('textbox', { name: /网关名称/ }), 'jump-2');
    await user.type(dialog.getByRole('textbox', { name: /^主机(?!密钥)/ }), ' 10.0.0.3 ');
    await user.type(dialog.getByRole('textbox', { name: /授权账户/ }), 'root');
    await user.type(dialog.getByLabelText(/授权密码/), 'pw');
    await user.click(dialog.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(api.callsTo('POST /access-gateways')).toHaveLength(1));
    expect(api.callsTo('POST /access-gateways')[0]?.body).toEqual({
      name: 'jump-2',
      ip: '10.0.0.3',
      port: 2222,
      accountType: 'custom',
      username: 'root',
      password: 'pw',
    });
  });

  it('creates a key gateway: the password goes, the key is required, key and passphrase are sent', async () => {
    const { user, api } = await renderPlugin(asset, {
      route: '/access-gateway',
      api: { 'GET /access-gateways/paging': page, 'POST /access-gateways': '' },
    });
    const dialog = await openNew(user);
    await user.type(dialog.getByRole('textbox', { name: /网关名称/ }), 'jump-3');
    await user.type(dialog.getByRole('textbox', { name: /^主机(?!密钥)/ }), 'jump.example.com');
    await user.type(dialog.getByRole('textbox', { name: /授权账户/ }), 'ops');
    await user.click(dialog.getByRole('radio', { name: '密钥' }));
    expect(dialog.queryByLabelText(/授权密码/)).toBeNull();
    await user.click(dialog.getByRole('button', { name: '确定' }));
    expect(await dialog.findByText('请输入私钥')).toBeInTheDocument();
    expect(api.callsTo('POST /access-gateways')).toHaveLength(0);
    await user.type(dialog.getByRole('textbox', { name: /^私钥/ }), 'KEY');
    await user.type(dialog.getByLabelText(/私钥密码/), 'phrase');
    await user.click(dialog.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(api.callsTo('POST /access-gateways')).toHaveLength(1));
    expect(api.callsTo('POST /access-gateways')[0]?.body).toEqual({
      name: 'jump-3',
      ip: 'jump.example.com',
      port: 22,
      accountType: 'private-key',
      username: 'ops',
      privateKey: 'KEY',
      passphrase: 'phrase',
    });
  });

  it('edits a gateway keeping its password when untouched: never filled, PUT without it', async () => {
    const { user, api } = await renderPlugin(asset, {
      route: '/access-gateway',
      api: {
        'GET /access-gateways/paging': page,
        // A 1.3.9-style account type and a secret that should never have been sent: neither leaks into the form.
        'GET /access-gateways/:id': { id: 'g1', name: 'jump-1', ip: '10.0.0.1', port: 22, accountType: 'password', username: 'root', passwordSet: true, password: 'leaked' },
        'PUT /access-gateways/:id': null,
      },
    });
    await screen.findByText('jump-1', { selector: 'td' });
    await user.click(await row('jump-1').findByRole('button', { name: '编辑' }));
    const dialog = within(await screen.findByRole('dialog', { name: '更新接入网关' }));
    expect(await dialog.findByRole('textbox', { name: /网关名称/ })).toHaveValue('jump-1');
    expect(dialog.getByRole('radio', { name: '密码' })).toBeChecked();
    expect(dialog.getByLabelText(/授权密码/)).toHaveValue('');
    expect(dialog.getByText('已设置；留空则保持不变')).toBeInTheDocument();
    const name = dialog.getByRole('textbox', { name: /网关名称/ });
    await user.clear(name);
    await user.type(name, 'jump-one');
    await user.click(dialog.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(api.callsTo('PUT /access-gateways/:id')).toHaveLength(1));
    expect(api.callsTo('PUT /access-gateways/:id')[0]).toMatchObject({ path: '/access-gateways/g1' });
    expect(api.callsTo('PUT /access-gateways/:id')[0]?.body).toEqual({ name: 'jump-one', ip: '10.0.0.1', port: 22, accountType: 'custom', username: 'root' });
  });

  it('asks for the password again when an edit moves the gateway (the server keeps it only for the old address)', async () => {
    const { user, api } = await renderPlugin(asset, {
      route: '/access-gateway',
      api: {
        'GET /access-gateways/paging': page,
        'GET /access-gateways/:id': { id: 'g1', name: 'jump-1', ip: '10.0.0.1', port: 22, accountType: 'custom', username: 'root', passwordSet: true },
        'PUT /access-gateways/:id': null,
      },
    });
    await user.click(await row('jump-1').findByRole('button', { name: '编辑' }));
    const dialog = within(await screen.findByRole('dialog', { name: '更新接入网关' }));
    const port = await dialog.findByRole('spinbutton', { name: /端口号/ });
    await user.clear(port);
    await user.type(port, '2200');
    expect(dialog.queryByText('已设置；留空则保持不变')).not.toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: '确定' }));
    expect(await dialog.findByText('请输入授权密码')).toBeInTheDocument();
    await user.type(dialog.getByLabelText(/授权密码/), 'n3w-pass');
    await user.click(dialog.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(api.callsTo('PUT /access-gateways/:id')).toHaveLength(1));
    expect(api.callsTo('PUT /access-gateways/:id')[0]?.body).toMatchObject({ port: 2200, password: 'n3w-pass' });
  });

  it('edits a gateway to key login: the stored password does not waive the key', async () => {
    const { user, api } = await renderPlugin(asset, {
      route: '/access-gateway',
      api: {
        'GET /access-gateways/paging': page,
        'GET /access-gateways/:id': { id: 'g1', name: 'jump-1', ip: '10.0.0.1', port: 22, accountType: 'custom', username: 'root', passwordSet: true, privateKeySet: false, passphraseSet: false },
        'PUT /access-gateways/:id': null,
      },
    });
    await screen.findByText('jump-1', { selector: 'td' });
    await user.click(await row('jump-1').findByRole('button', { name: '编辑' }));
    const dialog = within(await screen.findByRole('dialog', { name: '更新接入网关' }));
    await user.click(await dialog.findByRole('radio', { name: '密钥' }));
    await user.click(dialog.getByRole('button', { name: '确定' }));
    expect(await dialog.findByText('请输入私钥')).toBeInTheDocument();
    await user.type(dialog.getByRole('textbox', { name: /^私钥/ }), 'NEWKEY');
    await user.click(dialog.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(api.callsTo('PUT /access-gateways/:id')).toHaveLength(1));
    expect(api.callsTo('PUT /access-gateways/:id')[0]?.body).toEqual({
      name: 'jump-1',
      ip: '10.0.0.1',
      port: 22,
      accountType: 'private-key',
      username: 'root',
      privateKey: 'NEWKEY',
    });
  });

  it('shows the server refusing to delete a gateway in use, naming the assets', async () => {
    const refusal = '接入网关「jump-1」正在被资产使用：web-01、db-02';
    const { user, api, eventsOf } = await renderPlugin(asset, {
      route: '/access-gateway',
      api: { 'GET /access-gateways/paging': page, 'DELETE /access-gateways/:id': reply.envelope(-1, refusal) },
    });
    await screen.findByText('jump-1', { selector: 'td' });
    await user.click(await row('jump-1').findByRole('button', { name: '删除' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: '确认' }));
    await waitFor(() => expect(api.callsTo('DELETE /access-gateways/:id').map((c) => c.path)).toEqual(['/access-gateways/g1']));
    await waitFor(() => expect(eventsOf('notify')).toEqual([{ intent: 'error', message: refusal }]));
    expect(await screen.findByText(refusal)).toBeInTheDocument();
    expect(screen.getByText('jump-1', { selector: 'td' })).toBeInTheDocument();
  });

  it('shows the pinned host key in the edit form and sends it only when changed; the row trusts a new key after a confirm (issue 28)', async () => {
    const pinned = 'SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU';
    const other = 'SHA256:AAAAQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU';
    const { user, api } = await renderPlugin(asset, {
      route: '/access-gateway',
      api: {
        'GET /access-gateways/paging': page,
        'GET /access-gateways/:id': { id: 'g1', name: 'jump-1', ip: '10.0.0.1', port: 22, accountType: 'custom', username: 'root', passwordSet: true, hostKey: pinned },
        'PUT /access-gateways/:id': null,
        'POST /access-gateways/:id/trust-host-key': { hostKey: '' },
      },
    });
    await screen.findByText('jump-1', { selector: 'td' });
    await user.click(await row('jump-1').findByRole('button', { name: '编辑' }));
    let dialog = within(await screen.findByRole('dialog', { name: '更新接入网关' }));
    const field = await dialog.findByRole('textbox', { name: /主机密钥/ });
    await waitFor(() => expect(field).toHaveValue(pinned));
    // Unchanged: not sent (an echo is no trust).
    await user.click(dialog.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(api.callsTo('PUT /access-gateways/:id')).toHaveLength(1));
    expect(api.callsTo('PUT /access-gateways/:id')[0]?.body).not.toHaveProperty('hostKey');

    await user.click(await row('jump-1').findByRole('button', { name: '编辑' }));
    dialog = within(await screen.findByRole('dialog', { name: '更新接入网关' }));
    const again = await dialog.findByRole('textbox', { name: /主机密钥/ });
    await waitFor(() => expect(again).toHaveValue(pinned));
    await user.clear(again);
    await user.type(again, 'MD5:aa');
    await user.click(dialog.getByRole('button', { name: '确定' }));
    expect(await dialog.findByText('请输入 SHA256: 开头的 OpenSSH 指纹')).toBeInTheDocument();
    await user.clear(again);
    await user.type(again, other);
    await user.click(dialog.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(api.callsTo('PUT /access-gateways/:id')).toHaveLength(2));
    expect(api.callsTo('PUT /access-gateways/:id')[1]?.body).toMatchObject({ hostKey: other });

    await user.click(await row('jump-1').findByRole('button', { name: '信任新的主机密钥' }));
    const confirm = within(await screen.findByRole('alertdialog', { name: '信任新的主机密钥' }));
    expect(confirm.getByText(/jump-1/)).toBeInTheDocument();
    await user.click(confirm.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(api.callsTo('POST /access-gateways/:id/trust-host-key')).toHaveLength(1));
    expect(api.callsTo('POST /access-gateways/:id/trust-host-key')[0]).toMatchObject({ path: '/access-gateways/g1/trust-host-key' });
  });
});
