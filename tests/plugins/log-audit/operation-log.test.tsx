import { renderPlugin } from '@/core/testing';
import { screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { describe, expect, it, vi } from 'vitest';
import logAudit from '../../../plugins/log-audit';
import { admin, ALL_KEYS } from './keys';

vi.setConfig({ testTimeout: 30_000 });

const base = { userId: 'u1', username: 'admin', clientIp: '10.0.0.9', count: 1, result: 'success', reason: '', created: '2026-11-23 09:00:00' };
const items = [
  { ...base, id: '4', action: 'file-download', userId: 'u2', username: 'walker', target: 'web-01:/etc/shadow', result: 'refused', reason: 'strategy' },
  { ...base, id: '3', action: 'session-create', userId: 'u2', username: 'walker', target: 'db-01 (native)', result: 'refused', reason: 'grant-expired' },
  { ...base, id: '2', action: 'login-log-clear', target: '', count: 57 },
  { ...base, id: '1', action: 'session-delete', target: 'ann@web-01 10.0.0.5 2026-11-22 10:00:00', count: 1 },
];
const page = { total: 4, items };
const FIRST = { pageIndex: 1, pageSize: 10, order: '', field: '' };

const row = (text: string) => {
  const tr = screen.getByRole('cell', { name: text }).closest('tr');
  if (!tr) throw new Error(`no row for ${text}`);
  return within(tr);
};

describe('log-audit: operation log', () => {
  it('lists deletions and refusals: who, from where, what, how many, the result and why, in words', async () => {
    const { api } = await renderPlugin(logAudit, { route: '/operation-log', session: admin(), api: { 'GET /operation-logs/paging': page } });
    await screen.findByRole('cell', { name: 'web-01:/etc/shadow' });
    expect(api.callsTo('GET /operation-logs/paging')[0]?.query).toEqual(FIRST);
    expect(within(screen.getByRole('tree', { name: '主菜单' })).getByText('操作日志')).toBeInTheDocument();

    const refusedFile = row('web-01:/etc/shadow');
    expect(refusedFile.getByRole('cell', { name: 'walker' })).toBeInTheDocument();
    expect(refusedFile.getByText('下载文件')).toBeInTheDocument();
    expect(refusedFile.getByText('已拒绝')).toBeInTheDocument();
    expect(refusedFile.getByText('授权策略禁止此操作')).toBeInTheDocument();
    expect(row('db-01 (native)').getByText('打开会话')).toBeInTheDocument();
    expect(row('db-01 (native)').getByText('授权已过期')).toBeInTheDocument();

    // A clear names no record: the whole list, and how many went.
    const cleared = row('全部记录');
    expect(cleared.getByText('清空登录日志')).toBeInTheDocument();
    expect(cleared.getByRole('cell', { name: '57' })).toBeInTheDocument();
    expect(cleared.getByText('成功')).toBeInTheDocument();
    expect(row('ann@web-01 10.0.0.5 2026-11-22 10:00:00').getByText('删除历史会话')).toBeInTheDocument();
  });

  it('is read-only: no delete, no clear, no selection, even holding every key', async () => {
    await renderPlugin(logAudit, { route: '/operation-log', session: admin(), api: { 'GET /operation-logs/paging': page } });
    await screen.findByRole('cell', { name: 'web-01:/etc/shadow' });
    expect(screen.queryByRole('button', { name: /删除|清空/ })).toBeNull();
    expect(screen.queryByRole('button', { name: '更多' })).toBeNull();
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(screen.queryByRole('columnheader', { name: '操作' })).toBeInTheDocument(); // the action column, not row actions
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).not.toContain('');
  });

  it('searches by account, address, action, result and time range', async () => {
    const { api, user } = await renderPlugin(logAudit, { route: '/operation-log', session: admin(), api: { 'GET /operation-logs/paging': page } });
    await screen.findByRole('cell', { name: 'web-01:/etc/shadow' });
    await user.type(screen.getByRole('textbox', { name: '操作账号' }), 'walk');
    await user.type(screen.getByRole('textbox', { name: '来源IP' }), '10.0');
    await user.selectOptions(screen.getByRole('combobox', { name: '操作' }), '删除文件');
    await user.selectOptions(screen.getByRole('combobox', { name: '结果' }), '已拒绝');
    await user.selectOptions(screen.getByRole('combobox', { name: '时间' }), '今天');
    await user.click(screen.getByRole('button', { name: '查询' }));
    const from = dayjs().startOf('day').format('YYYY-MM-DD HH:mm:ss');
    await waitFor(() =>
      expect(api.callsTo('GET /operation-logs/paging').at(-1)?.query).toEqual({ ...FIRST, username: 'walk', clientIp: '10.0', action: 'file-rm', result: 'refused', from }),
    );
  });

  it('says what it records while empty', async () => {
    await renderPlugin(logAudit, { route: '/operation-log', session: admin(), api: { 'GET /operation-logs/paging': { total: 0, items: [] } } });
    expect(await screen.findByText('暂无操作记录：删除审计记录、被拒绝的会话和文件操作会记录在这里')).toBeInTheDocument();
  });

  it('shows 403 without its key', async () => {
    await renderPlugin(logAudit, { route: '/operation-log', session: admin(ALL_KEYS.filter((k) => k !== 'operation-log')) });
    expect(screen.getByText('抱歉，您似乎没有此页面的权限。')).toBeInTheDocument();
  });

  it('speaks English', async () => {
    await renderPlugin(logAudit, { route: '/operation-log', lng: 'en-US', session: admin(), api: { 'GET /operation-logs/paging': page } });
    await screen.findByRole('cell', { name: 'web-01:/etc/shadow' });
    expect(row('web-01:/etc/shadow').getByText('Download a file')).toBeInTheDocument();
    expect(row('web-01:/etc/shadow').getByText('Refused')).toBeInTheDocument();
    expect(row('web-01:/etc/shadow').getByText('Forbidden by the access strategy')).toBeInTheDocument();
    expect(row('Whole list').getByText('Clear the login log')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Result' })).toBeInTheDocument();
  });
});
