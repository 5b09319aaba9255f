import { expectValidPlugin, renderPlugin } from '@/core/testing';
import { screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { describe, expect, it, vi } from 'vitest';
import logAudit from '../../../plugins/log-audit';
import { admin, ALL_KEYS } from './keys';

vi.setConfig({ testTimeout: 30_000 });

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.109 Safari/537.36';
const ok = {
  id: 'l1',
  username: 'ann',
  clientIp: '10.0.0.5',
  clientUserAgent: CHROME,
  loginTime: '2026-11-23 09:00:00',
  logoutTime: '0001-01-01 00:00:00',
  remember: false,
  state: '1',
  reason: '',
};
const failed = { ...ok, id: 'l2', username: 'bob', clientUserAgent: 'curl/8.5.0', loginTime: '2026-11-23 08:00:00', state: '0', reason: '账号或密码不正确' };
const ssh = { ...ok, id: 'l3', username: 'cat', clientUserAgent: 'terminal', logoutTime: '2026-11-23 10:00:00' };
const blank = { ...ok, id: 'l4', username: 'dan', clientUserAgent: '' };
const page = { total: 4, items: [ok, failed, ssh, blank] };
const EMPTY = { total: 0, items: [] };
const FIRST = { pageIndex: 1, pageSize: 10, order: '', field: '' };

const row = (name: string) => {
  const tr = screen.getByRole('cell', { name }).closest('tr');
  if (!tr) throw new Error(`no row for ${name}`);
  return within(tr);
};

describe('log-audit: login log', () => {
  it('is a valid plugin', async () => {
    await expectValidPlugin(logAudit);
  });

  it('lists the logins: result as a badge, the browser parsed with the full agent in a tooltip, times', async () => {
    const { api, user } = await renderPlugin(logAudit, { route: '/login-log', session: admin(), api: { 'GET /login-logs/paging': page } });
    await screen.findByRole('cell', { name: 'ann' });
    expect(api.callsTo('GET /login-logs/paging')[0]?.query).toEqual(FIRST);
    expect(within(screen.getByRole('tree', { name: '主菜单' })).getByText('登录日志')).toBeInTheDocument();
    const a = row('ann');
    expect(a.getByText('成功')).toBeInTheDocument();
    expect(a.getByText('Chrome 120')).toBeInTheDocument();
    expect(a.getByText('2026-11-23 09:00:00')).toBeInTheDocument();
    await user.hover(a.getByText('Chrome 120'));
    expect(await screen.findByRole('tooltip')).toHaveTextContent(CHROME);
    const b = row('bob');
    expect(b.getByText('失败')).toBeInTheDocument();
    expect(b.getByText('账号或密码不正确')).toBeInTheDocument();
    expect(b.getByText('curl 8.5')).toBeInTheDocument();
    expect(row('cat').getByText('终端（SSH）')).toBeInTheDocument();
    expect(row('cat').getByText('2026-11-23 10:00:00')).toBeInTheDocument();
    expect(row('dan').getByText('未知')).toBeInTheDocument();
    expect(row('ann').queryByText('0001-01-01 00:00:00')).toBeNull();
  });

  it('sends the search: account, IP, result and the time range (from, in the wire format)', async () => {
    const { api, user } = await renderPlugin(logAudit, { route: '/login-log', session: admin(), api: { 'GET /login-logs/paging': page } });
    await screen.findByRole('cell', { name: 'ann' });
    await user.type(screen.getByRole('textbox', { name: '登录账号' }), 'an');
    await user.type(screen.getByRole('textbox', { name: '登录IP' }), '10.0');
    await user.selectOptions(screen.getByRole('combobox', { name: '登录状态' }), '失败');
    await user.selectOptions(screen.getByRole('combobox', { name: '登录时间' }), '最近 7 天');
    await user.click(screen.getByRole('button', { name: '查询' }));
    const from = dayjs().subtract(6, 'day').startOf('day').format('YYYY-MM-DD HH:mm:ss');
    await waitFor(() =>
      expect(api.callsTo('GET /login-logs/paging').at(-1)?.query).toEqual({ ...FIRST, username: 'an', clientIp: '10.0', state: '0', from }),
    );
  });

  it('opens filtered on ?state=0 (the dashboard’s failed-login link); 重置 shows every result', async () => {
    const { api, user } = await renderPlugin(logAudit, { route: '/login-log?state=0', session: admin(), api: { 'GET /login-logs/paging': page } });
    await screen.findByRole('cell', { name: 'ann' });
    expect(api.callsTo('GET /login-logs/paging')[0]?.query).toEqual({ ...FIRST, state: '0' });
    expect(screen.getByRole('combobox', { name: '登录状态' })).toHaveValue('0');
    await user.click(screen.getByRole('button', { name: '重置' }));
    await waitFor(() => expect(api.callsTo('GET /login-logs/paging').at(-1)?.query).toEqual(FIRST));
  });

  it('deletes a row and a selection after confirms that name the records', async () => {
    const { api, user, eventsOf } = await renderPlugin(logAudit, {
      route: '/login-log',
      session: admin(),
      api: { 'GET /login-logs/paging': page, 'DELETE /login-logs/:id': null },
    });
    await screen.findByRole('cell', { name: 'ann' });
    await user.click(row('bob').getByRole('button', { name: '删除' }));
    let dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('删除这条登录日志?');
    // The record by its account, address and time; and where the deletion goes on record.
    expect(dialog).toHaveTextContent('将永久删除 bob（10.0.0.5）2026-11-23 08:00:00 的登录记录');
    expect(dialog).toHaveTextContent('并会记入操作日志');
    await user.click(within(dialog).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(api.callsTo('DELETE /login-logs/:id').map((c) => c.params.id)).toEqual(['l2']));

    await user.click(screen.getByRole('checkbox', { name: '选择 ann 2026-11-23 09:00:00 的登录' }));
    await user.click(screen.getByRole('checkbox', { name: '选择 cat 2026-11-23 09:00:00 的登录' }));
    const toolbar = screen.getAllByRole('button', { name: '删除' }).find((b) => !b.closest('tr'));
    if (!toolbar) throw new Error('no batch delete');
    await user.click(toolbar);
    dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('您确定要删除选中的 2 条登录日志吗?');
    expect(within(dialog).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'ann（10.0.0.5）2026-11-23 09:00:00 的登录',
      'cat（10.0.0.5）2026-11-23 09:00:00 的登录',
    ]);
    await user.click(within(dialog).getByRole('button', { name: '取消' }));
    expect(api.callsTo('DELETE /login-logs/:id')).toHaveLength(1);
    await user.click(toolbar);
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: '确认' }));
    await waitFor(() => expect(api.callsTo('DELETE /login-logs/:id').map((c) => c.params.id)).toEqual(['l2', 'l1,l3']));
    await waitFor(() => expect(eventsOf('notify').at(-1)).toEqual({ intent: 'success', message: '删除成功' }));
  });

  it('clears from the ⋯ menu (no red button beside the search) after a confirm saying how many go; disabled while empty', async () => {
    let cleared = false;
    const { api, user, eventsOf } = await renderPlugin(logAudit, {
      route: '/login-log',
      session: admin(),
      api: {
        'GET /login-logs/paging': () => (cleared ? EMPTY : page),
        'POST /login-logs/clear': () => {
          cleared = true;
          return null;
        },
      },
    });
    await screen.findByRole('cell', { name: 'ann' });
    expect(screen.queryByRole('button', { name: /清空/ })).toBeNull();
    await user.click(screen.getByRole('button', { name: '更多' }));
    await user.click(await screen.findByRole('menuitem', { name: '清空全部登录日志…' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('清空登录日志?');
    // The list's total (no search applied: no extra request), every period.
    expect(dialog).toHaveTextContent('将永久删除全部 4 条登录日志（所有时间段，不受当前查询条件限制）');
    expect(dialog).toHaveTextContent('并会记入操作日志');
    expect(api.callsTo('GET /login-logs/paging')).toHaveLength(1);
    await user.click(within(dialog).getByRole('button', { name: '取消' }));
    expect(api.callsTo('POST /login-logs/clear')).toHaveLength(0);

    await user.click(await screen.findByRole('button', { name: '更多' }));
    await user.click(await screen.findByRole('menuitem', { name: '清空全部登录日志…' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: '清空' }));
    await waitFor(() => expect(api.callsTo('POST /login-logs/clear')).toHaveLength(1));
    expect(eventsOf('notify')).toContainEqual({ intent: 'success', message: '清空成功' });
    await screen.findByText('暂无数据');
    await user.click(await screen.findByRole('button', { name: '更多' }));
    expect(await screen.findByRole('menuitem', { name: '清空全部登录日志…' })).toHaveAttribute('aria-disabled', 'true');
  });

  it('under a search, 清空 counts the whole log (what it deletes), not the filtered page', async () => {
    const { api, user } = await renderPlugin(logAudit, {
      route: '/login-log',
      session: admin(),
      api: { 'GET /login-logs/paging': (req: { query: Record<string, unknown> }) => (req.query.username ? { total: 1, items: [ok] } : { total: 57, items: page.items }) },
    });
    await screen.findByRole('cell', { name: 'ann' });
    await user.type(screen.getByRole('textbox', { name: '登录账号' }), 'ann');
    await user.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() => expect(screen.queryByRole('cell', { name: 'bob' })).toBeNull());
    await user.click(screen.getByRole('button', { name: '更多' }));
    await user.click(await screen.findByRole('menuitem', { name: '清空全部登录日志…' }));
    expect(await screen.findByRole('alertdialog')).toHaveTextContent('将永久删除全部 57 条登录日志');
    expect(api.callsTo('GET /login-logs/paging').at(-1)?.query).toEqual({ ...FIRST, pageSize: 1 });
  });

  it('hides delete and clear without their keys', async () => {
    await renderPlugin(logAudit, { route: '/login-log', session: admin(['login-log']), api: { 'GET /login-logs/paging': page } });
    await screen.findByRole('cell', { name: 'ann' });
    expect(screen.queryByRole('button', { name: '删除' })).toBeNull();
    expect(screen.queryByRole('button', { name: '更多' })).toBeNull();
    expect(screen.queryByRole('checkbox')).toBeNull();
  });

  it('shows 403 without the menu key', async () => {
    await renderPlugin(logAudit, { route: '/login-log', session: admin(ALL_KEYS.filter((k) => !k.startsWith('login-log'))) });
    expect(screen.getByText('抱歉，您似乎没有此页面的权限。')).toBeInTheDocument();
  });

  it('speaks English', async () => {
    const { user } = await renderPlugin(logAudit, { route: '/login-log', lng: 'en-US', session: admin(), api: { 'GET /login-logs/paging': page } });
    await screen.findByRole('cell', { name: 'ann' });
    expect(row('bob').getByText('Failed')).toBeInTheDocument();
    expect(row('cat').getByText('Terminal (SSH)')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Result' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'More' }));
    expect(await screen.findByRole('menuitem', { name: 'Clear the whole login log…' })).not.toHaveAttribute('aria-disabled', 'true');
  });
});
