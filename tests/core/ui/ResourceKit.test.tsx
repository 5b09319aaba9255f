// The kit pieces the resource screens brought: tag chips and free tag entry, secrets kept in a textarea and read from
// the values, linked field values, multi-select and split search fields, rows changed in place, batch runs in chunks
// with their progress, downloads that carry the token, and the file import dialog (pick → dry run → import).
import { renderWithProviders } from '@/core/testing';
import { act, screen, waitFor, within } from '@testing-library/react';
import { useRef, useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  BatchProgress,
  downloadUrl,
  FormDialog,
  type FormItem,
  ImportDialog,
  runInChunks,
  ServerTable,
  type ServerTableHandle,
  splitTags,
  TagList,
  textFileHref,
  useApi,
  useBatchRun,
  useDownload,
  useTableActions,
} from '../../../core';
import { renderUi } from './render';

vi.setConfig({ testTimeout: 30_000 });

afterEach(() => vi.restoreAllMocks());

describe('tags', () => {
  it('reads a comma string or a list, without blanks, the `-` placeholder or repeats', () => {
    expect(splitTags('a, b,,-,a')).toEqual(['a', 'b']);
    expect(splitTags(['x', ' ', '-', 'y'])).toEqual(['x', 'y']);
    expect(splitTags('-')).toEqual([]);
    expect(splitTags(null)).toEqual([]);
  });

  it('shows each tag as a chip, `-` when there is none', () => {
    renderUi(
      <ul>
        <li data-testid="some">
          <TagList tags="生产,web" />
        </li>
        <li data-testid="none">
          <TagList tags="-" />
        </li>
      </ul>,
    );
    expect(within(screen.getByTestId('some')).getByText('生产')).toBeInTheDocument();
    expect(within(screen.getByTestId('some')).getByText('web')).toBeInTheDocument();
    expect(screen.getByTestId('none')).toHaveTextContent(/^-$/);
  });
});

interface HostValues extends Record<string, unknown> {
  protocol: string;
  port: number | undefined;
  tags: string[];
  privateKey: string;
  privateKeySet: boolean;
}

function HostDialog({ record, onSubmit }: { record: HostValues; onSubmit: (v: HostValues) => void }) {
  const api = useApi();
  const fields: FormItem<HostValues>[] = [
    {
      name: 'protocol',
      label: '协议',
      type: 'radio',
      options: [
        { value: 'ssh', label: 'SSH' },
        { value: 'rdp', label: 'RDP' },
      ],
      linked: (value, before) => (value === before.protocol ? undefined : { port: value === 'rdp' ? 3389 : 22 }),
    },
    { name: 'port', label: '端口', type: 'number', required: true },
    { name: 'tags', label: '标签', type: 'tags', remoteOptions: { queryKey: ['tags'], load: async () => (await api.get<string[]>('/tags')).map((t) => ({ value: t, label: t })) } },
    { name: 'privateKey', label: '私钥', type: 'textarea', required: true, isSet: (v) => v.privateKeySet },
  ];
  return <FormDialog<HostValues> open onClose={() => {}} title="主机" fields={fields} initialValues={record} onSubmit={onSubmit} />;
}

