// The kit's declarative list screen, mounted the way a plugin page is but outside any layout (no query scope of a
// layout around it): search, sort and paging reach the server as the 1.3.9 paging query; gated row, batch and add
// actions; the standard delete; confirm dialogs; empty and error states.
import { reply, renderWithProviders } from '@/core/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ServerTable, useApi, useRecordDialog, useTableActions } from '../../../core';
import { defineManifest, type KeyMap } from '@/shared/manifest';

// The gates below name these keys; declaring them is what makes them type-check.
const gadget = defineManifest({
  id: 'fx-gadget',
  menus: [{ key: 'gadget', group: 'ops', label: { 'zh-CN': '部件', 'en-US': 'Gadgets' } }],
  actions: (['gadget-add', 'gadget-edit', 'gadget-del', 'gadget-detail', 'gadget-restart'] as const).map((key) => ({
    key,
    parent: 'gadget' as const,
    label: { 'zh-CN': key, 'en-US': key },
  })),
});
declare module '@/shared/manifest' {
  interface PermissionKeys extends KeyMap<typeof gadget> {}
}

vi.setConfig({ testTimeout: 30_000 });

interface Gadget {
  id: string;
  name: string;
  kind: string;
  online: boolean;
}

const gadgets: Gadget[] = Array.from({ length: 12 }, (_, i) => ({
  id: `g${i + 1}`,
  name: `gadget-${String(i + 1).padStart(2, '0')}`,
  kind: i % 2 ? 'probe' : 'relay',
  online: i % 3 === 0,
}));

const ALL_KEYS = ['gadget', 'gadget-add', 'gadget-edit', 'gadget-del', 'gadget-detail', 'gadget-restart'];
const FIRST = { pageIndex: 1, pageSize: 10, order: '', field: '' };

/** A whole list screen as a plugin would declare it. */
function GadgetList({ onEdit = () => {} }: { onEdit?: (id: string) => void }) {
  const api = useApi();
  const table = useTableActions(['gadgets']);
  const dialog = useRecordDialog();
  return (
    <>
      <ServerTable<Gadget>
        tableKey="gadget"
        title="部件列表"
        queryKey={['gadgets']}
        fetchPage={(q) => api.get('/gadgets/paging', { params: q })}
        getRowId={(g) => g.id}
        rowLabel={(g) => `选择 ${g.name}`}
        searchFields={[
          { name: 'name', label: '名称' },
          { name: 'kind', label: '类型', type: 'select', options: [{ value: 'relay', label: '中继' }, { value: 'probe', label: '探针' }] },
        ]}
        columns={[
          { key: 'name', header: '名称', sortField: 'name', render: (g) => g.name, link: { to: (g) => `/gadget/${g.id}`, menu: 'gadget-detail' } },
          { key: 'kind', header: '类型', sortField: 'kind', render: (g) => g.kind },
          { key: 'online', header: '状态', render: (g) => (g.online ? '在线' : '离线'), tone: (g) => (g.online ? 'success' : 'default') },
        ]}
        add={{ menu: 'gadget-add', onClick: dialog.openNew }}
        rowActions={(g) => [{ key: 'edit', label: '编辑', menu: 'gadget-edit', onClick: () => onEdit(g.id) }]}
        remove={{ menu: 'gadget-del', run: (ids) => api.delete(`/gadgets/${ids.join(',')}`), batch: true }}
        batchActions={[
          {
            key: 'restart',
            label: '重启',
            menu: 'gadget-restart',
            confirm: (rows) => ({ title: `重启 ${rows.length} 个部件?` }),
            onClick: (ids) => table.run(() => api.post(`/gadgets/${ids.join(',')}/restart`), '已重启'),
          },
        ]}
      />
      {dialog.open ? <p>新建部件</p> : null}
    </>
  );
}

/** The server's paging: filters by name and kind, sorts by `field`/`order`, pages. */
function pagingHandler(rows: Gadget[] = gadgets) {
  return (req: { query: Record<string, unknown> }) => {
    const q = req.query;
    let list = rows.filter((g) => (q.name ? g.name.includes(String(q.name)) : true) && (q.kind ? g.kind === q.kind : true));
    if (q.field === 'name' && q.order === 'descend') list = [...list].reverse();
    const size = Number(q.pageSize);
    const start = (Number(q.pageIndex) - 1) * size;
    return { total: list.length, items: list.slice(start, start + size) };
  };
}

const row = (name: string) => {
  const tr = screen.getByText(name, { selector: 'a, td, td *' }).closest('tr');
  if (!tr) throw new Error(`no row for ${name}`);
  return within(tr);
};

