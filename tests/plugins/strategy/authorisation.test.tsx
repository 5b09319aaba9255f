import { reply, renderPlugin, typeDateTime } from '@/core/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import strategy from '../../../plugins/strategy';

vi.setConfig({ testTimeout: 30_000 });

const ROUTE = '/authorisation';
const FIRST = { pageIndex: 1, pageSize: 10, order: '', field: '' };
const admin = (menus: string[]) => ({ user: { id: 'me', type: 'admin', menus } });

const base = {
  userId: '',
  userName: '',
  userGroupId: '',
  userGroupName: '',
  protocol: 'ssh',
  strategyId: '',
  strategyName: '',
  validFrom: '',
  validUntil: '',
  state: 'active',
  created: '2026-11-03 10:00:00',
};
const annWeb = { ...base, id: 'au1', kind: 'user', userId: 'u1', userName: 'Ann', assetId: 'a1', assetName: 'web-01', strategyId: 's1', strategyName: '只读', validUntil: '2027-01-01 00:00:00' };
const opsDesk = {
  ...base,
  id: 'ag1',
  kind: 'group',
  userGroupId: 'g1',
  userGroupName: '运维组',
  assetId: 'a2',
  assetName: 'desk-01',
  protocol: 'rdp',
  validFrom: '2027-01-01 00:00:00',
  state: 'pending',
};
const page = (items: object[]) => ({ total: items.length, items });
const LIST = { 'GET /authorised/paging': page([annWeb, opsDesk]) };
const CHOICES = {
  'GET /users': [
    { id: 'u1', username: 'ann', nickname: 'Ann' },
    { id: 'u2', username: 'bob', nickname: 'Bob' },
  ],
  'GET /user-groups': [{ id: 'g1', name: '运维组', created: '2026-11-01 10:00:00', members: null }],
  'GET /assets': [
    { id: 'a1', name: 'web-01' },
    { id: 'a2', name: 'desk-01' },
    { id: 'a3', name: 'db-01' },
  ],
  'GET /strategies': [{ id: 's1', name: '只读' }],
};

const rowOf = (asset: string) => {
  const tr = screen.getByRole('link', { name: asset }).closest('tr');
  if (!tr) throw new Error(`no row for ${asset}`);
  return within(tr);
};

describe('资产授权: the list of every grant', () => {
  it('sits in the menu under 授权, before 授权策略, and lists who, kind, asset, strategy, window, state and created', async () => {
    const { api } = await renderPlugin(strategy, { route: ROUTE, api: LIST });
    await screen.findByRole('link', { name: 'web-01' });
    const menu = screen.getByRole('tree', { name: '主菜单' });
    // In core's group (named 授权策略 after 1.3.9's menu), first: 资产授权, then the strategies.
    expect(menu.textContent).toContain('资产授权授权策略');
    expect(api.callsTo('GET /authorised/paging')[0]?.query).toEqual(FIRST);

    const ann = rowOf('web-01');
    expect(ann.getByRole('link', { name: 'Ann' })).toHaveAttribute('href', '/user/u1');
    expect(ann.getByText('用户')).toBeInTheDocument();
    expect(ann.getByRole('link', { name: '只读' })).toHaveAttribute('href', '/strategy/s1');
    expect(ann.getByText('至 2027-01-01 00:00:00')).toBeInTheDocument();
    expect(ann.getByText('生效中')).toBeInTheDocument();
    expect(ann.getByText('2026-11-03 10:00:00')).toBeInTheDocument();

    const ops = rowOf('desk-01');
    expect(ops.getByRole('link', { name: '运维组' })).toHaveAttribute('href', '/user-group/g1');
    expect(ops.getByText('用户组')).toBeInTheDocument();
    expect(ops.getByText('RDP')).toBeInTheDocument();
    // No strategy is said as what it means.
    expect(ops.getByText('不限制')).toHaveAttribute('title', expect.stringContaining('剪贴板'));
    expect(ops.getByText('2027-01-01 00:00:00 起')).toBeInTheDocument();
    expect(ops.getByText('未生效')).toBeInTheDocument();
  });

  it('searches by who and by asset, filters by kind and state, sorts by who', async () => {
    const { user, api } = await renderPlugin(strategy, { route: ROUTE, api: LIST });
    await screen.findByRole('link', { name: 'web-01' });
    await user.type(screen.getByRole('textbox', { name: '授权对象' }), '运维');
    await user.type(screen.getByRole('textbox', { name: '资产' }), 'desk');
    await user.click(screen.getByRole('radio', { name: '用户组' }));
    await user.selectOptions(screen.getByRole('combobox', { name: '状态' }), '未生效');
    await user.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() =>
      expect(api.callsTo('GET /authorised/paging').at(-1)?.query).toEqual({ ...FIRST, name: '运维', assetName: 'desk', kind: 'group', state: 'pending' }),
    );
    await user.click(screen.getByRole('button', { name: '重置' }));
    await user.click(within(screen.getByRole('columnheader', { name: /授权对象/ })).getByRole('button'));
    await waitFor(() => expect(api.callsTo('GET /authorised/paging').at(-1)?.query).toEqual({ ...FIRST, order: 'ascend', field: 'name' }));
  });

  it('shows 403 without the authorisation key, and no 授权 / 移除 without their keys', async () => {
    const view = await renderPlugin(strategy, { route: ROUTE, session: admin(['strategy']) });
    expect(screen.getByText('抱歉，您似乎没有此页面的权限。')).toBeInTheDocument();
    view.unmount();

    await renderPlugin(strategy, { route: ROUTE, session: admin(['authorisation']), api: LIST });
    await screen.findByRole('link', { name: 'web-01' });
    expect(screen.queryByRole('button', { name: '授权' })).toBeNull();
    expect(rowOf('web-01').queryByRole('button', { name: '移除' })).toBeNull();
    expect(screen.queryByRole('checkbox', { name: '全选当前页' })).toBeNull();
    expect(rowOf('web-01').getByRole('button', { name: '为什么' })).toBeInTheDocument();
  });
});