describe('form fields', () => {
  const record: HostValues = { protocol: 'ssh', port: 22, tags: ['web'], privateKey: '', privateKeySet: true };

  it('changes linked values with a field, adds free and offered tags, keeps a stored key left empty', async () => {
    const onSubmit = vi.fn();
    const { user } = await renderWithProviders(<HostDialog record={record} onSubmit={onSubmit} />, { api: { 'GET /tags': ['web', 'db', 'prod'] } });
    const dialog = within(await screen.findByRole('dialog', { name: '主机' }));
    await user.click(dialog.getByRole('radio', { name: 'RDP' }));
    expect(dialog.getByRole('spinbutton', { name: /端口/ })).toHaveValue(3389);

    // a secret textarea that is set: never filled, says so, not required
    const key = dialog.getByRole('textbox', { name: /私钥/ });
    expect(key).toHaveValue('');
    expect(key).toHaveAttribute('placeholder', '留空则不修改');
    expect(dialog.getByText('已设置；留空则保持不变')).toBeInTheDocument();

    // free entry: type and Enter; an offered tag: pick it from the list
    const tags = dialog.getByRole('combobox', { name: /标签/ });
    await user.type(tags, 'edge{Enter}');
    expect(await dialog.findByText('edge')).toBeInTheDocument();
    await user.type(tags, 'd');
    await user.click(await screen.findByRole('option', { name: 'db' }));
    // a tag is removed by its chip
    await user.click(within(dialog.getByRole('listbox', { name: '已选项' })).getByRole('option', { name: 'web 移除' }));
    await user.click(dialog.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    const sent = onSubmit.mock.calls[0]?.[0];
    expect(sent).toMatchObject({ protocol: 'rdp', port: 3389, tags: ['edge', 'db'] });
    expect(sent).not.toHaveProperty('privateKey');
  });

  it('requires the secret once none is stored', async () => {
    const onSubmit = vi.fn();
    const { user } = await renderWithProviders(<HostDialog record={{ ...record, privateKeySet: false }} onSubmit={onSubmit} />, {
      api: { 'GET /tags': [] },
    });
    const dialog = within(await screen.findByRole('dialog', { name: '主机' }));
    expect(dialog.queryByText('已设置；留空则保持不变')).toBeNull();
    await user.click(dialog.getByRole('button', { name: '确定' }));
    expect(await dialog.findByText('请输入私钥')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });
});

interface Host {
  id: string;
  name: string;
  active: boolean;
}

const HOSTS: Host[] = [
  { id: 'h1', name: 'web-01', active: false },
  { id: 'h2', name: 'db-01', active: false },
];

function HostList({ onExport }: { onExport: (query: Record<string, string | number>) => void }) {
  const api = useApi();
  const table = useTableActions(['hosts']);
  const handle = useRef<ServerTableHandle>(null);
  return (
    <>
      <button type="button" onClick={() => onExport(handle.current?.searchQuery() ?? {})}>
        导出
      </button>
      <button type="button" onClick={() => table.updateRows<Host>((h) => (h.id === 'h2' ? { ...h, active: true } : h))}>
        标记
      </button>
      <ServerTable<Host>
        ref={handle}
        tableKey="host"
        title="主机列表"
        queryKey={['hosts']}
        fetchPage={(q) => api.get('/hosts/paging', { params: q })}
        getRowId={(h) => h.id}
        extraParams={{ scope: 'all' }}
        searchFields={[
          {
            name: 'network',
            label: '网络',
            toQuery: (v) => {
              const [ip = '', port = ''] = v.split(':');
              return { ip, port };
            },
          },
          {
            name: 'tags',
            label: '标签',
            type: 'multiselect',
            remoteOptions: { queryKey: ['tags'], load: async () => (await api.get<string[]>('/tags')).map((t) => ({ value: t, label: t })) },
          },
        ]}
        columns={[
          { key: 'name', header: '名称', render: (h) => h.name },
          { key: 'active', header: '状态', render: (h) => (h.active ? '运行中' : '不可用') },
        ]}
      />
    </>
  );
}

describe('server table additions', () => {
  const FIRST = { scope: 'all', pageIndex: 1, pageSize: 10, order: '', field: '' };

  it('sends a split value and a multi-select as one comma list, and tells the applied search', async () => {
    const onExport = vi.fn();
    const { user, api } = await renderWithProviders(<HostList onExport={onExport} />, {
      api: { 'GET /hosts/paging': { total: 2, items: HOSTS }, 'GET /tags': ['web', 'db', 'prod'] },
    });
    expect(await screen.findByText('web-01')).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: '网络' }), ':22');
    await user.click(screen.getByRole('combobox', { name: '标签' }));
    await user.click(await screen.findByRole('menuitemcheckbox', { name: 'web' }));
    await user.click(await screen.findByRole('menuitemcheckbox', { name: 'prod' }));
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() => expect(api.callsTo('GET /hosts/paging').at(-1)?.query).toEqual({ ...FIRST, port: '22', tags: 'web,prod' }));
    await user.click(screen.getByRole('button', { name: '导出' }));
    expect(onExport).toHaveBeenCalledWith({ scope: 'all', port: '22', tags: 'web,prod' });

    await user.clear(screen.getByRole('textbox', { name: '网络' }));
    await user.type(screen.getByRole('textbox', { name: '网络' }), '10.0.0.1:2222');
    await user.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() =>
      expect(api.callsTo('GET /hosts/paging').at(-1)?.query).toEqual({ ...FIRST, ip: '10.0.0.1', port: '2222', tags: 'web,prod' }),
    );
  });

  it('changes a row in place without asking the server again', async () => {
    const { user, api } = await renderWithProviders(<HostList onExport={vi.fn()} />, {
      api: { 'GET /hosts/paging': { total: 2, items: HOSTS }, 'GET /tags': [] },
    });
    const row = (await screen.findByText('db-01')).closest('tr');
    if (!row) throw new Error('no row');
    expect(within(row).getByText('不可用')).toBeInTheDocument();
    const calls = api.callsTo('GET /hosts/paging').length;
    await user.click(screen.getByRole('button', { name: '标记' }));
    expect(await within(row).findByText('运行中')).toBeInTheDocument();
    expect(screen.getByText('web-01').closest('tr')).toHaveTextContent('不可用');
    expect(api.callsTo('GET /hosts/paging')).toHaveLength(calls);
  });
});

