import { renderPlugin, reply } from '@/core/testing';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import terminal from '../../../plugins/terminal';
import { parseUploadStream } from '../../../plugins/terminal/components/upload';
import { type ALL_FLAGS, connectSocket, fakeSockets, sessionMaker } from './fixtures';

const ROUTE = '/term?assetId=a1&assetName=web-1';

const file = (name: string, isDir: boolean, size = 0) => ({
  name,
  path: `/root/${name}`,
  isDir,
  isLink: false,
  size,
  modTime: '2026-11-20 10:00:00',
  mode: isDir ? 'drwxr-xr-x' : '-rw-r--r--',
});
const ROOT = [file('b.txt', false, 2048), file('Zeta', true), file('a.log', false, 10), file('alpha', true)];

const formField = (body: unknown, name: string) => (body instanceof FormData ? body.get(name) : undefined);

async function openFiles(flags: Partial<typeof ALL_FLAGS> = {}, more: Record<string, unknown> = {}) {
  const sockets = fakeSockets();
  const view = await renderPlugin(terminal, {
    route: ROUTE,
    api: {
      'POST /sessions': sessionMaker(flags),
      'POST /sessions/:id/connect': null,
      // The home at `/` unless a test says otherwise: most tests start at the top.
      'GET /sessions/:id/home': { path: '/' },
      'POST /sessions/:id/ls': ({ body }: { body: unknown }) => (formField(body, 'dir') === '/root' ? ROOT : [file('root', true)].map((f) => ({ ...f, path: '/root' }))),
      ...more,
    },
  });
  await connectSocket(sockets);
  await screen.findByRole('tab', { name: 'web-1 已连接' });
  await view.user.click(screen.getByRole('button', { name: '文件管理' }));
  const drawer = await screen.findByRole('dialog', { name: '文件管理' });
  return { ...view, drawer };
}

const rowNames = (drawer: HTMLElement) =>
  within(drawer)
    .getAllByRole('row')
    .slice(1)
    .map((row) => row.getAttribute('aria-label') ?? '..');