describe('the list screen, mounted outside a layout', () => {
  it('loads through the console query client and sends search, sort and paging as the paging query', async () => {
    const { user, api } = await renderWithProviders(<GadgetList />, {
      session: { user: { menus: ALL_KEYS } },
      api: { 'GET /gadgets/paging': pagingHandler() },
    });
    expect(await screen.findByRole('link', { name: 'gadget-01' })).toHaveAttribute('href', '/gadget/g1');
    expect(api.callsTo('GET /gadgets/paging')[0]?.query).toEqual(FIRST);
    expect(screen.getByText('共 12 条')).toBeInTheDocument();
    expect(row('gadget-01').getByText('在线')).toBeInTheDocument();

    await user.type(screen.getByRole('textbox', { name: '名称' }), 'gadget-1');
    await user.selectOptions(screen.getByRole('combobox', { name: '类型' }), '中继');
    await user.click(await screen.findByRole('button', { name: '查询' }));
    await waitFor(() => expect(api.callsTo('GET /gadgets/paging').at(-1)?.query).toEqual({ ...FIRST, name: 'gadget-1', kind: 'relay' }));
    expect(await screen.findByRole('link', { name: 'gadget-11' })).toBeInTheDocument();

    await user.click(await screen.findByRole('button', { name: '重置' }));
    await waitFor(() => expect(api.callsTo('GET /gadgets/paging').at(-1)?.query).toEqual(FIRST));
    await user.click(within(screen.getByRole('columnheader', { name: '名称' })).getByRole('button'));
    await waitFor(() => expect(api.callsTo('GET /gadgets/paging').at(-1)?.query).toEqual({ ...FIRST, field: 'name', order: 'ascend' }));
    await user.click(within(screen.getByRole('columnheader', { name: '名称' })).getByRole('button'));
    await waitFor(() => expect(api.callsTo('GET /gadgets/paging').at(-1)?.query).toEqual({ ...FIRST, field: 'name', order: 'descend' }));
    expect(await screen.findByRole('link', { name: 'gadget-12' })).toBeInTheDocument();

    await user.click(await screen.findByRole('button', { name: '下一页' }));
    await waitFor(() =>
      expect(api.callsTo('GET /gadgets/paging').at(-1)?.query).toEqual({ ...FIRST, pageIndex: 2, field: 'name', order: 'descend' }),
    );
    expect(await screen.findByRole('link', { name: 'gadget-02' })).toBeInTheDocument();
  });

  it('runs a batch action only after its confirm; cancel keeps the selection and sends nothing', async () => {
    const { user, api, eventsOf } = await renderWithProviders(<GadgetList />, {
      session: { user: { menus: ALL_KEYS } },
      api: { 'GET /gadgets/paging': pagingHandler(), 'POST /gadgets/:ids/restart': null },
    });
    await screen.findByRole('link', { name: 'gadget-01' });
    const restart = screen.getByRole('button', { name: '重启' });
    expect(restart).toBeDisabled();
    await user.click(await screen.findByRole('checkbox', { name: '选择 gadget-01' }));
    await user.click(await screen.findByRole('checkbox', { name: '选择 gadget-03' }));
    await user.click(restart);
    const ask = within(await screen.findByRole('alertdialog'));
    expect(ask.getByText('重启 2 个部件?')).toBeInTheDocument();
    await user.click(ask.getByRole('button', { name: '取消' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(api.callsTo('POST /gadgets/:ids/restart')).toHaveLength(0);
    expect(screen.getByText('已选择 2 项')).toBeInTheDocument();

    const before = api.callsTo('GET /gadgets/paging').length;
    await user.click(await screen.findByRole('button', { name: '重启' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(api.callsTo('POST /gadgets/:ids/restart').map((c) => c.path)).toEqual(['/gadgets/g1,g3/restart']));
    await waitFor(() => expect(eventsOf('notify')).toContainEqual({ intent: 'success', message: '已重启' }));
    await waitFor(() => expect(api.callsTo('GET /gadgets/paging').length).toBeGreaterThan(before)); // reloaded
    await waitFor(() => expect(screen.queryByText('已选择 2 项')).toBeNull());
  });

  it('deletes a row and a selection with the standard questions, then says so and reloads', async () => {
    const { user, api, eventsOf } = await renderWithProviders(<GadgetList />, {
      session: { user: { menus: ALL_KEYS } },
      api: { 'GET /gadgets/paging': pagingHandler(), 'DELETE /gadgets/:ids': null },
    });
    await screen.findByRole('link', { name: 'gadget-01' });
    await user.click(row('gadget-02').getByRole('button', { name: '删除' }));
    const one = within(await screen.findByRole('alertdialog'));
    expect(one.getByText('您确认要删除此行吗?')).toBeInTheDocument();
    await user.click(one.getByRole('button', { name: '确认' }));
    await waitFor(() => expect(api.callsTo('DELETE /gadgets/:ids').map((c) => c.path)).toEqual(['/gadgets/g2']));
    await waitFor(() => expect(eventsOf('notify')).toContainEqual({ intent: 'success', message: '删除成功' }));

    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    await user.click(await screen.findByRole('checkbox', { name: '全选当前页' }));
    const batch = screen.getAllByRole('button', { name: '删除' }).find((b) => !b.closest('tr'));
    if (!batch) throw new Error('no batch delete');
    await user.click(batch);
    const many = within(await screen.findByRole('alertdialog'));
    expect(many.getByText('您确定要删除选中的行吗?')).toBeInTheDocument();
    expect(many.getByText('删除之后无法进行恢复，请慎重考虑。')).toBeInTheDocument();
    await user.click(many.getByRole('button', { name: '确认' }));
    await waitFor(() => expect(api.callsTo('DELETE /gadgets/:ids')).toHaveLength(2));
    expect(api.callsTo('DELETE /gadgets/:ids')[1]?.path).toBe(`/gadgets/${gadgets.slice(0, 10).map((g) => g.id).join(',')}`);
  });

  it('reloads after a failed delete too: a row deleted elsewhere does not stay as a ghost', async () => {
    // g2 is still listed, but another session deleted it: the server no longer has it.
    let rows = gadgets;
    const { user, api, eventsOf } = await renderWithProviders(<GadgetList />, {
      session: { user: { menus: ALL_KEYS } },
      api: { 'GET /gadgets/paging': (req: { query: Record<string, unknown> }) => pagingHandler(rows)(req), 'DELETE /gadgets/:ids': reply.envelope(-1, '部件不存在：g2') },
    });
    await screen.findByRole('link', { name: 'gadget-02' });
    rows = gadgets.filter((g) => g.id !== 'g2');
    const loads = api.callsTo('GET /gadgets/paging').length;
    await user.click(row('gadget-02').getByRole('button', { name: '删除' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: '确认' }));
    await waitFor(() => expect(eventsOf('notify')).toContainEqual({ intent: 'error', message: '部件不存在：g2' }));
    await waitFor(() => expect(api.callsTo('GET /gadgets/paging').length).toBeGreaterThan(loads));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'gadget-02' })).toBeNull());
    expect(eventsOf('notify')).not.toContainEqual({ intent: 'success', message: '删除成功' });
  });

  it('hides what the session holds no key for: add, row and batch actions, the detail link', async () => {
    const edited: string[] = [];
    const view = await renderWithProviders(<GadgetList onEdit={(id) => edited.push(id)} />, {
      session: { user: { menus: ['gadget'] } },
      api: { 'GET /gadgets/paging': pagingHandler() },
    });
    await screen.findByText('gadget-01');
    expect(screen.queryByRole('link', { name: 'gadget-01' })).toBeNull();
    for (const name of ['新建', '编辑', '删除', '重启']) expect(screen.queryByRole('button', { name })).toBeNull();
    expect(screen.queryByRole('checkbox', { name: '选择 gadget-01' })).toBeNull(); // no batch action left: no selection
    view.unmount();

    const { user } = await renderWithProviders(<GadgetList onEdit={(id) => edited.push(id)} />, {
      session: { user: { menus: ['gadget', 'gadget-add', 'gadget-edit'] } },
      api: { 'GET /gadgets/paging': pagingHandler() },
    });
    await screen.findByText('gadget-01');
    expect(screen.queryByRole('button', { name: '删除' })).toBeNull();
    await user.click(row('gadget-01').getByRole('button', { name: '编辑' }));
    expect(edited).toEqual(['g1']);
    await user.click(await screen.findByRole('button', { name: '新建' }));
    expect(screen.getByText('新建部件')).toBeInTheDocument();
  });

  it('shows a failed load as an error state with a retry, not a blank table', async () => {
    let calls = 0;
    const paging = pagingHandler();
    const { user } = await renderWithProviders(<GadgetList />, {
      session: { user: { menus: ALL_KEYS } },
      api: {
        'GET /gadgets/paging': (req: { query: Record<string, unknown> }) => {
          calls += 1;
          return calls === 1 ? reply.envelope(-1, '部件服务不可用') : paging(req);
        },
      },
    });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('加载失败')).toBeInTheDocument();
    expect(within(alert).getByText('部件服务不可用')).toBeInTheDocument();
    expect(screen.queryByText('暂无数据')).toBeNull();
    await user.click(within(alert).getByRole('button', { name: '重试' }));
    expect(await screen.findByRole('link', { name: 'gadget-01' })).toBeInTheDocument();
    expect(screen.queryByText('加载失败')).toBeNull();
  });

  it('shows the empty state when the server has no rows', async () => {
    await renderWithProviders(<GadgetList />, {
      session: { user: { menus: ALL_KEYS } },
      api: { 'GET /gadgets/paging': { total: 0, items: [] } },
    });
    expect(await screen.findByText('暂无数据')).toBeInTheDocument();
    expect(screen.getByText('共 0 条')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