function Runner({ gates }: { gates: (() => void)[] }) {
  const batch = useBatchRun();
  const [finished, setFinished] = useState(false);
  return (
    <>
      <button
        type="button"
        onClick={() =>
          void batch.run([1, 2, 3], 2, () => new Promise<void>((resolve) => gates.push(resolve))).then(() => setFinished(true))
        }
      >
        开始
      </button>
      <BatchProgress label="连通性测试" progress={batch.progress} />
      {finished ? <p>完成</p> : null}
    </>
  );
}

function Export() {
  const download = useDownload();
  return (
    <button type="button" onClick={() => download('/assets/export', { protocol: 'ssh' })}>
      导出
    </button>
  );
}

describe('batch runs', () => {
  it('runs chunks one after the other and reports each', async () => {
    const seen: string[][] = [];
    let running = 0;
    let most = 0;
    const reports: number[] = [];
    await runInChunks(
      Array.from({ length: 23 }, (_, i) => `a${i}`),
      10,
      async (chunk) => {
        running++;
        most = Math.max(most, running);
        seen.push(chunk);
        await new Promise((resolve) => setTimeout(resolve, 1));
        running--;
        return chunk.length;
      },
      (_, __, done) => reports.push(done),
    );
    expect(seen.map((c) => c.length)).toEqual([10, 10, 3]);
    expect(most).toBe(1);
    expect(reports).toEqual([10, 20, 23]);
  });

  it('stops at a failed chunk', async () => {
    const run = vi.fn(async (chunk: number[]) => {
      if (chunk[0] === 2) throw new Error('断开');
    });
    await expect(runInChunks([0, 1, 2, 3, 4], 2, run)).rejects.toThrow('断开');
    expect(run).toHaveBeenCalledTimes(2);
  });

  it('shows done/total on a progress bar while running, nothing after', async () => {
    const gates: (() => void)[] = [];
    const { user } = renderUi(<Runner gates={gates} />);
    await user.click(screen.getByRole('button', { name: '开始' }));
    expect(await screen.findByText('连通性测试 0/3')).toBeInTheDocument();
    act(() => gates[0]?.());
    expect(await screen.findByText('连通性测试 2/3')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: '连通性测试' })).toHaveAttribute('aria-valuenow', String(2 / 3));
    await waitFor(() => expect(gates).toHaveLength(2));
    act(() => gates[1]?.());
    expect(await screen.findByText('完成')).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).toBeNull();
  });
});

describe('downloads', () => {
  it('puts the token and the non-empty parameters in the URL', () => {
    const api = { baseUrl: '', token: () => 'tok en' };
    expect(downloadUrl(api, '/assets/export', { name: 'web', tags: 'a,b', ip: '', port: undefined })).toBe(
      '/assets/export?name=web&tags=a%2Cb&X-Auth-Token=tok+en',
    );
    expect(downloadUrl({ baseUrl: '', token: () => null }, '/x')).toBe('/x');
  });

  it('downloads through a link with the session token', async () => {
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.getAttribute('href') ?? '');
    });
    const { user } = await renderWithProviders(<Export />, { session: { token: 'secret-token' } });
    await user.click(screen.getByRole('button', { name: '导出' }));
    expect(clicked).toEqual(['/assets/export?protocol=ssh&lng=zh-CN&X-Auth-Token=secret-token']);
    expect(document.querySelector('a[download]')).toBeNull(); // the helper link is gone again
  });

  it('makes a text file link, with a byte-order mark when asked', () => {
    expect(textFileHref('a,b', { type: 'text/csv', bom: true })).toBe('data:text/csv;charset=utf-8,%EF%BB%BFa%2Cb');
    expect(textFileHref('x')).toBe('data:text/plain;charset=utf-8,x');
  });
});

