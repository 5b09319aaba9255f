import { renderPlugin } from '@/core/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import sessionAudit from '../../../plugins/session-audit';
import { assets, FIRST, session, users } from './fixtures';

vi.setConfig({ testTimeout: 30_000 });
afterEach(() => vi.restoreAllMocks());

const ended = { status: 'disconnected' as const, disconnectedTime: '2026-11-23 11:02:03' };
const unread = session({ id: 's1', clientIp: '192.168.1.10', ...ended, reviewed: false, code: 802, message: '管理员强制关闭了此会话', commandCount: 7, recordingSize: 1_572_864 });
const read = session({ id: 's2', clientIp: '192.168.1.22', ...ended, reviewed: true, recording: '0', code: 0, message: '用户正常退出' });
const page = { total: 2, items: [unread, read] };
const api = { 'GET /sessions/paging': page, 'GET /users': users, 'GET /assets': assets };

const row = (text: string) => {
  const tr = screen.getByText(text).closest('tr');
  if (!tr) throw new Error(`no row for ${text}`);
  return within(tr);
};

describe('session-audit: session history', () => {
  it('lists finished sessions: every filter and the review state sent, unread rows marked, close reason and command count', async () => {
    const { user, api: calls } = await renderPlugin(sessionAudit, { route: '/offline-session', api });
    expect(await screen.findByText('192.168.1.10')).toBeInTheDocument();
    expect(calls.callsTo('GET /sessions/paging')[0]?.query).toEqual({ ...FIRST, status: 'disconnected' });
    for (const header of ['来源IP', '用户昵称', '资产名称', '连接协议', '接入时间', '接入时长', '断开原因', '命令数', '录像', '审阅状态']) {
      expect(screen.getByRole('columnheader', { name: header })).toBeInTheDocument();
    }
    // Unread: a 未读 badge and bold text (not colour alone); read: 已读.
    expect(row('192.168.1.10').getByText('未读')).toBeInTheDocument();
    expect(screen.getByText('192.168.1.10').tagName).toBe('SPAN');
    expect(row('192.168.1.22').getByText('已读')).toBeInTheDocument();
    // The close reason in words only: the code stays on the wire, never in the text (issue 27).
    expect(row('192.168.1.10').getByText('管理员强制关闭了此会话')).toBeInTheDocument();
    expect(row('192.168.1.22').getByText('用户正常退出')).toBeInTheDocument();
    expect(screen.queryByText(/\(802\)|\(0\)/)).toBeNull();
    expect(row('192.168.1.10').getByText('7')).toBeInTheDocument();
    expect(row('192.168.1.10').getByText('1小时2分钟3秒')).toBeInTheDocument();

    await user.type(screen.getByRole('textbox', { name: '来源IP' }), '10.1');
    await waitFor(() => expect(within(screen.getByRole('combobox', { name: '用户昵称' })).getAllByRole('option')).toHaveLength(3));
    await user.selectOptions(screen.getByRole('combobox', { name: '用户昵称' }), 'Ann');
    await waitFor(() => expect(within(screen.getByRole('combobox', { name: '资产名称' })).getAllByRole('option')).toHaveLength(3));
    await user.selectOptions(screen.getByRole('combobox', { name: '资产名称' }), 'web-01');
    await user.selectOptions(screen.getByRole('combobox', { name: '连接协议' }), 'SSH');
    await user.click(screen.getByRole('radio', { name: '未读' }));
    await user.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() =>
      expect(calls.callsTo('GET /sessions/paging').at(-1)?.query).toEqual({
        ...FIRST,
        status: 'disconnected',
        clientIp: '10.1',
        userId: 'u1',
        assetId: 'a1',
        protocol: 'ssh',
        reviewed: 'false',
      }),
    );
    await user.click(screen.getByRole('radio', { name: '已读' }));
    await user.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() => expect(calls.callsTo('GET /sessions/paging').at(-1)?.query).toMatchObject({ reviewed: 'true' }));
  });

  it('shows the recording\'s size (没有录像 without a file or with an empty one, - from a server that sends no size)', async () => {
    const empty = session({ id: 's3', clientIp: '192.168.1.33', ...ended, recording: '1', recordingSize: 0 });
    const old = session({ id: 's4', clientIp: '192.168.1.44', ...ended, recording: '1' });
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const { user } = await renderPlugin(sessionAudit, { route: '/offline-session', api: { ...api, 'GET /sessions/paging': { total: 4, items: [unread, read, empty, old] } } });
    await screen.findByText('192.168.1.10');
    const cell = (ip: string) => {
      const header = screen.getByRole('columnheader', { name: '录像' });
      const column = [...(header.closest('tr')?.children ?? [])].indexOf(header);
      return row(ip).getAllByRole('cell')[column]?.textContent;
    };
    expect(cell('192.168.1.10')).toBe('1.50 MB');
    expect(cell('192.168.1.22')).toBe('没有录像');
    expect(cell('192.168.1.33')).toBe('没有录像');
    expect(cell('192.168.1.44')).toBe('-');
    // An empty file has nothing to play; a 1.3.9 server's flag alone still allows playback.
    expect(row('192.168.1.33').getByRole('button', { name: '回放' })).toBeDisabled();
    await user.click(row('192.168.1.44').getByRole('button', { name: '回放' }));
    expect(open).toHaveBeenCalledWith('#/term-playback?sessionId=s4', 'term-playback-s4', expect.stringContaining('width='));
  });

  it('playback opens the player window only for a recorded session', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const { user } = await renderPlugin(sessionAudit, { route: '/offline-session', api });
    await screen.findByText('192.168.1.10');
    expect(row('192.168.1.22').getByRole('button', { name: '回放' })).toBeDisabled();
    await user.click(row('192.168.1.10').getByRole('button', { name: '回放' }));
    expect(open).toHaveBeenCalledWith('#/term-playback?sessionId=s1', 'term-playback-s1', expect.stringContaining('width='));
  });

  it('deletes a row and the selection in one call, after questions naming the sessions (user, asset, address, time)', async () => {
    const { user, api: calls } = await renderPlugin(sessionAudit, { route: '/offline-session', api: { ...api, 'DELETE /sessions/:id': null } });
    await screen.findByText('192.168.1.10');
    await user.click(row('192.168.1.22').getByRole('button', { name: /删除/ }));
    const one = await screen.findByRole('alertdialog');
    expect(one).toHaveTextContent('删除这条历史会话?');
    expect(one).toHaveTextContent('将永久删除Ann 于 2026-11-23 10:00:00 从 192.168.1.22 接入 web-01 的会话，连同其录像和命令记录。');
    expect(one).toHaveTextContent('并会记入操作日志');
    await user.click(await within(one).findByRole('button', { name: '确定' }));
    await waitFor(() => expect(calls.callsTo('DELETE /sessions/:id').map((c) => c.path)).toEqual(['/sessions/s2']));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());

    await user.click(await screen.findByRole('checkbox', { name: '选择会话 192.168.1.10' }));
    await user.click(await screen.findByRole('checkbox', { name: '选择会话 192.168.1.22' }));
    const batch = (await screen.findAllByRole('button', { name: /删除/ })).find((b) => !b.closest('tr'));
    if (!batch) throw new Error('no batch delete');
    await user.click(batch);
    const dialog = within(await screen.findByRole('alertdialog'));
    expect(dialog.getByText('您确定要删除选中的 2 条历史会话吗?')).toBeInTheDocument();
    expect(dialog.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Ann 于 2026-11-23 10:00:00 从 192.168.1.10 接入 web-01 的会话',
      'Ann 于 2026-11-23 10:00:00 从 192.168.1.22 接入 web-01 的会话',
    ]);
    await user.click(await dialog.findByRole('button', { name: '确认' }));
    await waitFor(() => expect(calls.callsTo('DELETE /sessions/:id').at(-1)?.path).toBe('/sessions/s1,s2'));
  });

  it('marks read and unread (row and selection), all as read, and clears from the ⋯ menu after saying how many go', async () => {
    const { user, api: calls, eventsOf } = await renderPlugin(sessionAudit, {
      route: '/offline-session',
      api: {
        ...api,
        'POST /sessions/:id/reviewed': null,
        'POST /sessions/:id/unreviewed': null,
        'POST /sessions/reviewed': null,
        'POST /sessions/clear': null,
      },
    });
    await screen.findByText('192.168.1.10');
    // The row's one overflow action shows as a plain button (RowActions: no ⋯ menu for a single item).
    await user.click(row('192.168.1.10').getByRole('button', { name: '标记已读' }));
    await waitFor(() => expect(calls.callsTo('POST /sessions/:id/reviewed').map((c) => c.path)).toEqual(['/sessions/s1/reviewed']));
    await user.click(row('192.168.1.22').getByRole('button', { name: '标记未读' }));
    await waitFor(() => expect(calls.callsTo('POST /sessions/:id/unreviewed').map((c) => c.path)).toEqual(['/sessions/s2/unreviewed']));

    await user.click(await screen.findByRole('checkbox', { name: '选择会话 192.168.1.10' }));
    await user.click(await screen.findByRole('checkbox', { name: '选择会话 192.168.1.22' }));
    const batchRead = (await screen.findAllByRole('button', { name: '标记已读' })).find((b) => !b.closest('tr'));
    if (!batchRead) throw new Error('no batch mark-read');
    await user.click(batchRead);
    await waitFor(() => expect(calls.callsTo('POST /sessions/:id/reviewed').at(-1)?.path).toBe('/sessions/s1,s2/reviewed'));

    await user.click(screen.getByRole('button', { name: '全部标记已读' }));
    await waitFor(() => expect(calls.callsTo('POST /sessions/reviewed')).toHaveLength(1));

    // No red 清空 beside the search: it is an item of the toolbar's ⋯ 更多 menu.
    expect(screen.queryByRole('button', { name: /清空/ })).toBeNull();
    await user.click(screen.getByRole('button', { name: '更多' }));
    await user.click(await screen.findByRole('menuitem', { name: '清空全部历史会话…' }));
    let dialog = within(await screen.findByRole('alertdialog'));
    expect(dialog.getByText('清空历史会话?')).toBeInTheDocument();
    expect(dialog.getByText(/将永久删除全部 2 条历史会话及其录像和命令记录（所有时间段，不受当前查询条件限制；进行中的会话不受影响）/)).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: '取消' }));
    expect(calls.callsTo('POST /sessions/clear')).toHaveLength(0);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    await user.click(screen.getByRole('button', { name: '更多' }));
    await user.click(await screen.findByRole('menuitem', { name: '清空全部历史会话…' }));
    dialog = within(await screen.findByRole('alertdialog'));
    await user.click(await dialog.findByRole('button', { name: '清空' }));
    await waitFor(() => expect(calls.callsTo('POST /sessions/clear')).toHaveLength(1));
    await waitFor(() => expect(eventsOf('notify')).toContainEqual(expect.objectContaining({ message: '清空成功' })));
  });

  it('shows no action without its key', async () => {
    await renderPlugin(sessionAudit, { route: '/offline-session', session: { user: { menus: ['offline-session'] } }, api });
    await screen.findByText('192.168.1.10');
    for (const name of ['回放', '全部标记已读', '更多操作', '更多']) expect(screen.queryByRole('button', { name })).toBeNull();
    expect(screen.queryByRole('button', { name: /删除/ })).toBeNull();
    expect(screen.queryByRole('checkbox', { name: '选择会话 192.168.1.10' })).toBeNull();
  });

  it('speaks English', async () => {
    await renderPlugin(sessionAudit, { route: '/offline-session', lng: 'en-US', api });
    expect(await screen.findByText('192.168.1.10')).toBeInTheDocument();
    expect(row('192.168.1.10').getByText('Unread')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'More' })).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Close reason' })).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Recording' })).toBeInTheDocument();
    expect(row('192.168.1.10').getByText('1.50 MB')).toBeInTheDocument();
    expect(row('192.168.1.22').getByText('No recording')).toBeInTheDocument();
  });
});
