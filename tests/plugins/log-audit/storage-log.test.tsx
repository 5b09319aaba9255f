import { renderPlugin } from '@/core/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import logAudit from '../../../plugins/log-audit';
import { admin } from './keys';

vi.setConfig({ testTimeout: 30_000 });

const base = { assetId: 'a1', assetName: 'web-01', sessionId: 's1', userId: 'u1', userName: 'Ann', created: '2026-11-23 09:00:00' };
const items = [
  { ...base, id: 'f1', action: 'upload', fileName: '/tmp/a.txt' },
  { ...base, id: 'f2', action: 'rename', fileName: '/tmp/a.txt -> /tmp/b.txt' },
  { ...base, id: 'f3', action: 'edit', fileName: '/etc/hosts' },
  { ...base, id: 'f4', action: 'rm', fileName: '/tmp/old' },
];
const page = { total: 4, items };
const LISTS = {
  'GET /assets': [{ id: 'a1', name: 'web-01' }, { id: 'a2', name: 'db-01' }],
  'GET /users': [{ id: 'u1', username: 'ann', nickname: 'Ann' }, { id: 'u2', username: 'bob', nickname: '' }],
};
const FIRST = { pageIndex: 1, pageSize: 10, order: '', field: '' };

const row = (file: string) => {
  const tr = screen.getByRole('cell', { name: file }).closest('tr');
  if (!tr) throw new Error(`no row for ${file}`);
  return within(tr);
};

describe('log-audit: file-operation log', () => {
  it('lists the operations with the action as a localised badge', async () => {
    const { api } = await renderPlugin(logAudit, { route: '/storage-log', session: admin(), api: { ...LISTS, 'GET /storage-logs/paging': page } });
    await screen.findByRole('cell', { name: '/tmp/a.txt' });
    expect(api.callsTo('GET /storage-logs/paging')[0]?.query).toEqual(FIRST);
    expect(row('/tmp/a.txt').getByText('上传')).toBeInTheDocument();
    expect(row('/tmp/a.txt').getByRole('cell', { name: 'web-01' })).toBeInTheDocument();
    expect(row('/tmp/a.txt').getByRole('cell', { name: 'Ann' })).toBeInTheDocument();
    expect(row('/tmp/a.txt -> /tmp/b.txt').getByText('重命名')).toBeInTheDocument();
    expect(row('/etc/hosts').getByText('编辑')).toBeInTheDocument();
    expect(row('/tmp/old').getAllByText('删除').filter((e) => !e.closest('button'))).toHaveLength(1); // the badge, beside the row's button
  });

  it('filters by asset, user and action', async () => {
    const { api, user } = await renderPlugin(logAudit, { route: '/storage-log', session: admin(), api: { ...LISTS, 'GET /storage-logs/paging': page } });
    await screen.findByRole('cell', { name: '/tmp/a.txt' });
    await waitFor(() => expect(within(screen.getByRole('combobox', { name: '资产' })).getByRole('option', { name: 'db-01' })).toBeInTheDocument());
    await user.selectOptions(screen.getByRole('combobox', { name: '资产' }), 'db-01');
    await waitFor(() => expect(within(screen.getByRole('combobox', { name: '用户' })).getByRole('option', { name: 'bob' })).toBeInTheDocument());
    await user.selectOptions(screen.getByRole('combobox', { name: '用户' }), 'bob');
    await user.selectOptions(screen.getByRole('combobox', { name: '操作' }), '创建文件夹');
    await user.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() =>
      expect(api.callsTo('GET /storage-logs/paging').at(-1)?.query).toEqual({ ...FIRST, assetId: 'a2', userId: 'u2', action: 'mkdir' }),
    );
  });

  it('deletes a row and a selection, and clears, after confirms saying what goes', async () => {
    const { api, user } = await renderPlugin(logAudit, {
      route: '/storage-log',
      session: admin(),
      api: { ...LISTS, 'GET /storage-logs/paging': page, 'DELETE /storage-logs/:id': null, 'POST /storage-logs/clear': null },
    });
    await screen.findByRole('cell', { name: '/tmp/a.txt' });
    await user.click(row('/tmp/old').getByRole('button', { name: '删除' }));
    const one = await screen.findByRole('alertdialog');
    expect(one).toHaveTextContent('删除这条文件日志?');
    expect(one).toHaveTextContent('将永久删除记录：Ann 在 web-01 上删除 /tmp/old（2026-11-23 09:00:00）。');
    await user.click(within(one).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(api.callsTo('DELETE /storage-logs/:id').map((c) => c.params.id)).toEqual(['f4']));

    await user.click(screen.getByRole('checkbox', { name: '选择 /tmp/a.txt' }));
    await user.click(screen.getByRole('checkbox', { name: '选择 /etc/hosts' }));
    const batch = screen.getAllByRole('button', { name: '删除' }).find((b) => !b.closest('tr'));
    if (!batch) throw new Error('no batch delete');
    await user.click(batch);
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('您确定要删除选中的 2 条文件日志吗?');
    expect(within(dialog).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Ann 在 web-01 上上传 /tmp/a.txt（2026-11-23 09:00:00）',
      'Ann 在 web-01 上编辑 /etc/hosts（2026-11-23 09:00:00）',
    ]);
    await user.click(within(dialog).getByRole('button', { name: '确认' }));
    await waitFor(() => expect(api.callsTo('DELETE /storage-logs/:id').map((c) => c.params.id)).toEqual(['f4', 'f1,f3']));

    expect(screen.queryByRole('button', { name: /清空/ })).toBeNull();
    await user.click(await screen.findByRole('button', { name: '更多' }));
    await user.click(await screen.findByRole('menuitem', { name: '清空全部文件日志…' }));
    const clear = await screen.findByRole('alertdialog');
    expect(clear).toHaveTextContent('清空文件日志?');
    expect(clear).toHaveTextContent('将永久删除全部 4 条文件日志（所有资产、用户和时间，不受当前查询条件限制）');
    await user.click(within(clear).getByRole('button', { name: '清空' }));
    await waitFor(() => expect(api.callsTo('POST /storage-logs/clear')).toHaveLength(1));
  });

  it('hides delete and clear without their keys; 清空 is disabled on an empty list', async () => {
    const view = await renderPlugin(logAudit, { route: '/storage-log', session: admin(['storage-log']), api: { ...LISTS, 'GET /storage-logs/paging': page } });
    await screen.findByRole('cell', { name: '/tmp/a.txt' });
    expect(screen.queryByRole('button', { name: '删除' })).toBeNull();
    expect(screen.queryByRole('button', { name: '更多' })).toBeNull();
    view.unmount();

    const { user } = await renderPlugin(logAudit, {
      route: '/storage-log',
      session: admin(['storage-log', 'storage-log-clear']),
      api: { ...LISTS, 'GET /storage-logs/paging': { total: 0, items: [] } },
    });
    await screen.findByText('暂无数据');
    await user.click(screen.getByRole('button', { name: '更多' }));
    expect(await screen.findByRole('menuitem', { name: '清空全部文件日志…' })).toHaveAttribute('aria-disabled', 'true');
  });

  it('speaks English', async () => {
    await renderPlugin(logAudit, { route: '/storage-log', lng: 'en-US', session: admin(), api: { ...LISTS, 'GET /storage-logs/paging': page } });
    await screen.findByRole('cell', { name: '/tmp/a.txt' });
    expect(row('/tmp/a.txt').getByText('Upload')).toBeInTheDocument();
    expect(row('/tmp/a.txt -> /tmp/b.txt').getByText('Rename')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Operation' })).toBeInTheDocument();
  });
});
