import { renderPlugin, typeDateTime } from '@/core/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import asset from '../../../plugins/asset';
import { asAdmin, FIRST, LISTS, page, web } from './fixtures';

vi.setConfig({ testTimeout: 30_000 });

const record = { ...web, accountType: 'custom', accessGatewayId: '', passwordSet: true };
const annGrant = {
  id: 'au1',
  userId: 'u1',
  userName: 'Ann',
  strategyId: 's1',
  strategyName: '只读',
  validFrom: '',
  validUntil: '',
  state: 'active',
  created: '2026-11-03 10:00:00',
};
const bobGrant = {
  ...annGrant,
  id: 'au2',
  userId: 'u2',
  userName: 'Bob',
  strategyId: '',
  strategyName: '',
  validFrom: '2026-01-01 00:00:00',
  validUntil: '2026-02-01 00:00:00',
  state: 'expired',
};
const opsGrant = {
  id: 'ag1',
  userGroupId: 'g1',
  userGroupName: '运维组',
  strategyId: '',
  strategyName: '',
  validFrom: '2027-01-01 00:00:00',
  validUntil: '',
  state: 'pending',
  created: '2026-11-04 10:00:00',
};
const STRATEGIES = [{ id: 's1', name: '只读' }, { id: 's2', name: '全部' }];
const GROUPS = [{ id: 'g1', name: '运维组' }, { id: 'g2', name: '开发组' }];

const USERS_TAB = '/asset/a1?activeKey=bind-user';
const usersApi = (extra: Record<string, unknown> = {}) => ({
  'GET /assets/:id': record,
  'GET /authorised/users/paging': page([annGrant, bobGrant]),
  ...extra,
});

const rowOf = (name: string) => {
  const tr = screen.getByRole('link', { name }).closest('tr');
  if (!tr) throw new Error(`no row for ${name}`);
  return within(tr);
};
// The tabs' names (a Fluent tab repeats its text in a hidden sizing span).
const tabNames = () => screen.getAllByRole('tab').map((tab) => tab.querySelector('.fui-Tab__content')?.textContent);
// The open picker's options: neither the picked tags nor a native select's options.
const choices = () =>
  screen.getAllByRole('option').filter((o) => !o.closest('[aria-label="已选项"]') && !(o instanceof HTMLOptionElement));

