import { renderPlugin } from '@/core/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import sessionAudit from '../../../plugins/session-audit';
import { assets, FIRST, session, users } from './fixtures';

vi.setConfig({ testTimeout: 30_000 });
afterEach(() => vi.restoreAllMocks());

const ann = session({ id: 's1', clientIp: '192.168.1.10', creatorName: 'Ann', assetName: 'web-01' });
const bob = session({ id: 's2', clientIp: '192.168.1.22', creatorName: 'Bob', assetName: 'db-01', creator: 'u2', assetId: 'a2' });
const page = { total: 2, items: [ann, bob] };
const api = { 'GET /sessions/paging': page, 'GET /users': users, 'GET /assets': assets };

const row = (text: string) => {
  const tr = screen.getByText(text).closest('tr');
  if (!tr) throw new Error(`no row for ${text}`);
  return within(tr);
};

describe('session-audit: online sessions', () => {
  it('lists connected sessions with every filter sent, and a live duration', async () => {
    vi.spyOn(Date, 'now').mockReturnValue(new Date('2026-11-23T10:01:05').getTime());
    const view = await renderPlugin(sessionAudit, { route: '/online-session', api });
    expect(await screen.findByText('192.168.1.10')).toBeInTheDocument();
    expect(screen.getByRole('tree', { name: '主菜单' })).toHaveTextContent('在线会话');
    expect(view.api.callsTo('GET /sessions/paging')[0]?.query).toEqual({ ...FIRST, status: 'connected' });
    for (const header of ['来源IP', '用户昵称', '资产名称', '连接协议', '接入时间', '接入时长']) {
      expect(screen.getByRole('columnheader', { name: header })).toBeInTheDocument();
    }
    expect(row('192.168.1.10').getByText('2026-11-23 10:00:00')).toBeInTheDocument();
    expect(row('192.168.1.10').getByText('1分钟5秒')).toBeInTheDocument();

    const { user } = view;
    await user.type(screen.getByRole('textbox', { name: '来源IP' }), '192.168');
    await waitFor(() => expect(within(screen.getByRole('combobox', { name: '用户昵称' })).getAllByRole('option')).toHaveLength(3));
    await user.selectOptions(screen.getByRole('combobox', { name: '用户昵称' }), 'Bob');
    await waitFor(() => expect(within(screen.getByRole('combobox', { name: '资产名称' })).getAllByRole('option')).toHaveLength(3));
    await user.selectOptions(screen.getByRole('combobox', { name: '资产名称' }), 'db-01');
    await user.selectOptions(screen.getByRole('combobox', { name: '连接协议' }), 'SSH');
    await user.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() =>
      expect(view.api.callsTo('GET /sessions/paging').at(-1)?.query).toEqual({
        ...FIRST,
        status: 'connected',
        clientIp: '192.168',
        userId: 'u2',
        assetId: 'a2',
        protocol: 'ssh',
      }),
    );
  });

  it('monitor opens the monitor page in a 1024×768 window; disconnect asks, then posts', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const { user, api: calls, eventsOf } = await renderPlugin(sessionAudit, {
      route: '/online-session',
      api: { ...api, 'POST /sessions/:id/disconnect': null },
    });
    await screen.findByText('192.168.1.10');
    await user.click(row('192.168.1.10').getByRole('button', { name: '监控' }));
    expect(open).toHaveBeenCalledWith('#/term-monitor?sessionId=s1&protocol=ssh', 'term-monitor-s1', expect.stringContaining('width=1024,height=768'));

    await user.click(row('192.168.1.22').getByRole('button', { name: '断开' }));
    const dialog = within(await screen.findByRole('alertdialog'));
    expect(dialog.getByText('您确定要断开此会话吗?')).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: '取消' }));
    expect(calls.callsTo('POST /sessions/:id/disconnect')).toHaveLength(0);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    await user.click(await row('192.168.1.22').findByRole('button', { name: '断开' }));
    await user.click(await within(await screen.findByRole('alertdialog')).findByRole('button', { name: '确定' }));
    await waitFor(() => expect(calls.callsTo('POST /sessions/:id/disconnect').map((c) => c.path)).toEqual(['/sessions/s2/disconnect']));
    await waitFor(() => expect(eventsOf('notify')).toContainEqual(expect.objectContaining({ intent: 'success', message: '已断开' })));

    // Batch: both selected, one call with comma ids (the page is queried again once the dialog has let go of it).
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    await user.click(await screen.findByRole('checkbox', { name: '选择会话 192.168.1.10' }));
    await user.click(await screen.findByRole('checkbox', { name: '选择会话 192.168.1.22' }));
    const batch = (await screen.findAllByRole('button', { name: '断开' })).find((b) => !b.closest('tr'));
    if (!batch) throw new Error('no batch disconnect');
    await user.click(batch);
    const asked = within(await screen.findByRole('alertdialog'));
    expect(asked.getByText('您确定要断开选中的 2 个会话吗?')).toBeInTheDocument();
    await user.click(await asked.findByRole('button', { name: '断开' }));
    await waitFor(() => expect(calls.callsTo('POST /sessions/:id/disconnect').at(-1)?.path).toBe('/sessions/s1,s2/disconnect'));
  });

  it('hides monitor and disconnect without their keys', async () => {
    await renderPlugin(sessionAudit, { route: '/online-session', session: { user: { menus: ['online-session'] } }, api });
    await screen.findByText('192.168.1.10');
    expect(screen.queryByRole('button', { name: '监控' })).toBeNull();
    expect(screen.queryByRole('button', { name: '断开' })).toBeNull();
    expect(screen.queryByRole('checkbox', { name: '选择会话 192.168.1.10' })).toBeNull();
  });

  it('refreshes every 5 s while visible and the switch is on; the switch pauses it', async () => {
    const { user, api: calls } = await renderPlugin(sessionAudit, { route: '/online-session', api });
    await screen.findByText('192.168.1.10');
    const before = calls.callsTo('GET /sessions/paging').length;
    await waitFor(() => expect(calls.callsTo('GET /sessions/paging').length).toBeGreaterThan(before), { timeout: 7000 });
    await user.click(screen.getByRole('switch', { name: '自动刷新（每 5 秒）' }));
    const paused = calls.callsTo('GET /sessions/paging').length;
    await new Promise((resolve) => setTimeout(resolve, 5600));
    expect(calls.callsTo('GET /sessions/paging')).toHaveLength(paused);
  });

  it('speaks English', async () => {
    await renderPlugin(sessionAudit, { route: '/online-session', lng: 'en-US', api });
    expect(await screen.findByText('192.168.1.10')).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Client IP' })).toBeInTheDocument();
    expect(row('192.168.1.10').getByRole('button', { name: 'Monitor' })).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Auto-refresh (every 5 s)' })).toBeChecked();
  });
});
