import { renderPlugin, typeDateTime } from '@/core/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import identity from '../../../plugins/identity';
import { admin } from './keys';

vi.setConfig({ testTimeout: 30_000 });

const ann = {
  id: 'u1',
  username: 'ann',
  nickname: 'Ann',
  mail: '',
  type: 'user',
  status: 'enabled',
  online: false,
  totpSecret: '0',
  source: '',
  created: '2026-11-01 10:00:00',
  roles: [],
};
const ops = { id: 'g1', name: '运维组', created: '2026-11-01 10:00:00', members: [{ id: 'u1', name: 'Ann' }] };
const webGrant = {
  id: 'au1',
  assetId: 'a1',
  assetName: 'web-01',
  protocol: 'ssh',
  strategyId: 's1',
  strategyName: '只读',
  validFrom: '',
  validUntil: '2027-01-01 00:00:00',
  state: 'active',
  created: '2026-11-03 10:00:00',
};
const deskGrant = { ...webGrant, id: 'au2', assetId: 'a2', assetName: 'desk-01', protocol: 'rdp', strategyId: '', strategyName: '', validUntil: '', state: 'pending', validFrom: '2027-01-01 00:00:00' };
const ASSETS = [{ id: 'a1', name: 'web-01' }, { id: 'a2', name: 'desk-01' }, { id: 'a3', name: 'db-01' }];
const STRATEGIES = [{ id: 's1', name: '只读' }];
const FIRST = { pageIndex: 1, pageSize: 10, order: '', field: '' };
const page = (items: object[]) => ({ total: items.length, items });

const USER_TAB = '/user/u1?activeKey=asset';
const GROUP_TAB = '/user-group/g1?activeKey=asset';
const userApi = (extra: Record<string, unknown> = {}) => ({ 'GET /users/:id': ann, 'GET /roles': [], 'GET /authorised/assets/paging': page([webGrant, deskGrant]), ...extra });
const groupApi = (extra: Record<string, unknown> = {}) => ({ 'GET /user-groups/:id': ops, 'GET /authorised/assets/paging': page([webGrant]), ...extra });

const rowOf = (name: string) => {
  const tr = screen.getByRole('link', { name }).closest('tr');
  if (!tr) throw new Error(`no row for ${name}`);
  return within(tr);
};
const tabNames = () => screen.getAllByRole('tab').map((tab) => tab.querySelector('.fui-Tab__content')?.textContent);

