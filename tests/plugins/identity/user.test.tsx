import { expectValidPlugin, reply, renderPlugin } from '@/core/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

vi.setConfig({ testTimeout: 30_000 });
import identity from '../../../plugins/identity';
import { admin } from './keys';

const ann = {
  id: 'u1',
  username: 'ann',
  nickname: 'Ann',
  mail: 'ann@example.com',
  type: 'admin',
  status: 'enabled',
  online: true,
  totpSecret: '1',
  source: '',
  created: '2026-11-01 10:00:00',
};
const bob = { ...ann, id: 'u2', username: 'bob', nickname: 'Bob', mail: '', type: 'user', status: 'disabled', online: false, totpSecret: '0' };
const page = { total: 2, items: [ann, bob] };
const roles = [
  { id: 'r1', name: '系统管理员', type: 'default', deletable: false, modifiable: false, created: '2026-11-01 10:00:00', menus: null },
  { id: 'r2', name: '审计员', type: 'new', deletable: true, modifiable: true, created: '2026-11-01 10:00:00', menus: null },
];

const FIRST = { pageIndex: 1, pageSize: 10, order: '', field: '' };

const row = (name: string) => {
  const cell = screen.getByText(name, { selector: 'a, td, td *' });
  const tr = cell.closest('tr');
  if (!tr) throw new Error(`no row for ${name}`);
  return within(tr);
};

