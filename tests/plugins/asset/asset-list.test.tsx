import { expectValidPlugin, type FakeRequest, renderPlugin } from '@/core/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import asset from '../../../plugins/asset';
import { ALL_KEYS, asAdmin, desk, FIRST, LISTS, page, web } from './fixtures';

vi.setConfig({ testTimeout: 30_000 });
afterEach(() => vi.restoreAllMocks());

const row = (name: string) => {
  const cell = screen.getByText(name, { selector: 'a, td, td *' });
  const tr = cell.closest('tr');
  if (!tr) throw new Error(`no row for ${name}`);
  return within(tr);
};

/** Opens a row's ⋯ menu and clicks one of its items. */
async function overflow(user: { click: (e: Element) => Promise<void> }, name: string, item: string) {
  await user.click(row(name).getByRole('button', { name: '更多操作' }));
  await user.click(await screen.findByRole('menuitem', { name: item }));
}

describe('asset list', () => {
  it('is a valid plugin', async () => {
    await expectValidPlugin(asset);
  });

  it('lists assets with the paging query and shows every column as 1.3.9 does', async () => {
    const { api, user } = await renderPlugin(asset, { route: '/asset', session: asAdmin(), api: { ...LISTS, 'GET /assets/paging': page() } });
    expect(await screen.findByRole('link', { name: 'web-01' })).toHaveAttribute('href', '/asset/a1');
    expect(api.callsTo('GET /assets/paging')[0]?.query).toEqual(FIRST);
    expect(screen.getByRole('tree', { name: '主菜单' })).toHaveTextContent('资产管理');
    expect(screen.getByRole('table', { name: '资产列表' })).toBeInTheDocument();

    const w = row('web-01');
    expect(w.getByText('前端服务器')).toBeInTheDocument(); // description under the name
    expect(w.getByText('SSH')).toBeInTheDocument();
    expect(w.getByText('10.0.0.1:22')).toBeInTheDocument();
    expect(w.getByText('prod')).toBeInTheDocument();
    expect(w.getByText('web')).toBeInTheDocument();
    expect(w.getByText('运行中')).toBeInTheDocument();
    expect(w.getByText('Ann')).toBeInTheDocument();
    expect(w.getByText('2026-11-01 10:00:00')).toBeInTheDocument();
    const cells = w.getAllByRole('cell');
    expect(cells[9]).toHaveTextContent(/^-$/); // never accessed: 0001-01-01 00:00:00

    const d = row('desk-01');
    expect(d.getByText('RDP')).toBeInTheDocument();
    expect(d.getByText('10.0.0.2:3389')).toBeInTheDocument();
    expect(d.queryByText('-', { selector: 'span' })).toBeNull(); // a `-` description is no second line
    expect(d.getAllByRole('cell')[5]).toHaveTextContent(/^-$/); // tags `-`: none (cells: selection, #, name, protocol, network, tags…)
    expect(d.getByText('Bob')).toBeInTheDocument();
    expect(d.getAllByRole('cell')[9]).toHaveTextContent(/前/); // relative, e.g. "x 天前"
    await user.hover(d.getAllByRole('cell')[9]?.querySelector('span') as Element);
    expect(await screen.findByText('2026-11-02 09:30:00')).toBeInTheDocument();
    await user.hover(d.getByText('不可用'));
    expect(await screen.findByText('dial tcp 10.0.0.2:3389: i/o timeout')).toBeInTheDocument();
  });

  it('接入 (key asset-access) opens the terminal of an SSH or Telnet asset (with its protocol), the desktop of a VNC or RDP one, in a new browser tab', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const sw = { ...web, id: 'a3', name: 'switch-01', protocol: 'telnet', port: 23 };
    const vnc = { ...desk, id: 'a4', name: 'vnc-01', protocol: 'vnc', port: 5900 };
    const k8s = { ...desk, id: 'a5', name: 'k8s-01', protocol: 'kubernetes', port: 6443 };
    const { user } = await renderPlugin(asset, { route: '/asset', session: asAdmin(), api: { ...LISTS, 'GET /assets/paging': page([web, desk, sw, vnc, k8s]) } });
    await screen.findByRole('link', { name: 'web-01' });
    expect(row('k8s-01').queryByRole('button', { name: '接入' })).toBeNull(); // nothing opens Kubernetes here
    await user.click(row('desk-01').getByRole('button', { name: '接入' }));
    expect(open).toHaveBeenLastCalledWith('#/access?assetId=a2&assetName=desk-01&protocol=rdp', '_blank');
    await user.click(row('vnc-01').getByRole('button', { name: '接入' }));
    expect(open).toHaveBeenLastCalledWith('#/access?assetId=a4&assetName=vnc-01&protocol=vnc', '_blank');
    await user.click(row('web-01').getByRole('button', { name: '接入' }));
    expect(open).toHaveBeenLastCalledWith('#/term?assetId=a1&assetName=web-01&protocol=ssh', '_blank');
    await user.click(row('switch-01').getByRole('button', { name: '接入' }));
    expect(open).toHaveBeenLastCalledWith('#/term?assetId=a3&assetName=switch-01&protocol=telnet', '_blank');
  });

  it('no 接入 without asset-access', async () => {
    await renderPlugin(asset, { route: '/asset', session: asAdmin(ALL_KEYS.filter((k) => k !== 'asset-access')), api: { ...LISTS, 'GET /assets/paging': page() } });
    await screen.findByRole('link', { name: 'web-01' });
    expect(row('web-01').queryByRole('button', { name: '接入' })).toBeNull();
  });

  it('says 未检测 for an asset never checked (inactive without a message), not 不可用', async () => {
    const fresh = { ...web, id: 'a3', name: 'new-01', active: false, activeMessage: '' };
    await renderPlugin(asset, { route: '/asset', session: asAdmin(), api: { ...LISTS, 'GET /assets/paging': page([fresh]) } });
    await screen.findByRole('link', { name: 'new-01' });
    expect(row('new-01').getByText('未检测')).toBeInTheDocument();
    expect(row('new-01').queryByText('不可用')).toBeNull();
  });

  it('searches by name, protocol (VNC included), network split as ip and port, tags and status', async () => {
    const { api, user } = await renderPlugin(asset, { route: '/asset', session: asAdmin(), api: { ...LISTS, 'GET /assets/paging': page() } });
    await screen.findByRole('link', { name: 'web-01' });
    const last = () => api.callsTo('GET /assets/paging').at(-1)?.query;

    await user.type(screen.getByRole('textbox', { name: '名称' }), 'web');
    await user.selectOptions(screen.getByRole('combobox', { name: '协议' }), 'VNC');
    await user.type(screen.getByRole('textbox', { name: '网络' }), '10.0.0.1:22');
    await user.click(screen.getByRole('combobox', { name: '标签' }));
    expect(screen.queryByRole('menuitemcheckbox', { name: '-' })).toBeNull(); // the placeholder is no tag
    await user.click(await screen.findByRole('menuitemcheckbox', { name: 'prod' }));
    await user.click(await screen.findByRole('menuitemcheckbox', { name: 'db' }));
    await user.keyboard('{Escape}');
    await user.selectOptions(screen.getByRole('combobox', { name: '状态' }), '不可用');
    await user.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() =>
      expect(last()).toEqual({ ...FIRST, name: 'web', protocol: 'vnc', ip: '10.0.0.1', port: '22', tags: 'prod,db', active: 'false' }),
    );

    await user.click(screen.getByRole('button', { name: '重置' }));
    await waitFor(() => expect(last()).toEqual(FIRST));
    await user.type(screen.getByRole('textbox', { name: '网络' }), ':2222');
    await user.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() => expect(last()).toEqual({ ...FIRST, port: '2222' }));
    await user.clear(screen.getByRole('textbox', { name: '网络' }));
    await user.type(screen.getByRole('textbox', { name: '网络' }), '127');
    await user.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() => expect(last()).toEqual({ ...FIRST, ip: '127' }));

    // sorting the network column sorts by ip
    await user.click(screen.getByRole('button', { name: '网络' }));
    await waitFor(() => expect(last()).toEqual({ ...FIRST, ip: '127', field: 'ip', order: 'ascend' }));
  });

  it('hides every action whose key the user lacks', async () => {
    const view = await renderPlugin(asset, { route: '/asset', session: asAdmin(['asset']), api: { ...LISTS, 'GET /assets/paging': page() } });
    expect(await screen.findByText('web-01')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'web-01' })).toBeNull();
    for (const name of ['新建', '导入', '编辑', '删除', '更多操作', '连通性测试']) expect(screen.queryByRole('button', { name })).toBeNull();
    expect(screen.queryByRole('checkbox')).toBeNull(); // no batch action: no selection
    expect(screen.getByRole('button', { name: '导出' })).toBeInTheDocument(); // the page's own key
    expect(screen.queryByRole('button', { name: '接入' })).toBeNull(); // no connect before the sessions issue
    view.unmount();

    await renderPlugin(asset, {
      route: '/asset',
      session: asAdmin(['asset', 'asset-conn-test']),
      api: { ...LISTS, 'GET /assets/paging': page() },
    });
    await screen.findByText('web-01');
    expect(screen.getAllByRole('button', { name: '连通性测试' })[0]).toBeDisabled(); // batch, nothing selected yet
    expect(screen.queryByRole('button', { name: '删除' })).toBeNull();
    // 连通性测试 is all the row's ⋯ menu would hold: a plain button then.
    expect(row('web-01').queryByRole('button', { name: '更多操作' })).toBeNull();
    expect(row('web-01').getAllByRole('button').map((b) => b.textContent)).toEqual(['连通性测试']);
  });

  it('speaks English too', async () => {
    await renderPlugin(asset, { route: '/asset', lng: 'en-US', session: asAdmin(), api: { ...LISTS, 'GET /assets/paging': page() } });
    expect(await screen.findByRole('table', { name: 'Assets' })).toBeInTheDocument();
    expect(row('web-01').getByText('Running')).toBeInTheDocument();
    expect(row('desk-01').getByText('Unavailable')).toBeInTheDocument();
    for (const name of ['Import', 'Export', 'Connectivity test']) expect(screen.getByRole('button', { name })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Network' })).toHaveAttribute('placeholder', 'e.g. 127, 127.0.0.1, :22, 127.0.0.1:22');
  });

  it('shows 403 without the asset key', async () => {
    await renderPlugin(asset, { route: '/asset', session: asAdmin([]) });
    expect(await screen.findByText('抱歉，您似乎没有此页面的权限。')).toBeInTheDocument();
  });

  it('tests the selection in chunks of 10, with progress, updating rows as each chunk returns', async () => {
    const many = Array.from({ length: 12 }, (_, i) => ({ ...desk, id: `m${i + 1}`, name: `host-${String(i + 1).padStart(2, '0')}` }));
    const pending: { ids: string[]; answer: (items: object[]) => void }[] = [];
    const { api, user, eventsOf } = await renderPlugin(asset, {
      route: '/asset',
      session: asAdmin(),
      api: {
        ...LISTS,
        'GET /assets/paging': page(many),
        'POST /assets/tcping': (req: FakeRequest) =>
          new Promise((resolve) => pending.push({ ids: (req.body as { ids: string[] }).ids, answer: resolve })),
      },
    });
    await screen.findByRole('link', { name: 'host-01' });
    await user.click(screen.getByRole('checkbox', { name: '全选当前页' }));
    await user.click(screen.getByRole('button', { name: '连通性测试' }));

    await waitFor(() => expect(pending).toHaveLength(1));
    expect(pending[0]?.ids).toEqual(many.slice(0, 10).map((a) => a.id));
    expect(await screen.findByText('连通性测试 0/12')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: '连通性测试' })).toBeInTheDocument();
    expect(row('host-01').getByText('测试中')).toBeInTheDocument();
    expect(row('host-12').getByText('测试中')).toBeInTheDocument();

    // the first chunk returns: its rows change, the last two still wait
    pending[0]?.answer(many.slice(0, 10).map((a, i) => ({ id: a.id, active: i !== 3, message: i === 3 ? 'connection refused' : '' })));
    expect(await screen.findByText('连通性测试 10/12')).toBeInTheDocument();
    expect(row('host-01').getByText('运行中')).toBeInTheDocument();
    expect(row('host-04').getByText('不可用')).toBeInTheDocument();
    expect(row('host-11').getByText('测试中')).toBeInTheDocument();
    await waitFor(() => expect(pending).toHaveLength(2));
    expect(pending[1]?.ids).toEqual(['m11', 'm12']);

    pending[1]?.answer([
      { id: 'm11', active: true, message: '' },
      { id: 'm12', active: false, message: 'no route to host' },
    ]);
    await waitFor(() => expect(screen.queryByRole('progressbar', { name: '连通性测试' })).toBeNull());
    expect(row('host-11').getByText('运行中')).toBeInTheDocument();
    expect(row('host-12').getByText('不可用')).toBeInTheDocument();
    expect(screen.queryByText('测试中')).toBeNull();
    expect(eventsOf('notify')).toContainEqual({ intent: 'info', message: '连通性测试完成：10 个运行中，2 个不可用' });
    expect(api.callsTo('GET /assets/paging')).toHaveLength(1); // updated in place, not reloaded
  });

  it('tests one asset from its ⋯ menu and updates its row in place', async () => {
    let answer: (r: object) => void = () => {};
    const { api, user } = await renderPlugin(asset, {
      route: '/asset',
      session: asAdmin(),
      api: { ...LISTS, 'GET /assets/paging': page(), 'POST /assets/:id/tcping': () => new Promise((resolve) => (answer = resolve)) },
    });
    await screen.findByRole('link', { name: 'desk-01' });
    await overflow(user, 'desk-01', '连通性测试');
    expect(await row('desk-01').findByText('测试中')).toBeInTheDocument();
    expect(api.callsTo('POST /assets/:id/tcping').map((c) => c.path)).toEqual(['/assets/a2/tcping']);
    answer({ active: true, message: '' });
    expect(await row('desk-01').findByText('运行中')).toBeInTheDocument();
    expect(api.callsTo('GET /assets/paging')).toHaveLength(1);
  });

  it('deletes the selection after asking, all ids in one call', async () => {
    const { api, user, eventsOf } = await renderPlugin(asset, {
      route: '/asset',
      session: asAdmin(),
      api: { ...LISTS, 'GET /assets/paging': page(), 'DELETE /assets/:ids': null },
    });
    await screen.findByRole('link', { name: 'web-01' });
    await user.click(screen.getByRole('checkbox', { name: '选择「web-01」' }));
    await user.click(screen.getByRole('checkbox', { name: '选择「desk-01」' }));
    const batchDelete = screen.getAllByRole('button', { name: '删除' }).find((b) => !b.closest('tr'));
    if (!batchDelete) throw new Error('no batch delete');
    await user.click(batchDelete);
    const confirm = within(await screen.findByRole('alertdialog'));
    expect(confirm.getByText('您确定要删除选中的行吗?')).toBeInTheDocument();
    await user.click(confirm.getByRole('button', { name: '确认' }));
    await waitFor(() => expect(api.callsTo('DELETE /assets/:ids').map((c) => c.path)).toEqual(['/assets/a1,a2']));
    await waitFor(() => expect(eventsOf('notify')).toContainEqual({ intent: 'success', message: '删除成功' }));
  });

  it('exports the filtered list as a download carrying the token', async () => {
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.getAttribute('href') ?? '');
    });
    const { user } = await renderPlugin(asset, { route: '/asset', session: { token: 'tok', ...asAdmin() }, api: { ...LISTS, 'GET /assets/paging': page() } });
    await screen.findByRole('link', { name: 'web-01' });
    await user.click(screen.getByRole('button', { name: '导出' }));
    expect(clicked).toEqual(['/assets/export?lng=zh-CN&X-Auth-Token=tok']);
    await user.type(screen.getByRole('textbox', { name: '网络' }), '10.0.0.1:22');
    await user.selectOptions(screen.getByRole('combobox', { name: '协议' }), 'SSH');
    await user.click(screen.getByRole('button', { name: '查询' }));
    await user.click(screen.getByRole('button', { name: '导出' }));
    expect(clicked[1]).toBe('/assets/export?protocol=ssh&ip=10.0.0.1&port=22&lng=zh-CN&X-Auth-Token=tok');
  });

  it('changes the owner, starting from the current one', async () => {
    const { api, user, eventsOf } = await renderPlugin(asset, {
      route: '/asset',
      session: asAdmin(),
      api: { ...LISTS, 'GET /assets/paging': page(), 'POST /assets/:id/change-owner': '' },
    });
    await screen.findByRole('link', { name: 'web-01' });
    await overflow(user, 'web-01', '更换所有者');
    const dialog = within(await screen.findByRole('dialog', { name: '更换所有者' }));
    const owner = dialog.getByRole('combobox', { name: /所有者/ });
    await waitFor(() => expect(owner).toHaveDisplayValue('Ann'));
    await user.selectOptions(owner, 'Bob');
    await user.click(dialog.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(api.callsTo('POST /assets/:id/change-owner')).toHaveLength(1));
    const call = api.callsTo('POST /assets/:id/change-owner')[0];
    expect(call?.path).toBe('/assets/a1/change-owner');
    expect(call?.query).toEqual({ owner: 'u2' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(eventsOf('notify')).toContainEqual({ intent: 'success', message: '更换成功' });
    await waitFor(() => expect(api.callsTo('GET /assets/paging').length).toBeGreaterThan(1));
  });
});
