import { definePlugin } from '@/core';
import { expectValidPlugin, renderPlugin } from '@/core/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import myArea from '../../../plugins/my-area';

vi.setConfig({ testTimeout: 30_000 });

const web = {
  id: 'a1',
  name: 'web-01',
  description: '前端服务器',
  ip: '',
  port: 0,
  protocol: 'ssh',
  active: true,
  activeMessage: '',
  tags: 'prod,web',
  lastAccessTime: '0001-01-01 00:00:00',
};
const desk = { ...web, id: 'a2', name: 'desk-01', description: '-', protocol: 'rdp', active: false, activeMessage: '连接超时', tags: '-' };
const page = { total: 2, items: [web, desk] };
const FIRST = { pageIndex: 1, pageSize: 10, order: '', field: '' };
const ann = { user: { id: 'u2', username: 'ann', nickname: 'Ann', type: 'user', menus: [] } };
const handlers = { 'GET /worker/assets/paging': page, 'GET /worker/assets/tags': ['prod', 'web', 'db', '-'] };

// Stands in for the info plugin's /my-info (a plugin test imports no other plugin): 个人中心 at order 100.
const MyInfo = () => <h1>个人中心</h1>;
const centre = definePlugin({
  id: 'fx-centre',
  pages: [{ menuKey: null, path: '/my-info', page: 'MyInfo', labelKey: 'label', order: 100, layout: 'user', fallbackHome: 'user' }],
  load: () => Promise.resolve({ MyInfo }),
  locales: { 'zh-CN': { label: '个人中心' }, 'en-US': { label: 'Personal centre' } },
});

const row = (name: string) => {
  const tr = screen.getByText(name, { selector: 'td *' }).closest('tr');
  if (!tr) throw new Error(`no row for ${name}`);
  return within(tr);
};