describe('identity: users', () => {
  it('is a valid plugin', async () => {
    await expectValidPlugin(identity);
  });

  it('lists users with the paging query and shows their fields', async () => {
    const { api } = await renderPlugin(identity, { route: '/user', session: admin(), api: { 'GET /users/paging': page } });
    expect(await screen.findByRole('link', { name: 'Ann' })).toHaveAttribute('href', '/user/u1');
    expect(api.callsTo('GET /users/paging')[0]?.query).toEqual(FIRST);
    const a = row('Ann');
    expect(a.getByText('ann@example.com')).toBeInTheDocument();
    expect(a.getByText('管理用户')).toBeInTheDocument();
    expect(a.getByText('在线')).toBeInTheDocument();
    expect(a.getByText('开启')).toBeInTheDocument();
    expect(a.getByRole('switch', { name: '启用「Ann」' })).toBeChecked();
    const b = row('Bob');
    expect(b.getByText('普通用户')).toBeInTheDocument();
    expect(b.getByText('离线')).toBeInTheDocument();
    expect(b.getByText('关闭')).toBeInTheDocument();
    expect(b.getByRole('switch', { name: '启用「Bob」' })).not.toBeChecked();
    expect(screen.getByRole('tree', { name: '主菜单' })).toHaveTextContent('用户管理');
  });

  it('on a direct open the table takes the entry\'s early answer for its first page (once), then asks the server', async () => {
    const [url] = identity.pages.find((p) => p.path === '/user')?.opensWith ?? [];
    expect(url).toBe('/users/paging?pageIndex=1&pageSize=10&order=&field=');
    const early = { [url!]: { code: 1, message: '', data: { total: 1, items: [bob] } } };
    const { user, api } = await renderPlugin(identity, { route: '/user', session: admin(), api: { 'GET /users/paging': page }, early });
    expect(await screen.findByRole('link', { name: 'Bob' })).toBeInTheDocument();
    expect(api.callsTo('GET /users/paging')).toHaveLength(0);
    // The next request of the same page (refresh) is the server's: the early answer served once.
    await user.click(screen.getByRole('button', { name: '刷新' }));
    expect(await screen.findByRole('link', { name: 'Ann' })).toBeInTheDocument();
    expect(api.callsTo('GET /users/paging').map((c) => c.url)).toEqual([url]);
  });

  it('sends the search filters and pages', async () => {
    const many = { total: 25, items: [ann] };
    const { user, api } = await renderPlugin(identity, { route: '/user', session: admin(), api: { 'GET /users/paging': many } });
    await screen.findByRole('link', { name: 'Ann' });
    await user.type(screen.getByRole('textbox', { name: '用户昵称' }), 'An');
    await user.type(screen.getByRole('textbox', { name: '邮箱' }), 'example');
    await user.click(await screen.findByRole('radio', { name: '离线' }));
    await user.click(await screen.findByRole('button', { name: '查询' }));
    await waitFor(() =>
      expect(api.callsTo('GET /users/paging').at(-1)?.query).toEqual({ ...FIRST, nickname: 'An', mail: 'example', online: 'false' }),
    );
    await user.click(await screen.findByRole('button', { name: '下一页' }));
    await waitFor(() =>
      expect(api.callsTo('GET /users/paging').at(-1)?.query).toEqual({ ...FIRST, pageIndex: 2, nickname: 'An', mail: 'example', online: 'false' }),
    );
  });

  it('validates the create form, then posts the exact body', async () => {
    const { user, api, eventsOf } = await renderPlugin(identity, {
      route: '/user',
      session: admin(),
      api: { 'GET /users/paging': page, 'GET /roles': roles, 'POST /users': { ...ann, id: 'u3' } },
    });
    await user.click(await screen.findByRole('button', { name: '新建' }));
    const dialog = within(await screen.findByRole('dialog', { name: '新建用户' }));
    await user.click(dialog.getByRole('button', { name: '确定' }));
    expect(await dialog.findByText('请输入登录账号')).toBeInTheDocument();
    expect(dialog.getByText('请输入用户昵称')).toBeInTheDocument();
    expect(dialog.getByText('请选择类型')).toBeInTheDocument();
    expect(dialog.getByText('请输入登录密码')).toBeInTheDocument();
    expect(dialog.queryByText('角色')).toBeNull(); // roles only for admins

    await user.type(dialog.getByRole('textbox', { name: /登录账号/ }), 'carl');
    await user.type(dialog.getByRole('textbox', { name: /昵称/ }), 'Carl');
    await user.click(dialog.getByRole('radio', { name: '管理用户' }));
    await user.type(dialog.getByRole('textbox', { name: /邮箱/ }), 'not-a-mail');
    await user.type(dialog.getByLabelText(/登录密码/), 'Secret-123');
    await user.click(dialog.getByRole('button', { name: '确定' }));
    expect(await dialog.findByText('请选择用户角色')).toBeInTheDocument();
    expect(dialog.getByText('请输入正确的邮箱')).toBeInTheDocument();
    expect(api.callsTo('POST /users')).toHaveLength(0);

    await user.clear(dialog.getByRole('textbox', { name: /邮箱/ }));
    await user.type(dialog.getByRole('textbox', { name: /邮箱/ }), 'carl@example.com');
    await user.click(dialog.getByRole('combobox', { name: /角色/ }));
    await user.click(await screen.findByRole('menuitemcheckbox', { name: '审计员' }));
    await user.keyboard('{Escape}');
    await user.click(dialog.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(api.callsTo('POST /users')).toHaveLength(1));
    expect(api.callsTo('POST /users')[0]?.body).toEqual({
      username: 'carl',
      nickname: 'Carl',
      type: 'admin',
      mail: 'carl@example.com',
      roles: ['r2'],
      password: 'Secret-123',
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(eventsOf('notify')).toContainEqual({ intent: 'success', message: '保存成功' });
    await waitFor(() => expect(api.callsTo('GET /users/paging').length).toBeGreaterThan(1));
  });

  it('shows a server refusal inside the dialog', async () => {
    const { user, eventsOf } = await renderPlugin(identity, {
      route: '/user',
      session: admin(),
      api: { 'GET /users/paging': page, 'GET /roles': roles, 'POST /users': reply.envelope(-1, '登录账号「ann」已被使用') },
    });
    await user.click(await screen.findByRole('button', { name: '新建' }));
    const dialog = within(await screen.findByRole('dialog', { name: '新建用户' }));
    await user.type(dialog.getByRole('textbox', { name: /登录账号/ }), 'ann');
    await user.type(dialog.getByRole('textbox', { name: /昵称/ }), 'Ann');
    await user.click(dialog.getByRole('radio', { name: '普通用户' }));
    // Under eight characters the form says so itself, before the server would.
    await user.type(dialog.getByLabelText(/登录密码/), 'pw');
    await user.click(dialog.getByRole('button', { name: '确定' }));
    expect(await dialog.findByText('登录密码至少为8个字符')).toBeInTheDocument();
    await user.type(dialog.getByLabelText(/登录密码/), '-at-least-8');
    await user.click(dialog.getByRole('button', { name: '确定' }));
    expect(await dialog.findByText('登录账号「ann」已被使用')).toBeInTheDocument();
    expect(eventsOf('notify')).toEqual([]);
  });

  it('shows a taken username on the username field (the server names the field), focused', async () => {
    const { user } = await renderPlugin(identity, {
      route: '/user',
      session: admin(),
      api: { 'GET /users/paging': page, 'GET /roles': roles, 'POST /users': reply.envelope(-1, '登录账号「ann」已被使用', { field: 'username' }) },
    });
    await user.click(await screen.findByRole('button', { name: '新建' }));
    const dialog = within(await screen.findByRole('dialog', { name: '新建用户' }));
    const username = dialog.getByRole('textbox', { name: /登录账号/ });
    expect(username).toHaveAttribute('maxlength', '64');
    await user.type(username, 'ann');
    await user.type(dialog.getByRole('textbox', { name: /昵称/ }), 'Ann');
    await user.click(dialog.getByRole('radio', { name: '普通用户' }));
    await user.type(dialog.getByLabelText(/登录密码/), 'long-enough-1');
    await user.click(dialog.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(username).toHaveAttribute('aria-invalid', 'true'));
    expect(username).toHaveAccessibleDescription('登录账号「ann」已被使用');
    await waitFor(() => expect(username).toHaveFocus());
    await user.type(username, '2');
    await waitFor(() => expect(username).not.toHaveAttribute('aria-invalid', 'true'));
  });

  it('edits a user with PUT on its id (no password field)', async () => {
    const { user, api } = await renderPlugin(identity, {
      route: '/user',
      session: admin(),
      api: {
        'GET /users/paging': page,
        'GET /roles': roles,
        'GET /users/:id': { ...ann, roles: ['r1'] },
        'PUT /users/:id': null,
      },
    });
    await screen.findByRole('link', { name: 'Ann' });
    await user.click(row('Ann').getByRole('button', { name: '编辑' }));
    const dialog = within(await screen.findByRole('dialog', { name: '更新用户' }));
    const nickname = await dialog.findByRole('textbox', { name: /昵称/ });
    expect(nickname).toHaveValue('Ann');
    expect(dialog.queryByLabelText(/登录密码/)).toBeNull();
    await user.clear(nickname);
    await user.type(nickname, 'Annie');
    await user.click(dialog.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(api.callsTo('PUT /users/:id')).toHaveLength(1));
    const put = api.callsTo('PUT /users/:id')[0];
    expect(put?.path).toBe('/users/u1');
    expect(put?.body).toEqual({ username: 'ann', nickname: 'Annie', type: 'admin', mail: 'ann@example.com', roles: ['r1'] });
  });

  it('deletes a row after confirming; cancel sends nothing', async () => {
    const { user, api } = await renderPlugin(identity, { route: '/user', session: admin(), api: { 'GET /users/paging': page, 'DELETE /users/:id': null } });
    await screen.findByRole('link', { name: 'Ann' });
    await user.click(row('Ann').getByRole('button', { name: '删除' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: '取消' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(api.callsTo('DELETE /users/:id')).toHaveLength(0);

    await user.click(await waitFor(() => row('Ann').getByRole('button', { name: '删除' })));
    const confirm = within(await screen.findByRole('alertdialog'));
    expect(confirm.getByText('您确认要删除此行吗?')).toBeInTheDocument();
    await user.click(confirm.getByRole('button', { name: '确认' }));
    await waitFor(() => expect(api.callsTo('DELETE /users/:id').map((c) => c.path)).toEqual(['/users/u1']));
  });

  it('runs the batch actions on the selection', async () => {
    const { user, api, eventsOf } = await renderPlugin(identity, {
      route: '/user',
      session: admin(),
      api: {
        'GET /users/paging': page,
        'POST /users/:id/change-password': '',
        'POST /users/:id/reset-totp': '',
        'DELETE /users/:id': null,
      },
    });
    await screen.findByRole('link', { name: 'Ann' });
    const selectBoth = async () => {
      await user.click(await screen.findByRole('checkbox', { name: '选择「Ann」' }));
      await user.click(await screen.findByRole('checkbox', { name: '选择「Bob」' }));
    };

    await selectBoth();
    await user.click(await screen.findByRole('button', { name: '修改密码' }));
    const dialog = within(await screen.findByRole('dialog', { name: '修改密码' }));
    await user.type(dialog.getByLabelText(/^新密码/), 'New-Pass-1');
    await user.type(dialog.getByLabelText(/^确认密码/), 'other');
    await user.click(dialog.getByRole('button', { name: '确定' }));
    expect(await dialog.findByText('两次输入的密码不一致')).toBeInTheDocument();
    await user.clear(dialog.getByLabelText(/^确认密码/));
    await user.type(dialog.getByLabelText(/^确认密码/), 'New-Pass-1');
    await user.click(dialog.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(api.callsTo('POST /users/:id/change-password')).toHaveLength(1));
    const change = api.callsTo('POST /users/:id/change-password')[0];
    expect(change?.path).toBe('/users/u1,u2/change-password');
    expect(change?.body).toEqual({ password: 'New-Pass-1' });
    await waitFor(() => expect(eventsOf('notify')).toContainEqual({ intent: 'success', message: '修改成功' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await selectBoth();
    await user.click(await screen.findByRole('button', { name: '重置双因素认证' }));
    const reset = within(await screen.findByRole('alertdialog'));
    expect(reset.getByText('您确定要重置用户的双因素认证信息吗？')).toBeInTheDocument();
    expect(reset.getByText('重置后用户无需二次认证即可登录系统。')).toBeInTheDocument();
    await user.click(reset.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(api.callsTo('POST /users/:id/reset-totp').map((c) => c.path)).toEqual(['/users/u1,u2/reset-totp']));
    await waitFor(() => expect(eventsOf('notify')).toContainEqual({ intent: 'success', message: '重置成功' }));

    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    await selectBoth();
    const batch = screen.getAllByRole('button', { name: '删除' }).find((b) => !b.closest('tr'));
    if (!batch) throw new Error('no batch delete');
    await user.click(batch);
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: '确认' }));
    await waitFor(() => expect(api.callsTo('DELETE /users/:id').map((c) => c.path)).toEqual(['/users/u1,u2']));
  });

  it('disables a user after a confirm and enables without one; never on the own row', async () => {
    const { user, api } = await renderPlugin(identity, {
      route: '/user',
      session: { user: { id: 'u2', menus: ['user', 'user-enable-disable'] } },
      api: { 'GET /users/paging': page, 'PATCH /users/:id/status': null },
    });
    await screen.findByText('Ann');
    expect(row('Bob').queryByRole('switch')).toBeNull(); // Bob is the signed-in user
    expect(row('Bob').getByText('禁用')).toBeInTheDocument();
    await user.click(row('Ann').getByRole('switch', { name: '启用「Ann」' }));
    const confirm = within(await screen.findByRole('alertdialog'));
    expect(confirm.getByText('您确定要禁用用户「Ann」吗？')).toBeInTheDocument();
    await user.click(confirm.getByRole('button', { name: '禁用' }));
    await waitFor(() => expect(api.callsTo('PATCH /users/:id/status')).toHaveLength(1));
    expect(api.callsTo('PATCH /users/:id/status')[0]).toMatchObject({ path: '/users/u1/status', query: { status: 'disabled' } });
  });

  it('shows 删除 on the own row but does not offer it (the server refuses it), nor in a batch', async () => {
    const { user, api } = await renderPlugin(identity, {
      route: '/user',
      session: { user: { id: 'u2', menus: ['user', 'user-del'] } },
      api: { 'GET /users/paging': page, 'DELETE /users/:id': null },
    });
    await screen.findByText('Ann');
    expect(row('Bob').getByRole('button', { name: '删除' })).toBeDisabled(); // Bob is the signed-in user
    expect(row('Ann').getByRole('button', { name: '删除' })).toBeEnabled();
    // A batch with the own row deletes the others (the server refused the whole batch before), and says how many.
    const batch = () => screen.getAllByRole('button', { name: '删除' }).find((b) => !b.closest('tr')) as HTMLElement;
    await user.click(row('Bob').getByRole('checkbox'));
    expect(batch()).toBeDisabled();
    await user.click(row('Ann').getByRole('checkbox'));
    expect(batch()).toBeEnabled();
    await user.click(batch());
    const asked = within(await screen.findByRole('alertdialog'));
    expect(asked.getByText('您确定要删除选中的 1 个用户吗？')).toBeInTheDocument();
    await user.click(asked.getByRole('button', { name: '确认' }));
    await waitFor(() => expect(api.callsTo('DELETE /users/:id').map((c) => c.path)).toEqual(['/users/u1']));
  });

  it('hides what the session lacks the keys for', async () => {
    await renderPlugin(identity, { route: '/user', session: { user: { menus: ['user'] } }, api: { 'GET /users/paging': page } });
    await screen.findByText('Ann');
    expect(screen.queryByRole('link', { name: 'Ann' })).toBeNull();
    for (const name of ['新建', '编辑', '删除', '修改密码', '重置双因素认证', '更多操作']) {
      expect(screen.queryByRole('button', { name })).toBeNull();
    }
    expect(screen.queryByRole('switch')).toBeNull();
    expect(row('Ann').getByText('启用')).toBeInTheDocument();
  });

  it('shows the 403 page without the user key', async () => {
    await renderPlugin(identity, { route: '/user', session: { user: { menus: ['role'] } } });
    expect(screen.getByText('抱歉，您似乎没有此页面的权限。')).toBeInTheDocument();
  });

  it('opens the detail page from the row’s 详情 (a ⋯ menu of one item is a plain link) and shows the fields', async () => {
    const { user, location } = await renderPlugin(identity, {
      route: '/user',
      session: admin(),
      api: {
        'GET /users/paging': page,
        'GET /users/:id': { ...ann, source: 'ldap', roles: ['r2'] },
        'GET /roles': roles,
      },
    });
    await screen.findByRole('link', { name: 'Ann' });
    expect(row('Ann').queryByRole('button', { name: '更多操作' })).toBeNull();
    await user.click(row('Ann').getByRole('link', { name: '详情' }));
    await waitFor(() => expect(location()).toMatchObject({ pathname: '/user/u1', search: '?activeKey=info' }));
    expect(await screen.findByRole('tab', { name: '基本信息' })).toBeInTheDocument();
    const info = within(screen.getByRole('tabpanel'));
    for (const text of ['ann', 'ann@example.com', '管理用户', '启用', '开启', 'LDAP', '审计员', '2026-11-01 10:00:00']) {
      expect(info.getByText(text)).toBeInTheDocument();
    }
    expect(within(screen.getByRole('navigation', { name: '面包屑导航' })).getByText('用户详情')).toBeInTheDocument();
  });

  it('shows an error state for a missing user', async () => {
    await renderPlugin(identity, {
      route: '/user/nope',
      session: admin(),
      api: { 'GET /users/:id': reply.envelope(-1, '用户不存在：nope'), 'GET /roles': roles },
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('用户不存在：nope');
  });

  it('offers 重试 when the detail failed to load, and shows the user once it loads', async () => {
    let answer: unknown = reply.networkError();
    const { user } = await renderPlugin(identity, {
      route: '/user/u1',
      session: admin(),
      api: { 'GET /users/:id': () => answer, 'GET /roles': roles },
    });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('网络异常');
    answer = { ...ann, roles: [] };
    await user.click(within(alert).getByRole('button', { name: '重试' }));
    expect(await screen.findByRole('tab', { name: '基本信息' })).toBeInTheDocument();
    expect(within(screen.getByRole('tabpanel')).getByText('ann@example.com')).toBeInTheDocument();
  });
});
