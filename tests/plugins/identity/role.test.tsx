import { reply, renderPlugin } from '@/core/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import identity from '../../../plugins/identity';
import { admin } from './keys';

vi.setConfig({ testTimeout: 30_000 });

const node = (key: string, zh: string, en: string, children: unknown[] | null = null) => ({ title: zh, titles: { 'zh-CN': zh, 'en-US': en }, key, children });
const menus = [
  node('dashboard', '控制面板', 'Dashboard'),
  node('identity', '身份', 'Identity', [
    node('user', '用户页', 'Users', [node('user-add', '用户新建', 'Add user'), node('user-del', '用户删除', 'Delete user')]),
    node('role', '角色页', 'Roles', [node('role-add', '角色新建', 'Add role'), node('role-detail', '角色详情页', 'Role detail')]),
    node('user-group', '用户组页', 'User groups'),
  ]),
];

const builtIn = { id: 'r1', name: '系统管理员', type: 'default', deletable: false, modifiable: false, created: '2026-11-01 10:00:00', menus: null };
const custom = { id: 'r2', name: '审计员', type: 'new', deletable: true, modifiable: true, created: '2026-11-02 10:00:00', menus: null };
const page = { total: 2, items: [builtIn, custom] };
const FIRST = { pageIndex: 1, pageSize: 10, order: '', field: '' };

const row = (name: string) => {
  const tr = screen.getByText(name, { selector: 'a, td, td *' }).closest('tr');
  if (!tr) throw new Error(`no row for ${name}`);
  return within(tr);
};
const item = (label: string) => screen.getByRole('treeitem', { name: label });
const box = (label: string) => within(item(label)).getAllByRole('checkbox')[0] as HTMLElement;
// Only the roots start open.
const expand = async (user: { click: (el: Element) => Promise<void> }, label: string) => {
  if (item(label).getAttribute('aria-expanded') !== 'true') await user.click(screen.getByText(label));
  await waitFor(() => expect(item(label)).toHaveAttribute('aria-expanded', 'true'));
};

