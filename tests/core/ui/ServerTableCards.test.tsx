import { Button } from '@fluentui/react-components';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { type PageQuery, type PageResult, ServerTable, type ServerTableProps } from '../../../core/ui';
import { renderUi } from './render';

interface Host {
  id: string;
  name: string;
}

const hosts: Host[] = Array.from({ length: 12 }, (_, i) => ({ id: `h${i + 1}`, name: `host-${String(i + 1).padStart(2, '0')}` }));

function server(rows: Host[] = hosts) {
  return vi.fn(async (q: PageQuery): Promise<PageResult<Host>> => {
    const list = rows.filter((r) => (q.name ? r.name.includes(String(q.name)) : true));
    const start = (q.pageIndex - 1) * q.pageSize;
    return { total: list.length, items: list.slice(start, start + q.pageSize) };
  });
}

function Hosts(props: Partial<ServerTableProps<Host>> & { fetchPage: ServerTableProps<Host>['fetchPage'] }) {
  return (
    <ServerTable<Host>
      tableKey="hosts"
      title="主机"
      columns={[{ key: 'name', header: '名称', render: (h) => h.name }]}
      queryKey={['hosts']}
      getRowId={(h) => h.id}
      searchFields={[{ name: 'name', label: '名称' }]}
      cards={{ render: (h) => <strong>{h.name}</strong> }}
      rowActions={(h) => [{ key: 'open', label: `打开 ${h.name}`, onClick: () => undefined }]}
      {...props}
    />
  );
}

describe('ServerTable as cards', () => {
  it('switches between the table and cards of the same page, keeping search, paging and row actions', async () => {
    const fetchPage = server();
    const { user } = renderUi(<Hosts fetchPage={fetchPage} batchActions={[{ key: 'x', label: '批量', onClick: () => undefined }]} />);
    await screen.findByRole('cell', { name: 'host-01' });
    const tableView = screen.getByRole('button', { name: '表格视图' });
    const cardView = screen.getByRole('button', { name: '卡片视图' });
    expect(tableView).toHaveAttribute('aria-pressed', 'true');
    expect(cardView).toHaveAttribute('aria-pressed', 'false');

    await user.click(cardView);
    const list = await screen.findByRole('list', { name: '主机' });
    expect(screen.queryByRole('table')).toBeNull();
    const cards = within(list).getAllByRole('listitem');
    expect(cards).toHaveLength(10);
    expect(within(cards[0] as HTMLElement).getByText('host-01')).toBeInTheDocument();
    expect(within(cards[0] as HTMLElement).getByRole('button', { name: '打开 host-01' })).toBeInTheDocument();
    // No selection and no column settings in cards.
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(screen.queryByRole('button', { name: '列设置' })).toBeNull();
    expect(cardView).toHaveAttribute('aria-pressed', 'true');
    // The same page was shown: switching asked nothing new.
    expect(fetchPage).toHaveBeenCalledTimes(1);

    await user.click(screen.getByRole('button', { name: '下一页' }));
    await waitFor(() => expect(within(screen.getByRole('list', { name: '主机' })).getAllByRole('listitem')).toHaveLength(2));
    await user.type(screen.getByRole('textbox', { name: '名称' }), '-12');
    await user.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() => expect(fetchPage).toHaveBeenLastCalledWith({ pageIndex: 1, pageSize: 10, order: '', field: '', name: '-12' }));
    await waitFor(() => expect(within(screen.getByRole('list', { name: '主机' })).getAllByRole('listitem')).toHaveLength(1));

    await user.click(tableView);
    expect(await screen.findByRole('cell', { name: 'host-12' })).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: '主机' })).toBeNull();
  });

  it('starts in the view asked for, and says 暂无数据 as cards too', async () => {
    renderUi(<Hosts fetchPage={server([])} cards={{ render: (h) => h.name, defaultView: 'cards' }} />);
    expect(await screen.findByText('暂无数据')).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByRole('button', { name: '卡片视图' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('shows a failed load with its retry as cards', async () => {
    const fetchPage = vi.fn<(q: PageQuery) => Promise<PageResult<Host>>>().mockRejectedValueOnce(new Error('网络异常')).mockImplementation(server());
    const { user } = renderUi(<Hosts fetchPage={fetchPage} cards={{ render: (h) => h.name, defaultView: 'cards' }} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('网络异常');
    await user.click(screen.getByRole('button', { name: '重试' }));
    expect(await screen.findByRole('list', { name: '主机' })).toBeInTheDocument();
  });

  it('offers no switch without cards', async () => {
    renderUi(<Hosts fetchPage={server()} cards={undefined} />);
    await screen.findByRole('cell', { name: 'host-01' });
    expect(screen.queryByRole('button', { name: '卡片视图' })).toBeNull();
    expect(screen.getByRole('button', { name: '列设置' })).toBeInTheDocument();
  });
});

describe('asset badges', () => {
  it('labels each protocol and shows an unknown one as it is; the status says 运行中 / 不可用 / 未检测 / 测试中', async () => {
    const { AssetStatus, ProtocolBadge } = await import('../../../domain');
    renderUi(
      <div>
        <ProtocolBadge protocol="kubernetes" />
        <ProtocolBadge protocol="spice" />
        <AssetStatus active />
        <AssetStatus active={false} message="连接超时" />
        <AssetStatus active={false} />
        <AssetStatus active={false} testing />
        <Button>end</Button>
      </div>,
    );
    for (const text of ['Kubernetes', 'spice', '运行中', '不可用', '未检测', '测试中']) expect(screen.getByText(text)).toBeInTheDocument();
  });
});