interface Line {
  row: number;
  name: string;
  error: string | null;
}

function Importer({ preview, onImport }: { preview: (f: File) => Promise<Line[]>; onImport: (f: File) => Promise<void> }) {
  const [open, setOpen] = useState(true);
  return (
    <>
      <ImportDialog<Line>
        open={open}
        onClose={() => setOpen(false)}
        title="导入主机"
        accept=".csv"
        note="每行一台主机"
        sample={{ label: '下载示例', fileName: 'sample.csv', href: textFileHref('name', { type: 'text/csv', bom: true }) }}
        preview={preview}
        columns={[
          { key: 'row', header: '行', render: (l) => l.row },
          { key: 'name', header: '名称', render: (l) => l.name },
        ]}
        getRowKey={(l) => l.row}
        rowError={(l) => l.error}
        onImport={onImport}
      />
      {open ? null : <p>已关闭</p>}
    </>
  );
}

describe('import dialog', () => {
  const csv = () => new File(['a\nb\n'], 'hosts.csv', { type: 'text/csv' });

  it('previews a chosen file, highlights the bad rows, and imports the good ones', async () => {
    const preview = vi.fn(async () => [
      { row: 1, name: 'web-01', error: null },
      { row: 2, name: '', error: '名称不能为空' },
      { row: 3, name: 'db-01', error: null },
    ]);
    const onImport = vi.fn(async () => {});
    const { user } = renderUi(<Importer preview={preview} onImport={onImport} />);
    const dialog = within(await screen.findByRole('dialog', { name: '导入主机' }));
    expect(dialog.getByText('每行一台主机')).toBeInTheDocument();
    expect(dialog.getByRole('link', { name: '下载示例' })).toHaveAttribute('download', 'sample.csv');
    expect(dialog.getByRole('button', { name: '导入' })).toBeDisabled();

    const file = csv();
    await user.upload(dialog.getByLabelText('选择文件'), file);
    expect(preview).toHaveBeenCalledWith(file);
    const table = within(await dialog.findByRole('table', { name: '导入预览' }));
    expect(dialog.getByText('共 3 行，其中 1 行有错误，不会导入')).toBeInTheDocument();
    const bad = table.getByText('名称不能为空').closest('tr');
    expect(bad).toHaveAttribute('aria-invalid', 'true');
    expect(table.getByText('web-01').closest('tr')).not.toHaveAttribute('aria-invalid');
    await user.click(dialog.getByRole('button', { name: '导入 2 行' }));
    await waitFor(() => expect(onImport).toHaveBeenCalledWith(file));
    expect(await screen.findByText('已关闭')).toBeInTheDocument();
  });

  it('shows why a file cannot be read, and a refused import without closing', async () => {
    const preview = vi.fn(async (f: File): Promise<Line[]> => {
      if (f.name === 'empty.csv') throw new Error('csv数据为空');
      return [{ row: 1, name: 'web-01', error: null }];
    });
    const onImport = vi.fn(async () => {
      throw new Error('资产名称已存在');
    });
    const { user } = renderUi(<Importer preview={preview} onImport={onImport} />);
    const dialog = within(await screen.findByRole('dialog', { name: '导入主机' }));
    await user.upload(dialog.getByLabelText('选择文件'), new File([''], 'empty.csv'));
    expect(await dialog.findByRole('alert')).toHaveTextContent('csv数据为空');
    expect(dialog.getByRole('button', { name: '导入' })).toBeDisabled();

    await user.upload(dialog.getByLabelText('选择文件'), csv());
    await user.click(await dialog.findByRole('button', { name: '导入 1 行' }));
    expect(await dialog.findByRole('alert')).toHaveTextContent('资产名称已存在');
    expect(screen.queryByText('已关闭')).toBeNull();
  });

  it('offers nothing to import when every row is bad', async () => {
    const preview = async () => [{ row: 1, name: 'x', error: '端口不正确' }];
    const { user } = renderUi(<Importer preview={preview} onImport={vi.fn()} />);
    const dialog = within(await screen.findByRole('dialog', { name: '导入主机' }));
    await user.upload(dialog.getByLabelText('选择文件'), csv());
    expect(await dialog.findByText('端口不正确')).toBeInTheDocument();
    expect(dialog.getByRole('button', { name: '导入 0 行' })).toBeDisabled();
  });
});
