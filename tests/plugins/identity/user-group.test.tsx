import { reply, renderPlugin } from '@/core/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import identity from '../../../plugins/identity';
import { admin } from './keys';

vi.setConfig({ testTimeout: 30_000 });

const ops = { id: 'g1', name: '运维组', created: '2026-11-01 10:00:00', assetCount: 0 };
const dev = { id: 'g2', name: '开发组', created: '2026-11-02 10:00:00', assetCount: 0 };
const page = { total: 2, items: [ops, dev] };
const people = [
  { id: 'u1', username: 'ann', nickname: 'Ann' },
  { id: 'u2', username: 'bob', nickname: 'Bob' },
  { id: 'u3', username: 'carl', nickname: 'Carl' },
];
// The open list's options (the picked tags are options of their own listbox).
const choices = () => screen.getAllByRole('option').filter((o) => !o.closest('[aria-label="已选项"]')).map((o) => o.textContent);
const FIRST = { pageIndex: 1, pageSize: 10, order: '', field: '' };

const row = (name: string) => {
  const tr = screen.getByText(name, { selector: 'a, td, td *' }).closest('tr');
  if (!tr) throw new Error(`no row for ${name}`);
  return within(tr);
};

describe('identity: user groups', () => {
  it('lists groups with the paging query, searches and pages', async () => {
    const { user, api } = await renderPlugin(identity, {
      route: '/user-group',
      session: admin(),
      api: { 'GET /user-groups/paging': { total: 11, items: [ops, dev] } },
    });
    expect(await screen.findByRole('link', { name: '运维组' })).toHaveAttribute('href', '/user-group/g1');
    expect(api.callsTo('GET /user-groups/paging')[0]?.query).toEqual(FIRST);
    expect(row('运维组').getByText('2026-11-01 10:00:00')).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: '名称' }), '运维');
    await user.click(await screen.findByRole('button', { name: '查询' }));
    await waitFor(() => expect(api.callsTo('GET /user-groups/paging').at(-1)?.query).toEqual({ ...FIRST, name: '运维' }));
    await user.click(await screen.findByRole('button', { name: '下一页' }));
    await waitFor(() => expect(api.callsTo('GET /user-groups/paging').at(-1)?.query).toEqual({ ...FIRST, pageIndex: 2, name: '运维' }));
  });

  it('creates a group: required name, members picked with a filtering search', async () => {
    const { user, api } = await renderPlugin(identity, {
      route: '/user-group',
      session: admin(),
      api: { 'GET /user-groups/paging': page, 'GET /users': people, 'POST /user-groups': { id: 'g3' } },
    });
    await user.click(await screen.findByRole('button', { name: '新建' }));
    const dialog = within(await screen.findByRole('dialog', { name: '新建用户组' }));
    await user.click(dialog.getByRole('button', { name: '确定' }));
    expect(await dialog.findByText('请输入用户组名称')).toBeInTheDocument();

    await user.type(dialog.getByRole('textbox', { name: /名称/ }), '测试组');
    const members = dialog.getByRole('combobox', { name: /用户组成员/ });
    await user.click(members);
    await user.type(members, 'car');
    await waitFor(() => expect(choices()).toEqual(['Carl (carl)']));
    await user.click(await screen.findByRole('option', { name: 'Carl (carl)' }));
    await user.type(members, 'BO');
    await waitFor(() => expect(choices()).toEqual(['Bob (bob)']));
    await user.click(await screen.findByRole('option', { name: 'Bob (bob)' }));
    await user.type(members, 'zzz');
    await waitFor(() => expect(choices()).toEqual(['无匹配结果']));
    await user.keyboard('{Escape}');
    await user.click(dialog.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(api.callsTo('POST /user-groups')).toHaveLength(1));
    expect(api.callsTo('POST /user-groups')[0]?.body).toEqual({ name: '测试组', members: ['u3', 'u2'] });
  });

  it('edits a group with PUT on its id, keeping and removing members', async () => {
    const { user, api } = await renderPlugin(identity, {
      route: '/user-group',
      session: admin(),
      api: {
        'GET /user-groups/paging': page,
        'GET /users': people,
        'GET /user-groups/:id': { ...ops, members: [{ id: 'u1', name: 'Ann' }, { id: 'u2', name: 'Bob' }] },
        'PUT /user-groups/:id': null,
      },
    });
    await screen.findByRole('link', { name: '运维组' });
    await user.click(row('运维组').getByRole('button', { name: '编辑' }));
    const dialog = within(await screen.findByRole('dialog', { name: '更新用户组' }));
    expect(await dialog.findByRole('textbox', { name: /名称/ })).toHaveValue('运维组');
    const picked = within(await dialog.findByRole('listbox', { name: '已选项' }));
    expect(picked.getAllByRole('option').map((o) => o.textContent)).toEqual(['Ann (ann)', 'Bob (bob)']);
    await user.click(picked.getByRole('option', { name: 'Ann (ann) 移除' }));
    await user.click(dialog.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(api.callsTo('PUT /user-groups/:id')).toHaveLength(1));
    expect(api.callsTo('PUT /user-groups/:id')[0]).toMatchObject({ path: '/user-groups/g1', body: { name: '运维组', members: ['u2'] } });
  });

  it('deletes one after confirming (cancel sends nothing) and several at once', async () => {
    const { user, api } = await renderPlugin(identity, {
      route: '/user-group',
      session: admin(),
      api: { 'GET /user-groups/paging': page, 'DELETE /user-groups/:id': null },
    });
    await screen.findByRole('link', { name: '运维组' });
    await user.click(row('运维组').getByRole('button', { name: '删除' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: '取消' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(api.callsTo('DELETE /user-groups/:id')).toHaveLength(0);

    await user.click(await screen.findByRole('checkbox', { name: '全选当前页' }));
    const batch = screen.getAllByRole('button', { name: '删除' }).find((b) => !b.closest('tr'));
    if (!batch) throw new Error('no batch delete');
    await user.click(batch);
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: '确认' }));
    await waitFor(() => expect(api.callsTo('DELETE /user-groups/:id').map((c) => c.path)).toEqual(['/user-groups/g1,g2']));
  });

  it('hides buttons without their keys and shows 403 without user-group', async () => {
    const view = await renderPlugin(identity, { route: '/user-group', session: admin(['user-group']), api: { 'GET /user-groups/paging': page } });
    await screen.findByText('运维组');
    expect(screen.queryByRole('link', { name: '运维组' })).toBeNull();
    for (const name of ['新建', '编辑', '删除', '更多操作']) expect(screen.queryByRole('button', { name })).toBeNull();
    view.unmount();
    await renderPlugin(identity, { route: '/user-group', session: admin(['user']) });
    expect(screen.getByText('抱歉，您似乎没有此页面的权限。')).toBeInTheDocument();
  });

  it('shows the detail page with members as tags, and an error for a missing group', async () => {
    const view = await renderPlugin(identity, {
      route: '/user-group/g1',
      session: admin(),
      api: { 'GET /user-groups/:id': { ...ops, members: [{ id: 'u1', name: 'Ann' }, { id: 'u2', name: 'Bob' }] } },
    });
    const info = within(await screen.findByRole('tabpanel'));
    for (const text of ['运维组', 'Ann', 'Bob', '2026-11-01 10:00:00']) expect(info.getByText(text)).toBeInTheDocument();
    expect(within(screen.getByRole('navigation', { name: '面包屑导航' })).getByText('用户组详情')).toBeInTheDocument();
    view.unmount();

    await renderPlugin(identity, {
      route: '/user-group/nope',
      session: admin(),
      api: { 'GET /user-groups/:id': reply.envelope(-1, '用户组不存在：nope') },
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('用户组不存在：nope');
  });
});
