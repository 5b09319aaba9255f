import { expectValidPlugin, reply, renderPlugin } from '@/core/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import asset from '../../../plugins/asset';

vi.setConfig({ testTimeout: 30_000 });

const deploy = { id: 'm1', name: 'deploy', content: 'cd /srv/app\ngit pull\nsystemctl restart app', owner: 'u1', ownerName: 'Ann', created: '2026-11-01 10:00:00' };
const disk = { id: 'm2', name: 'disk', content: 'df -h', owner: 'u2', ownerName: 'Bob', created: '2026-11-02 10:00:00' };
const page = { total: 2, items: [deploy, disk] };
const users = [
  { id: 'u1', username: 'ann', nickname: 'Ann' },
  { id: 'u2', username: 'bob', nickname: 'Bob' },
  { id: 'u3', username: 'carl', nickname: 'Carl' },
];
const FIRST = { pageIndex: 1, pageSize: 10, order: '', field: '' };
const admin = (menus: string[]) => ({ user: { id: 'me', type: 'admin', menus } });

const row = (name: string) => {
  const tr = screen.getByText(name, { selector: 'td' }).closest('tr');
  if (!tr) throw new Error(`no row for ${name}`);
  return within(tr);
};

describe('asset plugin: dynamic commands', () => {
  it('is a valid plugin', async () => {
    await expectValidPlugin(asset);
  });

  it('lists commands with content in a copyable cell, and searches by name and content', async () => {
    const { user, api, eventsOf } = await renderPlugin(asset, { route: '/command', api: { 'GET /commands/paging': page } });
    await screen.findByText('deploy', { selector: 'td' });
    expect(screen.getByRole('tree', { name: '主菜单' })).toHaveTextContent('动态指令');
    expect(api.callsTo('GET /commands/paging')[0]?.query).toEqual(FIRST);
    const r = row('deploy');
    for (const text of ['Ann', '2026-11-01 10:00:00']) expect(r.getByText(text)).toBeInTheDocument();
    expect(r.getByText(/git pull/, { selector: 'span' })).toBeInTheDocument();
    await user.click(r.getByRole('button', { name: '复制「deploy」的内容' }));
    await waitFor(() => expect(eventsOf('notify')).toContainEqual({ intent: 'success', message: '已复制' }));
    expect(await navigator.clipboard.readText()).toBe(deploy.content);

    await user.type(screen.getByRole('textbox', { name: '指令名称' }), 'dep');
    await user.type(screen.getByRole('textbox', { name: '指令内容' }), 'git');
    await user.click(await screen.findByRole('button', { name: '查询' }));
    await waitFor(() => expect(api.callsTo('GET /commands/paging').at(-1)?.query).toEqual({ ...FIRST, name: 'dep', content: 'git' }));
  });

  it('offers no execute action, and hides each button without its key', async () => {
    const view = await renderPlugin(asset, { route: '/command', session: admin(['command']), api: { 'GET /commands/paging': page } });
    await screen.findByText('deploy', { selector: 'td' });
    for (const name of ['新建', '编辑', '删除', '更换所有者', '执行']) expect(screen.queryByRole('button', { name })).toBeNull();
    view.unmount();

    await renderPlugin(asset, {
      route: '/command',
      session: admin(['command', 'command-add', 'command-edit', 'command-del', 'command-change-owner']),
      api: { 'GET /commands/paging': page },
    });
    await screen.findByText('deploy', { selector: 'td' });
    expect(await screen.findByRole('button', { name: '新建' })).toBeInTheDocument();
    const r = row('deploy');
    for (const name of ['编辑', '更换所有者', '删除']) expect(r.getByRole('button', { name })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '执行' })).toBeNull();
  });

  it('shows 403 without the command key', async () => {
    await renderPlugin(asset, { route: '/command', session: admin(['access-gateway']) });
    expect(screen.getByText('抱歉，您似乎没有此页面的权限。')).toBeInTheDocument();
  });

  it('creates a command: required name and content, content sent line by line as typed', async () => {
    const { user, api } = await renderPlugin(asset, {
      route: '/command',
      api: { 'GET /commands/paging': page, 'POST /commands': { id: 'm3' } },
    });
    await user.click(await screen.findByRole('button', { name: '新建' }));
    const dialog = within(await screen.findByRole('dialog', { name: '新建动态指令' }));
    const content = dialog.getByRole('textbox', { name: /指令内容/ });
    expect(content).toHaveAttribute('placeholder', '一行一个指令');
    expect(content).toHaveAttribute('rows', '5');
    await user.click(dialog.getByRole('button', { name: '确定' }));
    expect(await dialog.findByText('请输入指令名称')).toBeInTheDocument();
    expect(dialog.getByText('请输入指令内容')).toBeInTheDocument();

    await user.type(dialog.getByRole('textbox', { name: /指令名称/ }), ' uptime ');
    await user.type(content, 'uptime{Enter}  free -m{Enter}w');
    await user.click(dialog.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(api.callsTo('POST /commands')).toHaveLength(1));
    expect(api.callsTo('POST /commands')[0]?.body).toEqual({ name: 'uptime', content: 'uptime\n  free -m\nw' });
  });

  it('edits a command with PUT on its id; a refusal stays in the dialog', async () => {
    const { user, api } = await renderPlugin(asset, {
      route: '/command',
      api: {
        'GET /commands/paging': page,
        'GET /commands/:id': { id: 'm2', name: 'disk', content: 'df -h', owner: 'u2', created: '2026-11-02 10:00:00' },
        'PUT /commands/:id': reply.envelope(-1, '动态指令名称已存在：deploy'),
      },
    });
    await screen.findByText('disk', { selector: 'td' });
    await user.click(await row('disk').findByRole('button', { name: '编辑' }));
    const dialog = within(await screen.findByRole('dialog', { name: '更新动态指令' }));
    expect(await dialog.findByRole('textbox', { name: /指令内容/ })).toHaveValue('df -h');
    await user.clear(dialog.getByRole('textbox', { name: /指令名称/ }));
    await user.type(dialog.getByRole('textbox', { name: /指令名称/ }), 'deploy');
    await user.click(dialog.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(api.callsTo('PUT /commands/:id')).toHaveLength(1));
    expect(api.callsTo('PUT /commands/:id')[0]).toMatchObject({ path: '/commands/m2', body: { name: 'deploy', content: 'df -h' } });
    expect(await dialog.findByRole('alert')).toHaveTextContent('动态指令名称已存在：deploy');
  });

  it('changes the owner: users by nickname, the current owner preselected, then the owner query', async () => {
    const { user, api, eventsOf } = await renderPlugin(asset, {
      route: '/command',
      api: { 'GET /commands/paging': page, 'GET /users': users, 'POST /commands/:id/change-owner': '' },
    });
    await screen.findByText('deploy', { selector: 'td' });
    expect(api.callsTo('GET /users')).toHaveLength(0);
    await user.click(await row('deploy').findByRole('button', { name: '更换所有者' }));
    const dialog = within(await screen.findByRole('dialog', { name: '更换所有者' }));
    const owner = dialog.getByRole('combobox', { name: /所有者/ });
    await waitFor(() => expect(owner).toBeEnabled());
    expect(within(owner).getAllByRole('option').map((o) => o.textContent)).toEqual(['请选择', 'Ann', 'Bob', 'Carl']);
    expect(owner).toHaveValue('u1');
    await user.selectOptions(owner, 'Carl');
    await user.click(dialog.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(api.callsTo('POST /commands/:id/change-owner')).toHaveLength(1));
    expect(api.callsTo('POST /commands/:id/change-owner')[0]).toMatchObject({ path: '/commands/m1/change-owner', query: { owner: 'u3' } });
    await waitFor(() => expect(eventsOf('notify')).toContainEqual({ intent: 'success', message: '所有者已更换' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('deletes one after confirming and several at once', async () => {
    const { user, api } = await renderPlugin(asset, {
      route: '/command',
      api: { 'GET /commands/paging': page, 'DELETE /commands/:id': null },
    });
    await screen.findByText('deploy', { selector: 'td' });
    await user.click(await row('deploy').findByRole('button', { name: '删除' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: '确认' }));
    await waitFor(() => expect(api.callsTo('DELETE /commands/:id').map((c) => c.path)).toEqual(['/commands/m1']));

    await user.click(await screen.findByRole('checkbox', { name: '全选当前页' }));
    const batch = screen.getAllByRole('button', { name: '删除' }).find((b) => !b.closest('tr'));
    if (!batch) throw new Error('no batch delete');
    await user.click(batch);
    const ask = within(await screen.findByRole('alertdialog'));
    expect(ask.getByText('您确定要删除选中的 2 条动态指令吗？')).toBeInTheDocument();
    await user.click(ask.getByRole('button', { name: '确认' }));
    await waitFor(() => expect(api.callsTo('DELETE /commands/:id').at(-1)?.path).toBe('/commands/m1,m2'));
  });
});