describe('资产授权: granting several users and groups several assets', () => {
  it('opens on the first field, asks for a subject and an asset, and sends every choice in one body', async () => {
    const { user, api, eventsOf } = await renderPlugin(strategy, {
      route: ROUTE,
      api: { ...LIST, ...CHOICES, 'POST /authorised/bulk': { granted: 6 } },
    });
    await user.click(await screen.findByRole('button', { name: '授权' }));
    const dialog = within(await screen.findByRole('dialog', { name: '授权' }));
    const users = dialog.getByRole('combobox', { name: /^用户(?!组)/ });
    await waitFor(() => expect(users).toHaveFocus());
    // What "no strategy" allows is said on the strategy field.
    expect(dialog.getByText(/不选择授权策略时不做限制/)).toBeInTheDocument();

    await user.click(dialog.getByRole('button', { name: '授权' }));
    expect(await dialog.findByText('请选择至少一个用户或用户组')).toBeInTheDocument();
    expect(dialog.getByText('请选择至少一个资产')).toBeInTheDocument();
    expect(api.callsTo('POST /authorised/bulk')).toHaveLength(0);

    await user.click(users);
    await user.click(await screen.findByRole('option', { name: 'Ann (ann)' }));
    await user.click(users);
    await user.click(await screen.findByRole('option', { name: 'Bob (bob)' }));
    await user.click(dialog.getByRole('combobox', { name: /^用户组/ }));
    await user.click(await screen.findByRole('option', { name: '运维组' }));
    const assets = dialog.getByRole('combobox', { name: /^资产/ });
    await user.click(assets);
    await user.click(await screen.findByRole('option', { name: 'web-01' }));
    await user.click(assets);
    await user.click(await screen.findByRole('option', { name: 'db-01' }));
    const strategyField = dialog.getByRole('combobox', { name: /授权策略/ });
    await waitFor(() => expect(within(strategyField).getByRole('option', { name: '只读' })).toBeInTheDocument());
    await user.selectOptions(strategyField, '只读');
    typeDateTime(dialog, '生效时间', '2026-12-01 08:00:00');
    typeDateTime(dialog, '失效时间', '2026-12-31 18:00:00');
    await user.click(dialog.getByRole('button', { name: '授权' }));

    await waitFor(() => expect(api.callsTo('POST /authorised/bulk')).toHaveLength(1));
    expect(api.callsTo('POST /authorised/bulk')[0]?.body).toEqual({
      userIds: ['u1', 'u2'],
      userGroupIds: ['g1'],
      assetIds: ['a1', 'a3'],
      strategyId: 's1',
      validFrom: '2026-12-01 08:00:00',
      validUntil: '2026-12-31 18:00:00',
    });
    await waitFor(() => expect(eventsOf('notify')).toContainEqual({ intent: 'success', message: '已授权 6 项' }));
    await waitFor(() => expect(api.callsTo('GET /authorised/paging')).toHaveLength(2));
  });

  it('a group alone is enough; no strategy and open sides are left out; the server refusal is shown in the dialog', async () => {
    const { user, api } = await renderPlugin(strategy, {
      route: ROUTE,
      api: { ...LIST, ...CHOICES, 'POST /authorised/bulk': reply.envelope(-1, '不能授权您自己无权访问的资产：db-01') },
    });
    await user.click(await screen.findByRole('button', { name: '授权' }));
    const dialog = within(await screen.findByRole('dialog', { name: '授权' }));
    await user.click(dialog.getByRole('combobox', { name: /^用户组/ }));
    await user.click(await screen.findByRole('option', { name: '运维组' }));
    await user.click(dialog.getByRole('combobox', { name: /^资产/ }));
    await user.click(await screen.findByRole('option', { name: 'db-01' }));
    typeDateTime(dialog, '失效时间', '2026-02-30 10:00');
    await user.click(dialog.getByRole('button', { name: '授权' }));
    // A moment that does not exist is flagged on its field, before any request.
    expect(await dialog.findByText('失效时间不是一个有效的时间')).toBeInTheDocument();
    typeDateTime(dialog, '失效时间', '');
    await user.click(dialog.getByRole('button', { name: '授权' }));
    await waitFor(() => expect(api.callsTo('POST /authorised/bulk')).toHaveLength(1));
    expect(api.callsTo('POST /authorised/bulk')[0]?.body).toEqual({ userIds: [], userGroupIds: ['g1'], assetIds: ['a3'] });
    expect(await dialog.findByText('不能授权您自己无权访问的资产：db-01')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: '授权' })).toBeInTheDocument();
  });
});