describe('my-area plugin: 我的资产', () => {
  it('接入 opens an SSH or Telnet asset’s terminal (portal mode, with its protocol) or a VNC or RDP asset’s desktop in a new browser tab', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const sw = { ...web, id: 'a3', name: 'switch-01', protocol: 'telnet' };
    const vnc = { ...desk, id: 'a4', name: 'vnc-01', protocol: 'vnc' };
    const k8s = { ...desk, id: 'a5', name: 'k8s-01', protocol: 'kubernetes' };
    try {
      const { user } = await renderPlugin(myArea, { session: ann, api: { ...handlers, 'GET /worker/assets/paging': { total: 5, items: [web, desk, sw, vnc, k8s] } } });
      await screen.findByText('web-01', { selector: 'td *' });
      expect(row('k8s-01').queryByRole('button', { name: '接入' })).toBeNull(); // nothing opens Kubernetes here
      await user.click(row('desk-01').getByRole('button', { name: '接入' }));
      expect(open).toHaveBeenLastCalledWith('#/access?assetId=a2&assetName=desk-01&protocol=rdp', '_blank');
      await user.click(row('vnc-01').getByRole('button', { name: '接入' }));
      expect(open).toHaveBeenLastCalledWith('#/access?assetId=a4&assetName=vnc-01&protocol=vnc', '_blank');
      await user.click(row('web-01').getByRole('button', { name: '接入' }));
      expect(open).toHaveBeenLastCalledWith('#/term?assetId=a1&assetName=web-01&protocol=ssh&isWorker=true', '_blank');
      await user.click(row('switch-01').getByRole('button', { name: '接入' }));
      expect(open).toHaveBeenLastCalledWith('#/term?assetId=a3&assetName=switch-01&protocol=telnet&isWorker=true', '_blank');
    } finally {
      open.mockRestore();
    }
  });

  it('Connect in English', async () => {
    await renderPlugin(myArea, { session: ann, api: handlers, lng: 'en-US' });
    await screen.findByText('web-01', { selector: 'td *' });
    expect(row('web-01').getByRole('button', { name: 'Connect' })).toBeInTheDocument();
  });

  it('is a valid plugin: two user-layout pages with no key, /my-asset the users’ home, before 个人中心', async () => {
    await expectValidPlugin(myArea);
    expect(myArea.pages.map((p) => [p.path, p.menuKey, p.layout, p.order])).toEqual([
      ['/my-asset', null, 'user', 1],
      ['/my-command', null, 'user', 2],
    ]);
    expect(myArea.pages.find((p) => p.home)).toMatchObject({ path: '/my-asset', home: 'user' });
    expect(myArea.manifest).toBeUndefined();
  });

  it('a type-user account lands on /my-asset, and the portal bar reads 我的资产, 我的指令, 个人中心', async () => {
    const { location, api } = await renderPlugin(myArea, {
      extraPlugins: [centre],
      session: ann,
      route: '/',
      api: { ...handlers, 'GET /account/info': { ...ann.user, enableTotp: false, roles: [] } },
    });
    await waitFor(() => expect(location().pathname).toBe('/my-asset'));
    expect(await screen.findByText('web-01')).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: '个人导航' });
    expect(within(nav).getAllByRole('button').map((b) => b.textContent)).toEqual(['我的资产', '我的指令', '个人中心']);
    expect(within(nav).getByRole('button', { name: '我的资产' })).toHaveAttribute('aria-current', 'page');
    expect(api.callsTo('GET /worker/assets/paging')[0]?.query).toEqual(FIRST);
  });

  it('lists the caller’s assets: name with description, protocol, tags as chips, status; no address; 接入 on the SSH and the RDP asset', async () => {
    await renderPlugin(myArea, { session: ann, api: handlers });
    await screen.findByText('web-01');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['名称', '协议', '标签', '状态', '最后接入时间', '操作']);
    const w = row('web-01');
    for (const text of ['前端服务器', 'SSH', 'prod', 'web', '运行中']) expect(w.getByText(text)).toBeInTheDocument();
    const d = row('desk-01');
    for (const text of ['RDP', '不可用']) expect(d.getByText(text)).toBeInTheDocument();
    expect(d.queryByText('-', { selector: 'span' })).toBeNull(); // 1.3.9's "-" description is no text
    expect(screen.queryByText(/:0$/)).toBeNull();
    expect(screen.getAllByRole('button', { name: '接入' })).toHaveLength(2); // web-01 (SSH), desk-01 (RDP)
    expect(w.getByRole('button', { name: '接入' })).toBeInTheDocument();
    expect(d.getByRole('button', { name: '接入' })).toBeInTheDocument();
    for (const name of ['新建', '删除']) expect(screen.queryByRole('button', { name })).toBeNull();
    expect(screen.queryByRole('checkbox')).toBeNull();
  });

  it('searches by name, protocol and tags (a comma list), and resets', async () => {
    const { user, api } = await renderPlugin(myArea, { session: ann, api: handlers });
    await screen.findByText('web-01');
    expect(api.callsTo('GET /worker/assets/tags')).toHaveLength(1);
    await user.type(screen.getByRole('textbox', { name: '名称' }), 'web');
    await user.selectOptions(screen.getByRole('combobox', { name: '协议' }), 'SSH');
    await user.click(screen.getByRole('combobox', { name: '标签' }));
    expect(screen.queryByRole('menuitemcheckbox', { name: '-' })).toBeNull(); // the placeholder is no tag
    await user.click(await screen.findByRole('menuitemcheckbox', { name: 'prod' }));
    await user.click(await screen.findByRole('menuitemcheckbox', { name: 'db' }));
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() =>
      expect(api.callsTo('GET /worker/assets/paging').at(-1)?.query).toEqual({ ...FIRST, name: 'web', protocol: 'ssh', tags: 'prod,db' }),
    );
    await user.click(screen.getByRole('button', { name: '重置' }));
    await waitFor(() => expect(api.callsTo('GET /worker/assets/paging').at(-1)?.query).toEqual(FIRST));
  });

  it('offers every protocol in the search, VNC included (1.3.9 left it out), in the order of the shared list', async () => {
    await renderPlugin(myArea, { session: ann, api: handlers });
    const protocol = await screen.findByRole('combobox', { name: '协议' });
    expect(within(protocol).getAllByRole('option').map((o) => o.textContent)).toEqual(['全部', 'SSH', 'RDP', 'VNC', 'Telnet', 'Kubernetes']);
  });

  it('sorts by protocol on the server', async () => {
    const { user, api } = await renderPlugin(myArea, { session: ann, api: handlers });
    await screen.findByText('web-01');
    await user.click(screen.getByRole('button', { name: '协议' }));
    await waitFor(() => expect(api.callsTo('GET /worker/assets/paging').at(-1)?.query).toEqual({ ...FIRST, field: 'protocol', order: 'ascend' }));
  });

  it('switches to cards and back, the same assets with their badges and tags', async () => {
    const { user, api } = await renderPlugin(myArea, { session: ann, api: handlers });
    await screen.findByText('web-01');
    await user.click(screen.getByRole('button', { name: '卡片视图' }));
    const list = await screen.findByRole('list', { name: '资产列表' });
    expect(screen.queryByRole('table')).toBeNull();
    const card = within(within(list).getByRole('article', { name: 'web-01' }));
    for (const text of ['前端服务器', 'SSH', '运行中', 'prod', 'web']) expect(card.getByText(text)).toBeInTheDocument();
    const other = within(within(list).getByRole('article', { name: 'desk-01' }));
    for (const text of ['RDP', '不可用']) expect(other.getByText(text)).toBeInTheDocument();
    // The cards carry the row actions (around the card's own content).
    const item = (name: string) => within(within(list).getByRole('article', { name }).closest('li') as HTMLElement);
    expect(item('web-01').getByRole('button', { name: '接入' })).toBeInTheDocument();
    expect(item('desk-01').getByRole('button', { name: '接入' })).toBeInTheDocument(); // RDP: the desktop
    expect(api.callsTo('GET /worker/assets/paging')).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: '表格视图' }));
    expect(await screen.findByRole('table', { name: '资产列表' })).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: '资产列表' })).toBeNull();
  });

  it('says so when nothing is open to the caller, in both views', async () => {
    const { user } = await renderPlugin(myArea, {
      session: ann,
      api: { 'GET /worker/assets/paging': { total: 0, items: [] }, 'GET /worker/assets/tags': [] },
    });
    expect(await screen.findByText('暂无可访问的资产，请联系管理员为您授权')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: '卡片视图' }));
    expect(await screen.findByText('暂无可访问的资产，请联系管理员为您授权')).toBeInTheDocument();
    expect(screen.getByText('共 0 条')).toBeInTheDocument();
  });

  it('says 无匹配结果 when a search finds nothing, not that nothing is granted', async () => {
    const { user } = await renderPlugin(myArea, {
      session: ann,
      api: {
        'GET /worker/assets/paging': (r: { query: Record<string, unknown> }) => (r.query.name ? { total: 0, items: [] } : page),
        'GET /worker/assets/tags': [],
      },
    });
    await screen.findByText('web-01');
    await user.type(screen.getByRole('textbox', { name: '名称' }), 'nothing-like-this');
    await user.click(screen.getByRole('button', { name: '查询' }));
    expect(await screen.findByText('无匹配结果')).toBeInTheDocument();
    expect(screen.queryByText('暂无可访问的资产，请联系管理员为您授权')).toBeNull();
  });

  it('opens for an account holding no key at all, and an admin sees it too', async () => {
    const view = await renderPlugin(myArea, { session: ann, route: '/my-asset', api: handlers });
    expect(await screen.findByText('web-01')).toBeInTheDocument();
    expect(screen.getByTestId('core.user-layout')).toBeInTheDocument();
    view.unmount();
    await renderPlugin(myArea, { session: { user: { type: 'admin', menus: [] } }, route: '/my-asset', api: handlers });
    expect(await screen.findByText('web-01')).toBeInTheDocument();
  });
});