describe('asset detail: authorised users', () => {
  it('lists the grants of the asset with links, window and state, and searches by name', async () => {
    const { user, api } = await renderPlugin(asset, { route: USERS_TAB, session: asAdmin(), api: usersApi() });
    expect(await screen.findByRole('tab', { name: '授权的用户' })).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByRole('link', { name: 'Ann' })).toHaveAttribute('href', '/user/u1');
    expect(api.callsTo('GET /authorised/users/paging')[0]?.query).toEqual({ ...FIRST, assetId: 'a1' });
    expect(rowOf('Ann').getByRole('link', { name: '只读' })).toHaveAttribute('href', '/strategy/s1');
    expect(rowOf('Ann').getByText('长期有效')).toBeInTheDocument();
    expect(rowOf('Ann').getByText('生效中')).toBeInTheDocument();
    expect(rowOf('Ann').getByText('2026-11-03 10:00:00')).toBeInTheDocument();
    expect(rowOf('Bob').getByText('2026-01-01 00:00:00 ~ 2026-02-01 00:00:00')).toBeInTheDocument();
    expect(rowOf('Bob').getByText('已过期')).toBeInTheDocument();
    expect(rowOf('Bob').queryByRole('link', { name: '只读' })).toBeNull();

    await user.type(screen.getByRole('textbox', { name: '用户名称' }), 'An');
    await user.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() => expect(api.callsTo('GET /authorised/users/paging').at(-1)?.query).toEqual({ ...FIRST, assetId: 'a1', name: 'An' }));
  });

  it('hides the tabs and their buttons without their keys', async () => {
    const view = await renderPlugin(asset, {
      route: USERS_TAB,
      session: asAdmin(['asset', 'asset-detail', 'asset-authorised-user']),
      api: usersApi(),
    });
    expect(await screen.findByRole('link', { name: 'Ann' })).toBeInTheDocument();
    expect(tabNames()).toEqual(['基本信息', '授权的用户']);
    expect(screen.queryByRole('button', { name: '授权' })).toBeNull();
    expect(screen.queryByRole('button', { name: '移除' })).toBeNull();
    expect(rowOf('Ann').getByRole('button', { name: '为什么' })).toBeInTheDocument();
    view.unmount();

    const { api } = await renderPlugin(asset, { route: USERS_TAB, session: asAdmin(['asset', 'asset-detail']), api: { 'GET /assets/:id': record } });
    expect(await screen.findByRole('tab', { name: '基本信息' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getAllByRole('tab')).toHaveLength(1);
    expect(api.callsTo('GET /authorised/users/paging')).toHaveLength(0);
  });

  it('grants users with a strategy and a validity window; users already granted are listed but not offered', async () => {
    const { user, api, eventsOf } = await renderPlugin(asset, {
      route: USERS_TAB,
      session: asAdmin(),
      api: usersApi({
        'GET /users': LISTS['GET /users'],
        'GET /authorised/selected': ['u1'],
        'GET /strategies': STRATEGIES,
        'POST /authorised/users': null,
      }),
    });
    await user.click(await screen.findByRole('button', { name: '授权' }));
    const dialog = within(await screen.findByRole('dialog', { name: '用户授权' }));
    // The focus starts on the first field (not on the dates, while the choices load).
    await waitFor(() => expect(dialog.getByRole('combobox', { name: /^用户/ })).toHaveFocus());
    await waitFor(() => expect(api.callsTo('GET /authorised/selected')[0]?.query).toEqual({ key: 'userId', assetId: 'a1' }));
    await user.click(dialog.getByRole('button', { name: '确定' }));
    expect(await dialog.findByText('请选择用户')).toBeInTheDocument();

    const users = dialog.getByRole('combobox', { name: /^用户/ });
    await user.click(users);
    await waitFor(() => expect(choices().map((o) => o.textContent)).toEqual(['Ann', 'Bob']));
    expect(screen.getByRole('option', { name: 'Ann' })).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByRole('option', { name: 'Bob' })).not.toHaveAttribute('aria-disabled');
    await user.click(screen.getByRole('option', { name: 'Ann' }));
    expect(dialog.queryByRole('listbox', { name: '已选项' })).toBeNull(); // nothing picked
    if (!screen.queryByRole('option', { name: 'Bob' })) await user.click(users);
    await user.click(await screen.findByRole('option', { name: 'Bob' }));
    expect(within(dialog.getByRole('listbox', { name: '已选项' })).getAllByRole('option').map((o) => o.textContent)).toEqual(['Bob']);

    const strategy = dialog.getByRole('combobox', { name: /授权策略/ });
    await waitFor(() => expect(within(strategy).getByRole('option', { name: '只读' })).toBeInTheDocument());
    // No strategy says what it allows: everything (the access rule's "no strategy = no restriction").
    expect(strategy).toHaveDisplayValue('无（不限制）');
    expect(strategy).toHaveAccessibleDescription(/^不选授权策略时不做任何限制：上传、下载、删除、重命名、编辑、创建文件夹、复制和粘贴都允许/);
    await user.selectOptions(strategy, '只读');

    // The window: the end must come after the start.
    expect(document.querySelector('input[type="datetime-local"]')).toBeNull(); // the kit's field, in the wire's order
    typeDateTime(dialog, '生效时间', '2026-12-31 18:00:00');
    typeDateTime(dialog, '失效时间', '2026-12-01 08:00');
    await user.click(dialog.getByRole('button', { name: '确定' }));
    expect(await dialog.findByText('失效时间必须晚于生效时间')).toBeInTheDocument();
    expect(api.callsTo('POST /authorised/users')).toHaveLength(0);
    typeDateTime(dialog, '生效时间', '2026-11-30 08:00:30');
    await user.click(dialog.getByRole('button', { name: '确定' }));

    await waitFor(() => expect(api.callsTo('POST /authorised/users')).toHaveLength(1));
    expect(api.callsTo('POST /authorised/users')[0]?.body).toEqual({
      userIds: ['u2'],
      assetId: 'a1',
      strategyId: 's1',
      validFrom: '2026-11-30 08:00:30',
      validUntil: '2026-12-01 08:00:00',
    });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '用户授权' })).toBeNull());
    expect(eventsOf('notify')).toContainEqual({ intent: 'success', message: '授权成功' });
    await waitFor(() => expect(api.callsTo('GET /authorised/users/paging').length).toBeGreaterThan(1));

    // Opened again, the already-granted lookup is asked afresh (the grant just made changed it).
    const asked = api.callsTo('GET /authorised/selected').length;
    await user.click(await screen.findByRole('button', { name: '授权' }));
    await screen.findByRole('dialog', { name: '用户授权' });
    await waitFor(() => expect(api.callsTo('GET /authorised/selected').length).toBeGreaterThan(asked));
  }, 60_000); // the longest journey of the file: a dialog, its choices and its window, twice

  it('sends only the users when no strategy and no window are chosen', async () => {
    const { user, api } = await renderPlugin(asset, {
      route: USERS_TAB,
      session: asAdmin(),
      api: usersApi({ 'GET /users': LISTS['GET /users'], 'GET /authorised/selected': [], 'GET /strategies': STRATEGIES, 'POST /authorised/users': null }),
    });
    await user.click(await screen.findByRole('button', { name: '授权' }));
    const dialog = within(await screen.findByRole('dialog', { name: '用户授权' }));
    await user.click(dialog.getByRole('combobox', { name: /^用户/ }));
    await user.click(await screen.findByRole('option', { name: 'Ann' }));
    await user.click(dialog.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(api.callsTo('POST /authorised/users')).toHaveLength(1));
    expect(api.callsTo('POST /authorised/users')[0]?.body).toEqual({ userIds: ['u1'], assetId: 'a1' });
  });

  it('removes a grant only after the confirm', async () => {
    const { user, api, eventsOf } = await renderPlugin(asset, {
      route: USERS_TAB,
      session: asAdmin(),
      api: usersApi({ 'DELETE /authorised/:id': '' }),
    });
    await screen.findByRole('link', { name: 'Ann' });
    await user.click(rowOf('Ann').getByRole('button', { name: '移除' }));
    let confirm = within(await screen.findByRole('alertdialog', { name: '您确定要移除「Ann」的授权吗？' }));
    await user.click(confirm.getByRole('button', { name: '取消' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(api.callsTo('DELETE /authorised/:id')).toHaveLength(0);

    // Fluent hands the page back to assistive tech a moment after the confirm closes.
    await user.click(await waitFor(() => rowOf('Ann').getByRole('button', { name: '移除' })));
    confirm = within(await screen.findByRole('alertdialog', { name: '您确定要移除「Ann」的授权吗？' }));
    await user.click(confirm.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(api.callsTo('DELETE /authorised/:id').map((c) => c.path)).toEqual(['/authorised/au1']));
    await waitFor(() => expect(eventsOf('notify')).toContainEqual({ intent: 'success', message: '移除成功' }));
  });

  it('explains why a user may open the asset: via which group, which grant wins, the strategy flags', async () => {
    const explanation = {
      allowed: true,
      via: 'group',
      strategy: { id: 's1', name: '只读', upload: false, download: true, delete: false, rename: false, edit: false, createDir: false, copy: true, paste: false, created: '' },
      grants: [
        { id: 'x1', kind: 'user', strategyId: '', strategyName: '', validFrom: '', validUntil: '2026-01-01 00:00:00', state: 'expired', wins: false },
        { id: 'x2', kind: 'group', userGroupId: 'g1', userGroupName: '运维组', strategyId: 's1', strategyName: '只读', validFrom: '', validUntil: '', state: 'active', wins: true },
      ],
    };
    const { user, api } = await renderPlugin(asset, {
      route: USERS_TAB,
      session: asAdmin(),
      api: usersApi({ 'GET /authorised/explain': explanation }),
    });
    await screen.findByRole('link', { name: 'Ann' });
    await user.click(rowOf('Ann').getByRole('button', { name: '为什么' }));
    const dialog = within(await screen.findByRole('dialog', { name: '「Ann」能否访问「web-01」' }));
    expect(api.callsTo('GET /authorised/explain')[0]?.query).toEqual({ userId: 'u1', assetId: 'a1' });
    expect(await dialog.findByText('允许访问')).toBeInTheDocument();
    expect(dialog.getByText('该用户通过用户组「运维组」被授权访问此资产。')).toBeInTheDocument();
    expect(dialog.getByRole('heading', { name: '授权策略：只读' })).toBeInTheDocument();
    const flags = within(dialog.getByRole('list', { name: '文件与剪贴板权限' })).getAllByRole('listitem').map((li) => li.textContent);
    expect(flags).toEqual(['上传 关闭', '下载 开启', '删除 关闭', '重命名 关闭', '编辑 关闭', '创建文件夹 关闭', '复制 开启', '粘贴 关闭']);
    const rows = within(dialog.getByRole('table', { name: '相关授权' })).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.textContent)).toEqual(['直接授权-至 2026-01-01 00:00:00已过期-', '用户组「运维组」只读长期有效生效中采用此授权']);
  });
});