describe('资产授权: why, and removing', () => {
  it('explains a user grant for that user, and a group grant for a member picked first', async () => {
    const explanation = {
      allowed: true,
      via: 'group',
      strategy: null,
      grants: [{ ...opsDesk, kind: 'group', userGroupName: '运维组', validFrom: '', state: 'active', wins: true }],
    };
    const { user, api } = await renderPlugin(strategy, {
      route: ROUTE,
      api: {
        ...LIST,
        'GET /authorised/explain': explanation,
        'GET /user-groups/:id': { id: 'g1', name: '运维组', created: '2026-11-01 10:00:00', members: [{ id: 'u2', name: 'Bob' }] },
      },
    });
    await screen.findByRole('link', { name: 'web-01' });
    await user.click(rowOf('web-01').getByRole('button', { name: '为什么' }));
    let dialog = within(await screen.findByRole('dialog', { name: 'Ann 访问 web-01 的原因' }));
    expect(await dialog.findByText('允许访问')).toBeInTheDocument();
    expect(api.callsTo('GET /authorised/explain')[0]?.query).toEqual({ userId: 'u1', assetId: 'a1' });
    await user.click(dialog.getByRole('button', { name: '关闭' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(await waitFor(() => rowOf('desk-01').getByRole('button', { name: '为什么' })));
    const pick = within(await screen.findByRole('dialog', { name: '为什么 —「运维组」访问「desk-01」' }));
    await user.selectOptions(await pick.findByRole('combobox', { name: /用户组成员/ }), 'Bob');
    await user.click(pick.getByRole('button', { name: '查看原因' }));
    dialog = within(await screen.findByRole('dialog', { name: 'Bob 访问 desk-01 的原因' }));
    expect(await dialog.findByText('允许访问')).toBeInTheDocument();
    expect(api.callsTo('GET /authorised/explain')[1]?.query).toEqual({ userId: 'u2', assetId: 'a2' });
  });

  it('removes one row after its confirm, and the selection in one call', async () => {
    const { user, api, eventsOf } = await renderPlugin(strategy, { route: ROUTE, api: { ...LIST, 'DELETE /authorised/:id': '' } });
    await screen.findByRole('link', { name: 'web-01' });
    await user.click(rowOf('web-01').getByRole('button', { name: '移除' }));
    const confirm = within(await screen.findByRole('alertdialog', { name: '移除「Ann」对「web-01」的授权？' }));
    await user.click(confirm.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(api.callsTo('DELETE /authorised/:id').map((c) => c.path)).toEqual(['/authorised/au1']));
    await waitFor(() => expect(eventsOf('notify')).toContainEqual({ intent: 'success', message: '移除成功' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());

    await user.click(await waitFor(() => screen.getByRole('checkbox', { name: '选择「Ann → web-01」' })));
    await user.click(screen.getByRole('checkbox', { name: '选择「运维组 → desk-01」' }));
    await user.click(screen.getByRole('button', { name: '移除选中' }));
    const batch = within(await screen.findByRole('alertdialog', { name: '移除选中的 2 项授权？' }));
    await user.click(batch.getByRole('button', { name: '确认' }));
    await waitFor(() => expect(api.callsTo('DELETE /authorised/:id').map((c) => c.path)).toEqual(['/authorised/au1', '/authorised/au1,ag1']));
  });
});