describe('user detail: authorised assets', () => {
  it('lists the assets granted to the user, with protocol, strategy, window and state; searches by name', async () => {
    const { user, api } = await renderPlugin(identity, { route: USER_TAB, session: admin(), api: userApi() });
    expect(await screen.findByRole('link', { name: 'web-01' })).toHaveAttribute('href', '/asset/a1');
    expect(tabNames()).toEqual(['基本信息', '授权的资产']);
    expect(screen.getByRole('tab', { name: '授权的资产' })).toHaveAttribute('aria-selected', 'true');
    expect(api.callsTo('GET /authorised/assets/paging')[0]?.query).toEqual({ ...FIRST, userId: 'u1' });
    expect(rowOf('web-01').getByText('SSH')).toBeInTheDocument();
    expect(rowOf('web-01').getByRole('link', { name: '只读' })).toHaveAttribute('href', '/strategy/s1');
    expect(rowOf('web-01').getByText('至 2027-01-01 00:00:00')).toBeInTheDocument();
    expect(rowOf('web-01').getByText('生效中')).toBeInTheDocument();
    expect(rowOf('desk-01').getByText('RDP')).toBeInTheDocument();
    expect(rowOf('desk-01').getByText('未生效')).toBeInTheDocument();

    await user.type(screen.getByRole('textbox', { name: '资产名称' }), 'web');
    await user.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() => expect(api.callsTo('GET /authorised/assets/paging').at(-1)?.query).toEqual({ ...FIRST, userId: 'u1', name: 'web' }));
  });

  it('hides the tab without user-authorised-asset, and 授权 / 移除 without their keys', async () => {
    const view = await renderPlugin(identity, { route: USER_TAB, session: admin(['user', 'user-detail']), api: { 'GET /users/:id': ann, 'GET /roles': [] } });
    expect(await screen.findByRole('tab', { name: '基本信息' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getAllByRole('tab')).toHaveLength(1);
    view.unmount();

    await renderPlugin(identity, { route: USER_TAB, session: admin(['user', 'user-detail', 'user-authorised-asset']), api: userApi() });
    expect(await screen.findByRole('link', { name: 'web-01' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '授权' })).toBeNull();
    expect(screen.queryByRole('button', { name: '移除' })).toBeNull();
    expect(rowOf('web-01').getByRole('button', { name: '为什么' })).toBeInTheDocument();
  });

  it('grants assets (those already granted shown disabled) with a strategy and a window', async () => {
    const { user, api, eventsOf } = await renderPlugin(identity, {
      route: USER_TAB,
      session: admin(),
      api: userApi({ 'GET /assets': ASSETS, 'GET /authorised/selected': ['a1', 'a2'], 'GET /strategies': STRATEGIES, 'POST /authorised/assets': null }),
    });
    await user.click(await screen.findByRole('button', { name: '授权' }));
    const dialog = within(await screen.findByRole('dialog', { name: '资产授权' }));
    // The focus starts on the first field, 资产 (not on the dates, while the choices load).
    await waitFor(() => expect(dialog.getByRole('combobox', { name: /^资产/ })).toHaveFocus());
    await waitFor(() => expect(api.callsTo('GET /authorised/selected')[0]?.query).toEqual({ key: 'assetId', userId: 'u1' }));
    // No strategy says what it allows: everything (the access rule's "no strategy = no restriction").
    const strategyBox = dialog.getByRole('combobox', { name: /授权策略/ });
    expect(strategyBox).toHaveDisplayValue('无（不限制）');
    expect(strategyBox).toHaveAccessibleDescription(/^不选授权策略时不做任何限制：上传、下载、删除、重命名、编辑、创建文件夹、复制和粘贴都允许/);
    expect(dialog.queryByText('此字段不是必填的')).toBeNull();
    // The kit's date-time field, not the browser's datetime-local.
    expect(document.querySelector('input[type="datetime-local"]')).toBeNull();
    await user.click(dialog.getByRole('button', { name: '确定' }));
    expect(await dialog.findByText('请选择资产')).toBeInTheDocument();

    await user.click(dialog.getByRole('combobox', { name: /^资产/ }));
    expect(await screen.findByRole('option', { name: 'web-01' })).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByRole('option', { name: 'desk-01' })).toHaveAttribute('aria-disabled', 'true');
    await user.click(screen.getByRole('option', { name: 'db-01' }));
    const strategy = dialog.getByRole('combobox', { name: /授权策略/ });
    await waitFor(() => expect(within(strategy).getByRole('option', { name: '只读' })).toBeInTheDocument());
    await user.selectOptions(strategy, '只读');
    typeDateTime(dialog, '生效时间', '2026-12-01 00:00');
    typeDateTime(dialog, '失效时间', '2026-12-01 00:00');
    await user.click(dialog.getByRole('button', { name: '确定' }));
    expect(await dialog.findByText('失效时间必须晚于生效时间')).toBeInTheDocument();
    typeDateTime(dialog, '失效时间', '2026-12-02 00:00');
    await user.click(dialog.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(api.callsTo('POST /authorised/assets')).toHaveLength(1));
    expect(api.callsTo('POST /authorised/assets')[0]?.body).toEqual({
      assetIds: ['a3'],
      userId: 'u1',
      strategyId: 's1',
      validFrom: '2026-12-01 00:00:00',
      validUntil: '2026-12-02 00:00:00',
    });
    await waitFor(() => expect(eventsOf('notify')).toContainEqual({ intent: 'success', message: '授权成功' }));
  });

  it('removes a grant after the confirm, and explains one', async () => {
    const explanation = { allowed: false, via: null, strategy: null, grants: [{ ...webGrant, id: 'au1', kind: 'user', validUntil: '2026-01-01 00:00:00', state: 'expired', wins: false }] };
    const { user, api } = await renderPlugin(identity, {
      route: USER_TAB,
      session: admin(),
      api: userApi({ 'DELETE /authorised/:id': '', 'GET /authorised/explain': explanation }),
    });
    await screen.findByRole('link', { name: 'web-01' });
    await user.click(rowOf('web-01').getByRole('button', { name: '移除' }));
    let confirm = within(await screen.findByRole('alertdialog', { name: '您确定要移除对「web-01」的授权吗？' }));
    await user.click(confirm.getByRole('button', { name: '取消' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(api.callsTo('DELETE /authorised/:id')).toHaveLength(0);
    // Fluent hands the page back to assistive tech a moment after the confirm closes.
    await user.click(await waitFor(() => rowOf('web-01').getByRole('button', { name: '移除' })));
    confirm = within(await screen.findByRole('alertdialog', { name: '您确定要移除对「web-01」的授权吗？' }));
    await user.click(confirm.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(api.callsTo('DELETE /authorised/:id').map((c) => c.path)).toEqual(['/authorised/au1']));

    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    await user.click(await waitFor(() => rowOf('web-01').getByRole('button', { name: '为什么' })));
    const dialog = within(await screen.findByRole('dialog', { name: '「Ann」能否访问「web-01」' }));
    expect(await dialog.findByText('不允许访问')).toBeInTheDocument();
    expect(dialog.getByText('没有正在生效的授权。')).toBeInTheDocument();
    expect(dialog.queryByRole('list', { name: '文件与剪贴板权限' })).toBeNull();
    expect(within(dialog.getByRole('table', { name: '相关授权' })).getByText('已过期')).toBeInTheDocument();
    expect(api.callsTo('GET /authorised/explain')[0]?.query).toEqual({ userId: 'u1', assetId: 'a1' });
  });
});

describe('user-group detail: authorised assets', () => {
  it('lists, grants for the group, and offers no explanation (a group is not a user)', async () => {
    const { user, api } = await renderPlugin(identity, {
      route: GROUP_TAB,
      session: admin(),
      api: groupApi({ 'GET /assets': ASSETS, 'GET /authorised/selected': ['a1'], 'GET /strategies': STRATEGIES, 'POST /authorised/assets': null }),
    });
    expect(await screen.findByRole('link', { name: 'web-01' })).toHaveAttribute('href', '/asset/a1');
    expect(api.callsTo('GET /authorised/assets/paging')[0]?.query).toEqual({ ...FIRST, userGroupId: 'g1' });
    expect(rowOf('web-01').queryByRole('button', { name: '为什么' })).toBeNull();
    await user.click(screen.getByRole('button', { name: '授权' }));
    const dialog = within(await screen.findByRole('dialog', { name: '资产授权' }));
    await waitFor(() => expect(api.callsTo('GET /authorised/selected')[0]?.query).toEqual({ key: 'assetId', userGroupId: 'g1' }));
    await user.click(dialog.getByRole('combobox', { name: /^资产/ }));
    await user.click(await screen.findByRole('option', { name: 'desk-01' }));
    await user.click(dialog.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(api.callsTo('POST /authorised/assets')).toHaveLength(1));
    expect(api.callsTo('POST /authorised/assets')[0]?.body).toEqual({ assetIds: ['a2'], userGroupId: 'g1' });
  });

  it('needs user-group-authorised-asset for the tab and the -bind / -unbind keys for its buttons', async () => {
    const view = await renderPlugin(identity, { route: GROUP_TAB, session: admin(['user-group', 'user-group-detail']), api: { 'GET /user-groups/:id': ops } });
    expect(await screen.findByRole('tab', { name: '基本信息' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getAllByRole('tab')).toHaveLength(1);
    view.unmount();

    await renderPlugin(identity, { route: GROUP_TAB, session: admin(['user-group', 'user-group-detail', 'user-group-authorised-asset']), api: groupApi() });
    expect(await screen.findByRole('link', { name: 'web-01' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '授权' })).toBeNull();
    expect(screen.queryByRole('button', { name: '移除' })).toBeNull();
  });

  it('the group list ⋯ offers 授权资产 with its key', async () => {
    const { user, location } = await renderPlugin(identity, {
      route: '/user-group',
      session: admin(),
      api: { 'GET /user-groups/paging': page([ops]), ...groupApi() },
    });
    await user.click(await screen.findByRole('button', { name: '更多操作' }));
    await user.click(await screen.findByRole('menuitem', { name: '授权资产' }));
    await waitFor(() => expect(location()).toMatchObject({ pathname: '/user-group/g1', search: '?activeKey=asset' }));
    expect(await screen.findByRole('link', { name: 'web-01' })).toBeInTheDocument();
  });
});
