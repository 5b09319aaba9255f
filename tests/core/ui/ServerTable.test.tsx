import { Button } from '@fluentui/react-components';
import { screen, waitFor, within } from '@testing-library/react';
import { useRef } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type PageQuery,
  type PageResult,
  ServerTable,
  type ServerTableColumn,
  type ServerTableHandle,
  type ServerTableProps,
} from '../../../core/ui';
import { renderUi } from './render';

interface Asset {
  id: string;
  name: string;
  ip: string;
  protocol: string;
}

const all: Asset[] = Array.from({ length: 25 }, (_, i) => ({
  id: `a${i + 1}`,
  name: `host-${String(i + 1).padStart(2, '0')}`,
  ip: `10.0.0.${i + 1}`,
  protocol: i % 2 ? 'rdp' : 'ssh',
}));

function fakeServer(rows: Asset[] = all) {
  return vi.fn(async (q: PageQuery): Promise<PageResult<Asset>> => {
    let list = rows.filter((r) => (q.name ? r.name.includes(String(q.name)) : true));
    if (q.protocol) list = list.filter((r) => r.protocol === q.protocol);
    const start = (q.pageIndex - 1) * q.pageSize;
    return { total: list.length, items: list.slice(start, start + q.pageSize) };
  });
}

const columns: ServerTableColumn<Asset>[] = [
  { key: 'name', header: '名称', render: (r) => r.name, sortField: 'name' },
  { key: 'ip', header: 'IP', render: (r) => r.ip },
  { key: 'protocol', header: '协议', render: (r) => r.protocol, sortField: 'protocol' },
];

function Table(props: Partial<ServerTableProps<Asset>> & { fetchPage: ServerTableProps<Asset>['fetchPage'] }) {
  return (
    <ServerTable<Asset>
      tableKey="asset"
      title="资产列表"
      columns={columns}
      queryKey={['assets']}
      getRowId={(r) => r.id}
      rowLabel={(r) => `选择 ${r.name}`}
      {...props}
    />
  );
}

function ReloadPage({ fetchPage }: { fetchPage: ServerTableProps<Asset>['fetchPage'] }) {
  const ref = useRef<ServerTableHandle>(null);
  return (
    <>
      <Button onClick={() => void ref.current?.reload()}>reload</Button>
      <Table ref={ref} fetchPage={fetchPage} />
    </>
  );
}

const lastQuery = (fn: ReturnType<typeof fakeServer>) => fn.mock.calls.at(-1)?.[0];
const bodyRows = () => screen.getAllByRole('row').slice(1);

beforeEach(() => localStorage.clear());
afterEach(() => localStorage.clear());