describe('terminal file manager', { timeout: 20_000 }, () => {
  it('lists a folder (folders first), opens one on double-click and goes back with ..', async () => {
    const { drawer, user, api } = await openFiles();
    await within(drawer).findByRole('row', { name: 'root' });
    expect(formField(api.callsTo('POST /sessions/:id/ls')[0]?.body, 'dir')).toBe('/');
    expect(api.callsTo('POST /sessions/:id/ls')[0]?.path).toBe('/sessions/s1/ls');
    await user.dblClick(within(drawer).getByRole('row', { name: 'root' }));
    await within(drawer).findByRole('row', { name: 'b.txt' });
    expect(rowNames(drawer)).toEqual(['..', 'alpha', 'Zeta', 'a.log', 'b.txt']);
    expect(within(drawer).getByRole('textbox', { name: '路径' })).toHaveValue('/root');
    expect(within(within(drawer).getByRole('row', { name: 'b.txt' })).getByText('2.00 KB')).toBeInTheDocument();
    await user.dblClick(within(drawer).getAllByRole('row')[1] as HTMLElement);
    await within(drawer).findByRole('row', { name: 'root' });
  });

  it("opens in the session's home folder (as a shell starts there), not at /", async () => {
    const { drawer, user, api } = await openFiles({}, { 'GET /sessions/:id/home': { path: '/root' } });
    await within(drawer).findByRole('row', { name: 'b.txt' });
    expect(api.callsTo('GET /sessions/:id/home')[0]?.path).toBe('/sessions/s1/home');
    // The first listing is the home's: no detour through /.
    expect(api.callsTo('POST /sessions/:id/ls').map((c) => formField(c.body, 'dir'))).toEqual(['/root']);
    expect(within(drawer).getByRole('textbox', { name: '路径' })).toHaveValue('/root');
    expect(rowNames(drawer)).toEqual(['..', 'alpha', 'Zeta', 'a.log', 'b.txt']);
    // Up leads out of it.
    await user.click(within(drawer).getByRole('button', { name: '上级目录' }));
    await within(drawer).findByRole('row', { name: 'root' });
    expect(within(drawer).getByRole('textbox', { name: '路径' })).toHaveValue('/');
    expect(api.callsTo('GET /sessions/:id/home')).toHaveLength(1);
  });

  it('a server without the home route (1.3.9) opens at /, without an error toast', async () => {
    const { drawer, api, eventsOf } = await openFiles({}, { 'GET /sessions/:id/home': reply.http(404, { message: 'Not Found' }) });
    await within(drawer).findByRole('row', { name: 'root' });
    expect(formField(api.callsTo('POST /sessions/:id/ls')[0]?.body, 'dir')).toBe('/');
    expect(within(drawer).getByRole('textbox', { name: '路径' })).toHaveValue('/');
    expect(eventsOf('notify')).toEqual([]);
  });

  it('shows the mode as the server sends it and an unset date as -', async () => {
    const entries = [
      { ...file('tmp', true), path: '/tmp', mode: 'drwxrwxrwt' },
      { ...file('old.bin', false, 1), path: '/old.bin', modTime: '0001-01-01 00:00:00' },
      { ...file('link', false), path: '/link', isLink: true, mode: 'lrwxrwxrwx' },
    ];
    const { drawer } = await openFiles({}, { 'POST /sessions/:id/ls': entries });
    const tmp = await within(drawer).findByRole('row', { name: 'tmp' });
    expect(within(tmp).getByText('drwxrwxrwt')).toBeInTheDocument();
    expect(within(tmp).getByText('2026-11-20 10:00:00')).toBeInTheDocument();
    const old = within(drawer).getByRole('row', { name: 'old.bin' });
    expect(old).not.toHaveTextContent('0001-01-01');
    expect(within(old).getAllByRole('cell').map((c) => c.textContent)[3]).toBe('-');
    expect(within(within(drawer).getByRole('row', { name: 'link' })).getByText('lrwxrwxrwx')).toBeInTheDocument();
  });

  it("double-click on a file offers it for download (the row's controls keep their own double-click)", async () => {
    const clicked: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(`${this.getAttribute('href')} ${this.download}`);
    });
    try {
      const { drawer, user } = await openFiles({}, { 'GET /sessions/:id/home': { path: '/root' } });
      await user.dblClick(await within(drawer).findByRole('row', { name: 'b.txt' }));
      expect(clicked).toHaveLength(1);
      const [href, name] = (clicked[0] as string).split(' ');
      const url = new URL(href as string, 'http://x');
      expect(url.pathname).toBe('/sessions/s1/download');
      expect(url.searchParams.get('file')).toBe('/root/b.txt');
      expect(name).toBe('b.txt');
      // A double-click on the row's own checkbox only ticks it.
      await user.dblClick(within(within(drawer).getByRole('row', { name: 'a.log' })).getByRole('checkbox'));
      expect(clicked).toHaveLength(1);
    } finally {
      click.mockRestore();
    }
  });

  it('double-click on a file the strategy may not download warns instead', async () => {
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    try {
      const { drawer, user, eventsOf } = await openFiles({ download: '0' }, { 'GET /sessions/:id/home': { path: '/root' } });
      await user.dblClick(await within(drawer).findByRole('row', { name: 'b.txt' }));
      expect(click).not.toHaveBeenCalled();
      expect(eventsOf('notify')).toEqual([expect.objectContaining({ intent: 'warning', message: '授权策略禁止下载' })]);
    } finally {
      click.mockRestore();
    }
  });

  it('lists a big folder a page at a time, filters it by name, and selects only what is on screen', async () => {
    // 250 entries: dir-000 … dir-009 first (folders), then file-010 … file-249.
    const BIG = Array.from({ length: 250 }, (_, i) => ({
      ...file(`${i < 10 ? 'dir' : 'file'}-${String(i).padStart(3, '0')}`, i < 10),
      path: `/big/${i < 10 ? 'dir' : 'file'}-${String(i).padStart(3, '0')}`,
    }));
    const { drawer, user } = await openFiles({}, { 'POST /sessions/:id/ls': ({ body }: { body: unknown }) => (formField(body, 'dir') === '/big' ? BIG : []) });
    const path = within(drawer).getByRole('textbox', { name: '路径' });
    await user.clear(path);
    await user.type(path, '/big{Enter}');
    await within(drawer).findByRole('row', { name: 'dir-000' });
    // Page 1: '..' and the first 100 entries; the pager says how many there are.
    expect(rowNames(drawer)).toHaveLength(101);
    expect(rowNames(drawer).at(-1)).toBe('file-099');
    const pager = within(drawer).getByRole('navigation', { name: '分页' });
    expect(within(pager).getByText('共 250 条')).toBeInTheDocument();
    await user.click(within(pager).getByRole('button', { name: '第 3 页' }));
    expect(rowNames(drawer)).toEqual(['..', ...BIG.slice(200).map((f) => f.name)]);

    // Select all takes the 50 rows on screen, not the 200 on other pages.
    await user.click(within(drawer).getByRole('checkbox', { name: '全选' }));
    expect(within(drawer).getByRole('checkbox', { name: '选择 file-249' })).toBeChecked();
    await user.click(within(pager).getByRole('button', { name: '第 1 页' }));
    expect(within(drawer).getByRole('checkbox', { name: '选择 file-099' })).not.toBeChecked();
    expect(within(drawer).getByRole('checkbox', { name: '全选' })).toBePartiallyChecked();

    // The filter narrows the list (without case), back to page 1; no match says so; another folder clears it.
    const filter = within(drawer).getByRole('textbox', { name: '按名称筛选' });
    await user.type(filter, 'FILE-24');
    expect(rowNames(drawer)).toEqual(['..', ...BIG.slice(240).map((f) => f.name)]);
    expect(within(drawer).queryByRole('navigation', { name: '分页' })).toBeNull();
    await user.type(filter, 'x');
    expect(within(drawer).getByText('没有名称包含「FILE-24x」的条目')).toBeInTheDocument();
    await user.clear(path);
    await user.type(path, '/{Enter}');
    await waitFor(() => expect(within(drawer).getByRole('textbox', { name: '按名称筛选' })).toHaveValue(''));
  }, 60_000); // 250 rows through jsdom: over 20 s on a loaded machine

  it('navigates to a typed path on Enter', async () => {
    const { drawer, user, api } = await openFiles();
    const path = within(drawer).getByRole('textbox', { name: '路径' });
    await user.clear(path);
    await user.type(path, '/root{Enter}');
    await within(drawer).findByRole('row', { name: 'alpha' });
    expect(formField(api.callsTo('POST /sessions/:id/ls').at(-1)?.body, 'dir')).toBe('/root');
  });

  it('disables, not hides, what the strategy forbids, saying why', async () => {
    const { drawer } = await openFiles({ upload: '0', createDir: '0', rename: '0', delete: '0', download: '1', edit: '0' });
    const row = await within(drawer).findByRole('row', { name: 'root' });
    const rename = within(row).getByRole('button', { name: '重命名' });
    expect(rename).toHaveAttribute('aria-disabled', 'true');
    expect(rename).toHaveAccessibleDescription('授权策略禁止重命名');
    expect(within(row).getByRole('button', { name: '删除' })).toHaveAttribute('aria-disabled', 'true');
    expect(within(drawer).getByRole('button', { name: '上传文件' })).toHaveAttribute('aria-disabled', 'true');
    expect(within(drawer).getByRole('button', { name: '创建文件夹' })).toHaveAttribute('aria-disabled', 'true');
  });

  it('makes a folder, renames and deletes (recursive, confirmed) through the session routes', async () => {
    const { drawer, user, api } = await openFiles(
      {},
      { 'POST /sessions/:id/mkdir': null, 'POST /sessions/:id/rename': null, 'POST /sessions/:id/rm': null },
    );
    await within(drawer).findByRole('row', { name: 'root' });

    await user.click(within(drawer).getByRole('button', { name: '创建文件夹' }));
    const mkdir = await screen.findByRole('dialog', { name: '创建文件夹' });
    await user.type(within(mkdir).getByRole('textbox', { name: /文件夹名称/ }), 'logs');
    await user.click(within(mkdir).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(api.callsTo('POST /sessions/:id/mkdir')).toHaveLength(1));
    expect(api.callsTo('POST /sessions/:id/mkdir')[0]?.query).toEqual({ dir: '/logs' });

    await user.click(within(await within(drawer).findByRole('row', { name: 'root' })).getByRole('button', { name: '重命名' }));
    const rename = await screen.findByRole('dialog', { name: '重命名' });
    const name = within(rename).getByRole('textbox', { name: /新的名称/ });
    expect(name).toHaveValue('root');
    await user.clear(name);
    await user.type(name, 'home');
    await user.click(within(rename).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(api.callsTo('POST /sessions/:id/rename')).toHaveLength(1));
    expect(api.callsTo('POST /sessions/:id/rename')[0]?.query).toEqual({ oldName: '/root', newName: '/home' });

    await user.click(await within(drawer).findByRole('checkbox', { name: '选择 root' }));
    await user.click(within(drawer).getByRole('button', { name: '批量删除' }));
    const ask = await screen.findByRole('alertdialog');
    expect(ask).toHaveTextContent('文件夹会连同其中的所有内容一起删除');
    await user.click(within(ask).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(api.callsTo('POST /sessions/:id/rm')).toHaveLength(1));
    expect(formField(api.callsTo('POST /sessions/:id/rm')[0]?.body, 'file')).toBe('/root');
  });

  it('edits a file: reads it as text (not parsed, even JSON), saves through /edit', async () => {
    const fetched: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      fetched.push(url);
      return new Response('{"a": 1}\n', { headers: { 'content-type': 'application/octet-stream' } });
    });
    try {
      const { drawer, user, api } = await openFiles({}, { 'POST /sessions/:id/edit': null });
      await user.dblClick(await within(drawer).findByRole('row', { name: 'root' }));
      await user.click(within(await within(drawer).findByRole('row', { name: 'b.txt' })).getByRole('button', { name: '编辑' }));
      const editor = await screen.findByRole('dialog', { name: '编辑 b.txt' });
      const text = await within(editor).findByRole('textbox', { name: '文件内容' });
      expect(text).toHaveValue('{"a": 1}\n');
      const url = new URL(fetched[0] as string, 'http://x');
      expect(url.pathname).toBe('/sessions/s1/download');
      expect(url.searchParams.get('file')).toBe('/root/b.txt');
      expect(url.searchParams.get('X-Auth-Token')).toBe('test-token');
      await user.type(text, 'more');
      await user.click(within(editor).getByRole('button', { name: '保存' }));
      await waitFor(() => expect(api.callsTo('POST /sessions/:id/edit')).toHaveLength(1));
      const body = api.callsTo('POST /sessions/:id/edit')[0]?.body;
      expect(formField(body, 'file')).toBe('/root/b.txt');
      expect(formField(body, 'fileContent')).toBe('{"a": 1}\nmore');
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('download is a link to the file with the token; edit refused when its flag is 0', async () => {
    const { drawer, user } = await openFiles({ edit: '0' });
    await user.dblClick(await within(drawer).findByRole('row', { name: 'root' }));
    const row = await within(drawer).findByRole('row', { name: 'b.txt' });
    const link = within(row).getByRole('link', { name: '下载' });
    const url = new URL(link.getAttribute('href') as string, 'http://x');
    expect(url.pathname).toBe('/sessions/s1/download');
    expect(url.searchParams.get('file')).toBe('/root/b.txt');
    expect(within(row).getByRole('button', { name: '编辑' })).toHaveAttribute('aria-disabled', 'true');
  });

  it('uploads a dropped file with its progress: sent, then the server’s ㊥ counts, then done', async () => {
    const xhrs: FakeXhr[] = [];
    class FakeXhr {
      upload = { onprogress: null as ((e: ProgressEvent) => void) | null };
      onprogress: (() => void) | null = null;
      onload: (() => void) | null = null;
      onerror: (() => void) | null = null;
      onabort: (() => void) | null = null;
      status = 0;
      responseText = '';
      url = '';
      body: FormData | null = null;
      constructor() {
        xhrs.push(this);
      }
      open(_method: string, url: string) {
        this.url = url;
      }
      send(body: FormData) {
        this.body = body;
      }
      abort() {
        this.onabort?.();
      }
    }
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    try {
      const { drawer, api } = await openFiles();
      await within(drawer).findByRole('row', { name: 'root' });
      const payload = new File(['x'.repeat(1000)], 'app.tar.gz');
      fireEvent.drop(within(drawer).getByLabelText('文件列表，可拖入文件上传'), { dataTransfer: { files: [payload] } });
      await waitFor(() => expect(xhrs).toHaveLength(1));
      const xhr = xhrs[0] as FakeXhr;
      const url = new URL(xhr.url, 'http://x');
      expect(url.pathname).toBe('/sessions/s1/upload');
      expect(Object.fromEntries(url.searchParams)).toEqual({ dir: '/', lng: 'zh-CN', 'X-Auth-Token': 'test-token' });
      expect((xhr.body as FormData).get('file')).toMatchObject({ name: 'app.tar.gz' });

      xhr.upload.onprogress?.({ loaded: 500, total: 1000, lengthComputable: true } as ProgressEvent);
      const bar = await within(drawer).findByRole('progressbar', { name: 'app.tar.gz' });
      await waitFor(() => expect(bar).toHaveAttribute('aria-valuenow', '0.5'));
      xhr.upload.onprogress?.({ loaded: 1000, total: 1000, lengthComputable: true } as ProgressEvent);
      xhr.responseText = '300㊥';
      xhr.onprogress?.();
      expect(await within(drawer).findByText(/向目标机器传输中/)).toBeInTheDocument();
      await waitFor(() => expect(bar).toHaveAttribute('aria-valuenow', '0.3'));
      const listed = api.callsTo('POST /sessions/:id/ls').length;
      xhr.status = 200;
      xhr.responseText = '300㊥1000㊥{"code":1,"message":"success","data":null}';
      xhr.onload?.();
      expect(await within(drawer).findByText('上传成功')).toBeInTheDocument();
      await waitFor(() => expect(api.callsTo('POST /sessions/:id/ls').length).toBeGreaterThan(listed)); // refreshed
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("shows the server's refusal at the end of the stream as a failed upload, and cancel aborts", async () => {
    const xhrs: { onload: (() => void) | null; onabort: (() => void) | null; status: number; responseText: string; aborted: boolean }[] = [];
    vi.stubGlobal(
      'XMLHttpRequest',
      class {
        upload = { onprogress: null };
        onprogress = null;
        onload: (() => void) | null = null;
        onerror = null;
        onabort: (() => void) | null = null;
        status = 0;
        responseText = '';
        aborted = false;
        constructor() {
          xhrs.push(this);
        }
        open() {}
        send() {}
        abort() {
          this.aborted = true;
          this.onabort?.();
        }
      },
    );
    try {
      const { drawer, user } = await openFiles();
      await within(drawer).findByRole('row', { name: 'root' });
      const input = drawer.querySelector('input[type=file]') as HTMLInputElement;
      await user.upload(input, [new File(['a'], 'one.txt'), new File(['b'], 'two.txt')]);
      await waitFor(() => expect(xhrs).toHaveLength(2));
      const [first, second] = xhrs as [(typeof xhrs)[0], (typeof xhrs)[0]];
      first.status = 200;
      first.responseText = '{"code":-1,"message":"禁止操作","data":null}';
      first.onload?.();
      expect(await within(drawer).findByText('上传失败：禁止操作')).toBeInTheDocument();
      await user.click(within(drawer).getByRole('button', { name: '取消上传 two.txt' }));
      expect(second.aborted).toBe(true);
      expect(await within(drawer).findByText('已取消上传')).toBeInTheDocument();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('upload progress stream (contract §5.5)', () => {
  it('reads the last count and the envelope at the end', () => {
    expect(parseUploadStream('')).toEqual({ transferred: 0, envelope: null });
    expect(parseUploadStream('1024㊥')).toEqual({ transferred: 1024, envelope: null });
    expect(parseUploadStream('1024㊥4096㊥')).toEqual({ transferred: 4096, envelope: null });
    expect(parseUploadStream('1024㊥4096㊥{"code":1,"message":"success","data":null}')).toEqual({
      transferred: 4096,
      envelope: { code: 1, message: 'success', data: null },
    });
    expect(parseUploadStream('10㊥{"code":-1,"message":"磁盘已满"').envelope).toBeNull(); // still arriving
    expect(parseUploadStream('{"code":-1,"message":"禁止操作","data":null}')).toEqual({ transferred: 0, envelope: { code: -1, message: '禁止操作', data: null } });
  });
});