describe('asset detail: authorised user groups', () => {
  it('lists, grants (groups already granted disabled) and needs its own keys; no explanation for a group', async () => {
    const { user, api } = await renderPlugin(asset, {
      route: '/asset/a1?activeKey=bind-user-group',
      session: asAdmin(),
      api: {
        'GET /assets/:id': record,
        'GET /authorised/user-groups/paging': page([opsGrant]),
        'GET /user-groups': GROUPS,
        'GET /authorised/selected': ['g1'],
        'GET /strategies': STRATEGIES,
        'POST /authorised/user-groups': null,
      },
    });
    expect(await screen.findByRole('link', { name: '运维组' })).toHaveAttribute('href', '/user-group/g1');
    expect(api.callsTo('GET /authorised/user-groups/paging')[0]?.query).toEqual({ ...FIRST, assetId: 'a1' });
    expect(rowOf('运维组').getByText('2027-01-01 00:00:00 起')).toBeInTheDocument();
    expect(rowOf('运维组').getByText('未生效')).toBeInTheDocument();
    expect(rowOf('运维组').queryByRole('button', { name: '为什么' })).toBeNull();

    await user.click(screen.getByRole('button', { name: '授权' }));
    const dialog = within(await screen.findByRole('dialog', { name: '用户组授权' }));
    await waitFor(() => expect(api.callsTo('GET /authorised/selected')[0]?.query).toEqual({ key: 'userGroupId', assetId: 'a1' }));
    await user.click(dialog.getByRole('combobox', { name: /^用户组/ }));
    expect(await screen.findByRole('option', { name: '运维组' })).toHaveAttribute('aria-disabled', 'true');
    await user.click(screen.getByRole('option', { name: '开发组' }));
    typeDateTime(dialog, '失效时间', '2027-06-30 23:59:59');
    await user.click(dialog.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(api.callsTo('POST /authorised/user-groups')).toHaveLength(1));
    expect(api.callsTo('POST /authorised/user-groups')[0]?.body).toEqual({ userGroupIds: ['g2'], assetId: 'a1', validUntil: '2027-06-30 23:59:59' });
  });

  it('hides 授权 and 移除 without the -add and -del keys', async () => {
    await renderPlugin(asset, {
      route: '/asset/a1?activeKey=bind-user-group',
      session: asAdmin(['asset', 'asset-detail', 'asset-authorised-user-group']),
      api: { 'GET /assets/:id': record, 'GET /authorised/user-groups/paging': page([opsGrant]) },
    });
    expect(await screen.findByRole('link', { name: '运维组' })).toBeInTheDocument();
    expect(tabNames()).toEqual(['基本信息', '授权的用户组']);
    expect(screen.queryByRole('button', { name: '授权' })).toBeNull();
    expect(screen.queryByRole('button', { name: '移除' })).toBeNull();
  });
});