describe('ServerTable', () => {
  it('loads the first page with the default params and renders rows, headers and total', async () => {
    const fetchPage = fakeServer();
    renderUi(<Table fetchPage={fetchPage} rowActions={(r) => <Button>编辑 {r.name}</Button>} />);
    expect(await screen.findByRole('cell', { name: 'host-01' })).toBeInTheDocument();
    expect(fetchPage).toHaveBeenCalledTimes(1);
    expect(fetchPage).toHaveBeenCalledWith({ pageIndex: 1, pageSize: 10, order: '', field: '' });
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['名称', 'IP', '协议', '操作']);
    expect(bodyRows()).toHaveLength(10);
    expect(screen.getByText('共 25 条')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '编辑 host-03' })).toBeInTheDocument();
  });

  it('pages and changes the page size (back to page 1)', async () => {
    const fetchPage = fakeServer();
    const { user } = renderUi(<Table fetchPage={fetchPage} />);
    await screen.findByRole('cell', { name: 'host-01' });
    expect(screen.getByRole('button', { name: '上一页' })).toBeDisabled();
    await user.click(await screen.findByRole('button', { name: '下一页' }));
    expect(await screen.findByRole('cell', { name: 'host-11' })).toBeInTheDocument();
    expect(lastQuery(fetchPage)).toMatchObject({ pageIndex: 2, pageSize: 10 });
    await user.click(await screen.findByRole('button', { name: '第 3 页' }));
    expect(await screen.findByRole('cell', { name: 'host-21' })).toBeInTheDocument();
    expect(bodyRows()).toHaveLength(5);
    expect(screen.getByRole('button', { name: '第 3 页' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('button', { name: '下一页' })).toBeDisabled();

    await user.selectOptions(screen.getByLabelText('每页条数'), '20 条/页');
    await waitFor(() => expect(lastQuery(fetchPage)).toMatchObject({ pageIndex: 1, pageSize: 20 }));
    await waitFor(() => expect(bodyRows()).toHaveLength(20));
  });

  it('toggles sort ascend → descend → none with the header button (keyboard too)', async () => {
    const fetchPage = fakeServer();
    const { user } = renderUi(<Table fetchPage={fetchPage} />);
    await screen.findByRole('cell', { name: 'host-01' });
    const nameHeader = screen.getByRole('columnheader', { name: '名称' });
    const sortButton = within(nameHeader).getByRole('button', { name: '名称' });
    expect(nameHeader).toHaveAttribute('aria-sort', 'none');
    expect(within(screen.getByRole('columnheader', { name: 'IP' })).queryByRole('button')).toBeNull();

    await user.click(sortButton);
    await waitFor(() => expect(lastQuery(fetchPage)).toMatchObject({ field: 'name', order: 'ascend', pageIndex: 1 }));
    expect(screen.getByRole('columnheader', { name: '名称' })).toHaveAttribute('aria-sort', 'ascending');

    sortButton.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(lastQuery(fetchPage)).toMatchObject({ field: 'name', order: 'descend' }));
    expect(screen.getByRole('columnheader', { name: '名称' })).toHaveAttribute('aria-sort', 'descending');

    await user.click(sortButton);
    await waitFor(() => expect(lastQuery(fetchPage)).toMatchObject({ field: '', order: '' }));

    // another column starts at ascend
    await user.click(within(screen.getByRole('columnheader', { name: '协议' })).getByRole('button'));
    await waitFor(() => expect(lastQuery(fetchPage)).toMatchObject({ field: 'protocol', order: 'ascend' }));
  });

  it('sends search values on 查询 and Enter, and clears them on 重置', async () => {
    const fetchPage = fakeServer();
    const { user } = renderUi(
      <Table
        fetchPage={fetchPage}
        searchFields={[
          { name: 'name', label: '名称' },
          {
            name: 'protocol',
            label: '协议',
            type: 'select',
            options: [
              { value: 'ssh', label: 'SSH' },
              { value: 'rdp', label: 'RDP' },
            ],
          },
        ]}
      />,
    );
    await screen.findByRole('cell', { name: 'host-01' });
    await user.click(await screen.findByRole('button', { name: '下一页' }));
    await waitFor(() => expect(lastQuery(fetchPage)).toMatchObject({ pageIndex: 2 }));

    const search = screen.getByRole('textbox', { name: '名称' });
    await user.type(search, 'host-1');
    await user.selectOptions(screen.getByRole('combobox', { name: '协议' }), 'SSH');
    await user.click(await screen.findByRole('button', { name: '查询' }));
    await waitFor(() =>
      expect(lastQuery(fetchPage)).toEqual({ pageIndex: 1, pageSize: 10, order: '', field: '', name: 'host-1', protocol: 'ssh' }),
    );
    await waitFor(() => expect(screen.getByText('共 5 条')).toBeInTheDocument());

    await user.click(await screen.findByRole('button', { name: '重置' }));
    await waitFor(() => expect(lastQuery(fetchPage)).toEqual({ pageIndex: 1, pageSize: 10, order: '', field: '' }));
    expect(search).toHaveValue('');

    await user.type(search, 'host-2{Enter}');
    await waitFor(() => expect(lastQuery(fetchPage)).toMatchObject({ name: 'host-2', pageIndex: 1 }));
  });

  it('starts from a field’s initialValue (e.g. from the URL), while 重置 goes back to its defaultValue', async () => {
    const fetchPage = fakeServer();
    const protocol = { name: 'protocol', label: '协议', type: 'select' as const, options: [{ value: 'ssh', label: 'SSH' }, { value: 'rdp', label: 'RDP' }] };
    const { user } = renderUi(<Table fetchPage={fetchPage} searchFields={[{ ...protocol, initialValue: 'rdp' }]} />);
    await waitFor(() => expect(screen.getByText('共 12 条')).toBeInTheDocument());
    expect(fetchPage.mock.calls[0]?.[0]).toEqual({ pageIndex: 1, pageSize: 10, order: '', field: '', protocol: 'rdp' });
    expect(screen.getByRole('combobox', { name: '协议' })).toHaveValue('rdp');
    await user.click(await screen.findByRole('button', { name: '重置' }));
    await waitFor(() => expect(lastQuery(fetchPage)).toEqual({ pageIndex: 1, pageSize: 10, order: '', field: '' }));
    expect(screen.getByRole('combobox', { name: '协议' })).toHaveValue('');
  });

  it('gives a toolbar function the list’s total', async () => {
    const fetchPage = vi.fn(fakeServer());
    const { user } = renderUi(
      <Table
        fetchPage={fetchPage}
        searchFields={[{ name: 'name', label: '名称' }]}
        toolbar={({ total }) => <Button disabled={total === 0}>{`清空 ${total}`}</Button>}
      />,
    );
    expect(await screen.findByRole('button', { name: '清空 25' })).toBeEnabled();
    await user.type(screen.getByRole('textbox', { name: '名称' }), 'nothing-like-this{Enter}');
    expect(await screen.findByRole('button', { name: '清空 0' })).toBeDisabled();
  });

  it('selects rows and calls the batch action with their ids', async () => {
    const fetchPage = fakeServer();
    const onDelete = vi.fn(async (_ids: (string | number)[], _rows: Asset[]) => {});
    const { user } = renderUi(
      <Table fetchPage={fetchPage} batchActions={[{ key: 'del', label: '批量删除', danger: true, onClick: onDelete }]} />,
    );
    await screen.findByRole('cell', { name: 'host-01' });
    const batch = screen.getByRole('button', { name: '批量删除' });
    expect(batch).toBeDisabled();
    await user.click(await screen.findByRole('checkbox', { name: '选择 host-02' }));
    await user.click(await screen.findByRole('checkbox', { name: '选择 host-05' }));
    expect(screen.getByRole('checkbox', { name: '选择 host-02' })).toBeChecked();
    expect(screen.getByText('已选择 2 项')).toBeInTheDocument();
    expect(batch).toBeEnabled();
    await user.click(batch);
    expect(onDelete).toHaveBeenCalledTimes(1);
    expect(onDelete.mock.calls[0]?.[0]).toEqual(['a2', 'a5']);
    expect(onDelete.mock.calls[0]?.[1].map((r) => r.name)).toEqual(['host-02', 'host-05']);
    await waitFor(() => expect(screen.getByRole('button', { name: '批量删除' })).toBeDisabled());

    // select all on the page, then a page change clears the selection
    await user.click(await screen.findByRole('checkbox', { name: '全选当前页' }));
    expect(screen.getByText('已选择 10 项')).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: '下一页' }));
    await screen.findByRole('cell', { name: 'host-11' });
    expect(screen.queryByText(/已选择/)).not.toBeInTheDocument();
  });

  it('hides a column from 列设置 and persists it in localStorage cs-<key>', async () => {
    const fetchPage = fakeServer();
    const first = renderUi(<Table fetchPage={fetchPage} />);
    const { user } = first;
    await screen.findByRole('cell', { name: 'host-01' });
    await user.click(await screen.findByRole('button', { name: '列设置' }));
    const item = await screen.findByRole('menuitemcheckbox', { name: 'IP' });
    expect(item).toHaveAttribute('aria-checked', 'true');
    await user.click(item);
    await waitFor(() => expect(screen.queryByRole('columnheader', { name: 'IP' })).not.toBeInTheDocument());
    expect(screen.queryByRole('cell', { name: '10.0.0.1' })).not.toBeInTheDocument();
    expect(JSON.parse(localStorage.getItem('cs-asset') ?? '{}')).toMatchObject({ ip: { show: false } });
    first.unmount();

    renderUi(<Table fetchPage={fakeServer()} />);
    await screen.findByRole('cell', { name: 'host-01' });
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['名称', '协议']);
  });

  it('shows the empty state', async () => {
    renderUi(<Table fetchPage={fakeServer([])} />);
    expect(await screen.findByText('暂无数据')).toBeInTheDocument();
    expect(screen.getByText('共 0 条')).toBeInTheDocument();
  });

  it('shows the error with a retry that refetches', async () => {
    const fetchPage = vi
      .fn<(q: PageQuery) => Promise<PageResult<Asset>>>()
      .mockRejectedValueOnce(new Error('网络异常'))
      .mockImplementation(fakeServer());
    const { user } = renderUi(<Table fetchPage={fetchPage} />);
    expect(await screen.findByText('加载失败')).toBeInTheDocument();
    expect(screen.getByText('网络异常')).toBeInTheDocument();
    expect(screen.queryByText('暂无数据')).not.toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: '重试' }));
    expect(await screen.findByRole('cell', { name: 'host-01' })).toBeInTheDocument();
    expect(screen.queryByText('加载失败')).not.toBeInTheDocument();
    expect(fetchPage).toHaveBeenCalledTimes(2);
  });

  it('reloads through the ref handle and the refresh button', async () => {
    const rows = [...all.slice(0, 3)];
    const fetchPage = fakeServer(rows);
    const { user } = renderUi(<ReloadPage fetchPage={fetchPage} />);
    await screen.findByRole('cell', { name: 'host-01' });
    rows.push({ id: 'new', name: 'host-new', ip: '10.9.9.9', protocol: 'ssh' });
    await user.click(await screen.findByRole('button', { name: 'reload' }));
    expect(await screen.findByRole('cell', { name: 'host-new' })).toBeInTheDocument();
    rows.shift();
    await user.click(await screen.findByRole('button', { name: '刷新' }));
    await waitFor(() => expect(screen.queryByRole('cell', { name: 'host-01' })).not.toBeInTheDocument());
    expect(fetchPage).toHaveBeenCalledTimes(3);
  });
});

describe('ServerTable after deletes', () => {
  it('steps back to the last page when the shown page becomes empty', async () => {
    const rows = all.slice(0, 11);
    const fetchPage = fakeServer(rows);
    const { user } = renderUi(<ReloadPage fetchPage={fetchPage} />);
    await screen.findByRole('cell', { name: 'host-01' });
    await user.click(await screen.findByRole('button', { name: '第 2 页' }));
    expect(await screen.findByRole('cell', { name: 'host-11' })).toBeInTheDocument();
    rows.pop();
    await user.click(await screen.findByRole('button', { name: 'reload' }));
    await waitFor(() => expect(lastQuery(fetchPage)).toMatchObject({ pageIndex: 1 }));
    expect(await screen.findByRole('cell', { name: 'host-10' })).toBeInTheDocument();
  });
});
