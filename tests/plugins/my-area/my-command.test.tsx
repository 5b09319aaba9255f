import { reply, renderPlugin } from '@/core/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import myArea from '../../../plugins/my-area';

vi.setConfig({ testTimeout: 30_000 });

const deploy = { id: 'm1', name: 'deploy', content: 'cd /srv/app\ngit pull', owner: 'u2', ownerName: '', created: '2026-11-01 10:00:00' };
const disk = { id: 'm2', name: 'disk', content: 'df -h', owner: 'u2', ownerName: '', created: '2026-11-02 10:00:00' };
const page = { total: 2, items: [deploy, disk] };
const FIRST = { pageIndex: 1, pageSize: 10, order: '', field: '' };
// A portal account: type user, no key at all.
const ann = { user: { id: 'u2', username: 'ann', nickname: 'Ann', type: 'user', menus: [] } };

const row = (name: string) => {
  const tr = screen.getByText(name, { selector: 'td' }).closest('tr');
  if (!tr) throw new Error(`no row for ${name}`);
  return within(tr);
};

describe('my-area plugin: 我的指令', () => {
  it('lists the caller’s commands (no owner column), copies one, and searches by name and content', async () => {
    const { user, api, eventsOf } = await renderPlugin(myArea, { session: ann, route: '/my-command', api: { 'GET /worker/commands/paging': page } });
    await screen.findByText('deploy', { selector: 'td' });
    expect(screen.getByRole('navigation', { name: '个人导航' })).toBeInTheDocument();
    expect(within(screen.getByRole('navigation', { name: '个人导航' })).getByRole('button', { name: '我的指令' })).toHaveAttribute('aria-current', 'page');
    expect(api.callsTo('GET /worker/commands/paging')[0]?.query).toEqual(FIRST);
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(expect.arrayContaining(['指令名称', '指令内容', '创建时间', '操作']));
    expect(screen.queryByRole('columnheader', { name: '所有者' })).toBeNull();
    await user.click(row('deploy').getByRole('button', { name: '复制「deploy」的内容' }));
    await waitFor(() => expect(eventsOf('notify')).toContainEqual({ intent: 'success', message: '已复制' }));
    expect(await navigator.clipboard.readText()).toBe(deploy.content);

    await user.type(screen.getByRole('textbox', { name: '指令名称' }), 'dep');
    await user.type(screen.getByRole('textbox', { name: '指令内容' }), 'git');
    await user.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() => expect(api.callsTo('GET /worker/commands/paging').at(-1)?.query).toEqual({ ...FIRST, name: 'dep', content: 'git' }));
  });

  it('offers 新建, 编辑 and 删除 to an account holding no key, and no 执行 or 更换所有者', async () => {
    await renderPlugin(myArea, { session: ann, route: '/my-command', api: { 'GET /worker/commands/paging': page } });
    await screen.findByText('deploy', { selector: 'td' });
    expect(screen.getByRole('button', { name: '新建' })).toBeInTheDocument();
    for (const name of ['编辑', '删除']) expect(row('deploy').getByRole('button', { name })).toBeInTheDocument();
    for (const name of ['执行', '更换所有者']) expect(screen.queryByRole('button', { name })).toBeNull();
  });

  it('creates a command: required name and content, the content sent as typed, then a reload', async () => {
    const { user, api, eventsOf } = await renderPlugin(myArea, {
      session: ann,
      route: '/my-command',
      api: { 'GET /worker/commands/paging': page, 'POST /worker/commands': { id: 'm3' } },
    });
    await screen.findByText('deploy', { selector: 'td' });
    await user.click(screen.getByRole('button', { name: '新建' }));
    const dialog = within(await screen.findByRole('dialog', { name: '新建指令' }));
    const content = dialog.getByRole('textbox', { name: /指令内容/ });
    expect(content).toHaveAttribute('placeholder', '一行一个指令');
    await user.click(dialog.getByRole('button', { name: '确定' }));
    expect(await dialog.findByText('请输入指令名称')).toBeInTheDocument();
    expect(dialog.getByText('请输入指令内容')).toBeInTheDocument();
    expect(api.callsTo('POST /worker/commands')).toHaveLength(0);

    await user.type(dialog.getByRole('textbox', { name: /指令名称/ }), ' uptime ');
    await user.type(content, 'uptime{Enter}  free -m');
    await user.click(dialog.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(api.callsTo('POST /worker/commands')).toHaveLength(1));
    expect(api.callsTo('POST /worker/commands')[0]?.body).toEqual({ name: 'uptime', content: 'uptime\n  free -m' });
    await waitFor(() => expect(eventsOf('notify')).toContainEqual({ intent: 'success', message: '保存成功' }));
    await waitFor(() => expect(api.callsTo('GET /worker/commands/paging')).toHaveLength(2));
    expect(api.callsTo('POST /commands')).toHaveLength(0);
  });

  it('edits with the record from /worker/commands/:id and PUT on its id; a refusal stays in the dialog', async () => {
    const { user, api } = await renderPlugin(myArea, {
      session: ann,
      route: '/my-command',
      api: {
        'GET /worker/commands/paging': page,
        'GET /worker/commands/:id': { id: 'm2', name: 'disk', content: 'df -h' },
        'PUT /worker/commands/:id': reply.envelope(-1, '动态指令不存在：m2'),
      },
    });
    await screen.findByText('disk', { selector: 'td' });
    await user.click(row('disk').getByRole('button', { name: '编辑' }));
    const dialog = within(await screen.findByRole('dialog', { name: '更新指令' }));
    expect(await dialog.findByRole('textbox', { name: /指令内容/ })).toHaveValue('df -h');
    expect(api.callsTo('GET /worker/commands/:id').map((c) => c.path)).toContain('/worker/commands/m2');
    await user.type(dialog.getByRole('textbox', { name: /指令内容/ }), ' -x');
    await user.click(dialog.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(api.callsTo('PUT /worker/commands/:id')).toHaveLength(1));
    expect(api.callsTo('PUT /worker/commands/:id')[0]).toMatchObject({ path: '/worker/commands/m2', body: { name: 'disk', content: 'df -h -x' } });
    expect(await dialog.findByRole('alert')).toHaveTextContent('动态指令不存在：m2');
  });

  it('deletes one after confirming, several comma-joined; a refusal is shown', async () => {
    let refuse = false;
    const { user, api, eventsOf } = await renderPlugin(myArea, {
      session: ann,
      route: '/my-command',
      api: {
        'GET /worker/commands/paging': page,
        'DELETE /worker/commands/:id': () => (refuse ? reply.envelope(-1, '动态指令不存在：m2') : null),
      },
    });
    await screen.findByText('deploy', { selector: 'td' });
    await user.click(row('deploy').getByRole('button', { name: '删除' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: '确认' }));
    await waitFor(() => expect(api.callsTo('DELETE /worker/commands/:id').map((c) => c.path)).toEqual(['/worker/commands/m1']));
    await waitFor(() => expect(eventsOf('notify')).toContainEqual({ intent: 'success', message: '删除成功' }));

    refuse = true;
    await user.click(await screen.findByRole('checkbox', { name: '全选当前页' }));
    const batch = screen.getAllByRole('button', { name: '删除' }).find((b) => !b.closest('tr'));
    if (!batch) throw new Error('no batch delete');
    await user.click(batch);
    const ask = within(await screen.findByRole('alertdialog'));
    expect(ask.getByText('您确定要删除选中的 2 条指令吗？')).toBeInTheDocument();
    await user.click(ask.getByRole('button', { name: '确认' }));
    await waitFor(() => expect(api.callsTo('DELETE /worker/commands/:id').at(-1)?.path).toBe('/worker/commands/m1,m2'));
    await waitFor(() => expect(eventsOf('notify')).toContainEqual({ intent: 'error', message: '动态指令不存在：m2' }));
  });
});