describe('identity: roles', () => {
  it('lists roles with the paging query, searches by name and type', async () => {
    const { user, api } = await renderPlugin(identity, { route: '/role', session: admin(), api: { 'GET /roles/paging': page } });
    expect(await screen.findByRole('link', { name: '审计员' })).toHaveAttribute('href', '/role/r2');
    expect(api.callsTo('GET /roles/paging')[0]?.query).toEqual(FIRST);
    expect(row('系统管理员').getByText('内置角色')).toBeInTheDocument();
    expect(row('审计员').getByText('用户添加')).toBeInTheDocument();
    // Built-in roles cannot be edited or deleted.
    expect(row('系统管理员').getByRole('button', { name: '编辑' })).toBeDisabled();
    expect(row('系统管理员').getByRole('button', { name: '删除' })).toBeDisabled();
    expect(row('审计员').getByRole('button', { name: '编辑' })).toBeEnabled();

    await user.type(screen.getByRole('textbox', { name: '名称' }), '审计');
    await user.click(await screen.findByRole('radio', { name: '用户添加' }));
    await user.click(await screen.findByRole('button', { name: '查询' }));
    await waitFor(() => expect(api.callsTo('GET /roles/paging').at(-1)?.query).toEqual({ ...FIRST, name: '审计', type: 'new' }));
  });

  it('creates a role: validation, then the menus body from the tree', async () => {
    const { user, api } = await renderPlugin(identity, {
      route: '/role',
      session: admin(),
      api: { 'GET /roles/paging': page, 'GET /menus': menus, 'POST /roles': '' },
    });
    await user.click(await screen.findByRole('button', { name: '新建' }));
    const dialog = within(await screen.findByRole('dialog', { name: '新建角色' }));
    await user.click(dialog.getByRole('button', { name: '确定' }));
    expect(await dialog.findByText('请输入角色名称')).toBeInTheDocument();
    expect(dialog.getByText('请选择权限')).toBeInTheDocument();

    await user.type(dialog.getByRole('textbox', { name: /名称/ }), '运维');
    await user.click(box('角色页')); // a parent: checks its whole branch
    await user.click(box('用户页'));
    await expand(user, '用户页');
    await user.click(box('用户删除')); // and one back off
    expect(item('身份')).toHaveAttribute('aria-checked', 'mixed');
    expect(item('用户页')).toHaveAttribute('aria-checked', 'mixed');
    expect(item('角色页')).toHaveAttribute('aria-checked', 'true');
    await user.click(dialog.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(api.callsTo('POST /roles')).toHaveLength(1));
    expect(api.callsTo('POST /roles')[0]?.body).toEqual({
      name: '运维',
      menus: [
        { menuId: 'identity', checked: false },
        { menuId: 'user', checked: false },
        { menuId: 'user-add', checked: true },
        { menuId: 'role', checked: true },
        { menuId: 'role-add', checked: true },
        { menuId: 'role-detail', checked: true },
      ],
    });
  });

  it('round-trips the permission tree of an existing role', async () => {
    const { user, api } = await renderPlugin(identity, {
      route: '/role',
      session: admin(),
      api: {
        'GET /roles/paging': page,
        'GET /menus': menus,
        'GET /roles/:id': {
          ...custom,
          menus: [
            { id: '', roleId: '', menuId: 'identity', checked: false },
            { id: '', roleId: '', menuId: 'user', checked: false },
            { id: '', roleId: '', menuId: 'user-add', checked: true },
            { id: '', roleId: '', menuId: 'role', checked: true },
          ],
        },
        'PUT /roles/:id': '',
      },
    });
    await screen.findByRole('link', { name: '审计员' });
    await user.click(row('审计员').getByRole('button', { name: '编辑' }));
    const dialog = within(await screen.findByRole('dialog', { name: '更新角色' }));
    expect(await dialog.findByRole('textbox', { name: /名称/ })).toHaveValue('审计员');
    expect(item('身份')).toHaveAttribute('aria-checked', 'mixed');
    expect(item('用户页')).toHaveAttribute('aria-checked', 'mixed');
    await expand(user, '用户页');
    await expand(user, '角色页');
    expect(item('用户新建')).toHaveAttribute('aria-checked', 'true');
    expect(item('用户删除')).toHaveAttribute('aria-checked', 'false');
    expect(item('角色页')).toHaveAttribute('aria-checked', 'true'); // checked parent: its children follow
    expect(item('角色新建')).toHaveAttribute('aria-checked', 'true');

    await user.click(box('用户删除'));
    await user.click(box('角色新建'));
    await user.click(box('控制面板'));
    await user.click(dialog.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(api.callsTo('PUT /roles/:id')).toHaveLength(1));
    const put = api.callsTo('PUT /roles/:id')[0];
    expect(put?.path).toBe('/roles/r2');
    expect(put?.body).toEqual({
      name: '审计员',
      menus: [
        { menuId: 'dashboard', checked: true },
        { menuId: 'identity', checked: false },
        { menuId: 'user', checked: true },
        { menuId: 'user-add', checked: true },
        { menuId: 'user-del', checked: true },
        { menuId: 'role', checked: false },
        { menuId: 'role-detail', checked: true },
      ],
    });
  });

  it('shows a refusal inside the dialog', async () => {
    const { user } = await renderPlugin(identity, {
      route: '/role',
      session: admin(),
      api: { 'GET /roles/paging': page, 'GET /menus': menus, 'POST /roles': reply.envelope(-1, '不能授予您自己没有的权限：role-add') },
    });
    await user.click(await screen.findByRole('button', { name: '新建' }));
    const dialog = within(await screen.findByRole('dialog', { name: '新建角色' }));
    await user.type(dialog.getByRole('textbox', { name: /名称/ }), 'x');
    await user.click(box('控制面板'));
    await user.click(dialog.getByRole('button', { name: '确定' }));
    expect(await dialog.findByText('不能授予您自己没有的权限：role-add')).toBeInTheDocument();
  });

  it('deletes after confirming; cancel sends nothing', async () => {
    const { user, api } = await renderPlugin(identity, { route: '/role', session: admin(), api: { 'GET /roles/paging': page, 'DELETE /roles/:id': null } });
    await screen.findByRole('link', { name: '审计员' });
    await user.click(row('审计员').getByRole('button', { name: '删除' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: '取消' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(api.callsTo('DELETE /roles/:id')).toHaveLength(0);
    await user.click(await waitFor(() => row('审计员').getByRole('button', { name: '删除' })));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: '确认' }));
    await waitFor(() => expect(api.callsTo('DELETE /roles/:id').map((c) => c.path)).toEqual(['/roles/r2']));
  });

  it('hides buttons without their keys', async () => {
    await renderPlugin(identity, { route: '/role', session: admin(['role']), api: { 'GET /roles/paging': page } });
    await screen.findByText('审计员');
    expect(screen.queryByRole('link', { name: '审计员' })).toBeNull();
    for (const name of ['新建', '编辑', '删除']) expect(screen.queryByRole('button', { name })).toBeNull();
    expect(screen.queryByRole('link', { name: '详情' })).toBeNull();
  });

  it('shows the detail page with the read-only tree, in English too', async () => {
    const detail = {
      ...custom,
      menus: [
        { id: '', roleId: '', menuId: 'identity', checked: false },
        { id: '', roleId: '', menuId: 'role', checked: true },
      ],
    };
    const view = await renderPlugin(identity, { route: '/role/r2', session: admin(), api: { 'GET /roles/:id': detail, 'GET /menus': menus } });
    expect(await screen.findByRole('tree', { name: '权限' })).toBeInTheDocument();
    const info = within(screen.getByRole('tabpanel'));
    expect(info.getByText('用户添加')).toBeInTheDocument();
    expect(info.getByText('2026-11-02 10:00:00')).toBeInTheDocument();
    expect(item('身份')).toHaveAttribute('aria-checked', 'mixed');
    expect(item('角色页')).toHaveAttribute('aria-checked', 'true');
    await view.user.click(box('控制面板'));
    expect(item('控制面板')).toHaveAttribute('aria-checked', 'false');
    view.unmount();

    await renderPlugin(identity, { route: '/role/r2', lng: 'en-US', session: admin(), api: { 'GET /roles/:id': detail, 'GET /menus': menus } });
    expect(await screen.findByRole('tree', { name: 'Permissions' })).toBeInTheDocument();
    expect(item('Identity')).toHaveAttribute('aria-checked', 'mixed');
  });

  it('shows an error state for a missing role', async () => {
    await renderPlugin(identity, {
      route: '/role/nope',
      session: admin(),
      api: { 'GET /roles/:id': reply.envelope(-1, '角色不存在：nope'), 'GET /menus': menus },
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('角色不存在：nope');
  });

  it('shows the 403 page without the role key', async () => {
    await renderPlugin(identity, { route: '/role', session: admin(['user']) });
    expect(screen.getByText('抱歉，您似乎没有此页面的权限。')).toBeInTheDocument();
  });
});