describe('asset list: ⋯ entries to the authorisation tabs', () => {
  it('opens the detail on the users or the groups tab, each entry behind its key', async () => {
    const { user, location } = await renderPlugin(asset, {
      route: '/asset',
      session: asAdmin(),
      api: { ...LISTS, 'GET /assets/paging': page([web]), 'GET /assets/:id': record, 'GET /authorised/user-groups/paging': page([opsGrant]) },
    });
    await user.click(await screen.findByRole('button', { name: '更多操作' }));
    await user.click(await screen.findByRole('menuitem', { name: '授权用户组' }));
    await waitFor(() => expect(location()).toMatchObject({ pathname: '/asset/a1', search: '?activeKey=bind-user-group' }));
    expect(await screen.findByRole('tab', { name: '授权的用户组' })).toHaveAttribute('aria-selected', 'true');
  });

  it('leaves them out without the keys', async () => {
    await renderPlugin(asset, {
      route: '/asset',
      session: asAdmin(['asset', 'asset-detail']),
      api: { 'GET /tags': LISTS['GET /tags'], 'GET /assets/paging': page([web]) },
    });
    // 详情 is all that is left of the ⋯ menu: a plain button then (a menu of one item is a click more).
    expect(await screen.findByRole('link', { name: '详情' })).toHaveAttribute('href', '/asset/a1?activeKey=info');
    expect(screen.queryByRole('button', { name: '更多操作' })).toBeNull();
    expect(screen.queryByRole('link', { name: '授权用户' })).toBeNull();
    expect(screen.queryByRole('link', { name: '授权用户组' })).toBeNull();
  });
});
