import { createTestSession, LOGO_WIDTH, reply, renderConsole, renderPlugin, renderWithProviders, SIDER_WIDTH } from '@/core/testing';
import { act, screen, waitFor, within } from '@testing-library/react';
import { useLayoutEffect } from 'react';
import { Route, Routes } from 'react-router-dom';
import { beforeEach, describe, expect, it } from 'vitest';
import { AdminLayout } from '../../core/layouts/AdminLayout';
import { allFixtures, dashboardPlugin, identityPlugin, myAreaPlugin, resourcePlugin } from './fixtures/plugins';

// Fluent dialogs and menus animate in; under a loaded parallel run the default 1 s can be short.
const SLOW = { timeout: 5000 };
const others = allFixtures.filter((p) => p !== identityPlugin);

beforeEach(() => window.sessionStorage.clear());

describe('admin menu from the registry', () => {
  it('shows only entries in the user menus, in core group order, and hides empty groups', async () => {
    await renderPlugin(identityPlugin, { route: '/user', extraPlugins: others, session: { user: { menus: ['user', 'user-group', 'dashboard'] } } });
    const tree = screen.getByRole('tree', { name: '主菜单' });
    const top = within(tree).getAllByRole('treeitem').map((item) => item.getAttribute('data-fui-tree-item-value'));
    expect(top).toEqual(['/dashboard', 'identity', '/user', '/user-group']);
    expect(within(tree).queryByText('资源管理')).toBeNull();
    expect(within(tree).queryByText('角色管理')).toBeNull();
    expect(within(tree).queryByText('系统设置')).toBeNull();
  });

  it('orders pages in a group by their order and navigates on click', async () => {
    const { user, location } = await renderPlugin(identityPlugin, { route: '/user', extraPlugins: others });
    const tree = screen.getByRole('tree', { name: '主菜单' });
    const identity = within(tree).getByRole('treeitem', { name: /用户管理 用户管理 角色管理 用户组管理/ });
    expect(within(identity).getAllByRole('treeitem').map((i) => i.textContent)).toEqual(['用户管理', '角色管理', '用户组管理']);
    await user.click(within(identity).getByText('角色管理'));
    await waitFor(() => expect(location().pathname).toBe('/role'));
    expect(await screen.findByRole('heading', { name: 'roles' })).toBeInTheDocument();
  });

  it('keeps open groups in sessionStorage (openKeys) and restores them', async () => {
    const first = await renderPlugin(dashboardPlugin, { route: '/dashboard', extraPlugins: [resourcePlugin] });
    expect(screen.queryByText('资产管理')).toBeNull();
    await first.user.click(screen.getByText('资源管理'));
    expect(await screen.findByText('资产管理')).toBeInTheDocument();
    expect(JSON.parse(window.sessionStorage.getItem('openKeys') ?? '[]')).toEqual(['resource']);
    first.unmount();

    await renderPlugin(dashboardPlugin, { route: '/dashboard', extraPlugins: [resourcePlugin] });
    expect(screen.getByText('资产管理')).toBeInTheDocument();
  });

  it('opens the group of a page reached by a link or the address bar, keeping the groups already open', async () => {
    const { router } = await renderPlugin(dashboardPlugin, { route: '/dashboard', extraPlugins: [resourcePlugin, identityPlugin] });
    const tree = screen.getByRole('tree', { name: '主菜单' });
    expect(within(tree).queryByText('资产管理')).toBeNull();
    act(() => router.navigate('/asset'));
    expect(await within(tree).findByText('资产管理')).toBeInTheDocument();
    act(() => router.navigate('/user'));
    expect(await within(tree).findByText('角色管理')).toBeInTheDocument();
    expect(within(tree).getByText('资产管理')).toBeInTheDocument();
  });

  it('collapses: sider 200 → 80, logo 140 → 46, content margin follows', async () => {
    const { user } = await renderPlugin(dashboardPlugin);
    const sider = screen.getByTestId('core.sider');
    const main = screen.getByTestId('core.main');
    expect(SIDER_WIDTH).toEqual({ expanded: 200, collapsed: 80 });
    expect(sider).toHaveStyle({ width: '200px' });
    expect(screen.getByTestId('core.logo')).toHaveStyle({ width: '140px' });
    expect(within(screen.getByTestId('core.logo')).getByText('Jumpgate')).toBeInTheDocument();
    expect(main).toHaveStyle({ marginLeft: '200px' });
    await user.click(await screen.findByRole('button', { name: '收起菜单' }));
    expect(sider).toHaveStyle({ width: '80px' });
    expect(screen.getByTestId('core.logo')).toHaveStyle({ width: `${LOGO_WIDTH.collapsed}px` });
    expect(within(screen.getByTestId('core.logo')).queryByText('Jumpgate')).toBeNull();
    expect(main).toHaveStyle({ marginLeft: '80px' });
    await user.click(await screen.findByRole('button', { name: '展开菜单' }));
    expect(sider).toHaveStyle({ width: '200px' });
  });

  it('with zero plugins the admin menu is empty and every path is 404', async () => {
    await renderConsole([], { route: '/dashboard' });
    expect(screen.getByText('抱歉，您似乎到达了预期之外的页面。')).toBeInTheDocument();
  });
});

describe('routing: 403, 404, open pages', () => {
  it('a registered path the user may not open shows 403; an unknown one 404', async () => {
    const view = await renderPlugin(identityPlugin, { route: '/role', session: { user: { menus: ['user'] } } });
    expect(screen.getByRole('heading', { name: '403' })).toBeInTheDocument();
    expect(screen.getByText('抱歉，您似乎没有此页面的权限。')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'roles' })).toBeNull();
    view.unmount();

    await renderPlugin(identityPlugin, { route: '/no-such-page', extraPlugins: [dashboardPlugin, myAreaPlugin] });
    expect(screen.getByRole('heading', { name: '404' })).toBeInTheDocument();
    expect(screen.getByText('抱歉，您似乎到达了预期之外的页面。')).toBeInTheDocument();
    for (const name of ['返回上一页', '我的资产', '后台首页']) expect(screen.getByRole('button', { name })).toBeInTheDocument();
    // On its own (no layout around it) the page is the main landmark.
    expect(screen.getAllByRole('main')).toHaveLength(1);
  });

  it('a portal account’s 403 offers no console home (another 403), and sits in the layout’s one main landmark', async () => {
    const denied = await renderPlugin(identityPlugin, {
      route: '/user',
      extraPlugins: [dashboardPlugin, myAreaPlugin],
      session: { user: { type: 'user', menus: [] } },
    });
    expect(await screen.findByRole('heading', { name: '403' })).toBeInTheDocument();
    const page = within(screen.getByRole('main'));
    expect(page.getByRole('button', { name: '我的资产' })).toBeInTheDocument();
    expect(page.queryByRole('button', { name: '后台首页' })).toBeNull();
    denied.unmount();

    // An admin's 403 inside the console layout: both homes, still one main landmark.
    await renderPlugin(identityPlugin, { route: '/role', extraPlugins: [dashboardPlugin, myAreaPlugin], session: { user: { menus: ['user', 'dashboard'] } } });
    expect(await screen.findByRole('heading', { name: '403' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '后台首页' })).toBeInTheDocument();
    expect(screen.getAllByRole('main')).toHaveLength(1);
  });

  it('child routes need the page menu key too', async () => {
    await renderPlugin(identityPlugin, { route: '/user/7', session: { user: { menus: ['role'] } } });
    expect(screen.getByText('抱歉，您似乎没有此页面的权限。')).toBeInTheDocument();
  });

  it('403 page buttons navigate (my assets, admin home)', async () => {
    const { user, location } = await renderPlugin(identityPlugin, { route: '/permission-denied', extraPlugins: [myAreaPlugin] });
    await user.click(await screen.findByRole('button', { name: '我的资产' }));
    await waitFor(() => expect(location().pathname).toBe('/my-asset'));
  });

  it('pages with menuKey null are open to every signed-in user', async () => {
    await renderPlugin(myAreaPlugin, { route: '/my-asset', session: { user: { type: 'user', menus: [] } } });
    expect(screen.getByRole('heading', { name: 'my assets page' })).toBeInTheDocument();
  });
});

describe('header, breadcrumb and title', () => {
  it('breadcrumb starts with 首页 then the plugin titles (detail title from the child route)', async () => {
    await renderPlugin(identityPlugin, { route: '/user/42' });
    const crumbs = screen.getByRole('navigation', { name: '面包屑导航' });
    expect(within(crumbs).getAllByRole('button').map((b) => b.textContent)).toEqual(['首页', '用户管理', '用户详情']);
    expect(within(crumbs).getByRole('button', { name: '用户详情' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('heading', { name: 'user 42' })).toBeInTheDocument();
  });

  it('asset detail breadcrumb reads 资产详情', async () => {
    await renderPlugin(resourcePlugin, { route: '/asset/9' });
    expect(within(screen.getByRole('navigation', { name: '面包屑导航' })).getByText('资产详情')).toBeInTheDocument();
  });

  it('document title is 页面名｜品牌名 and the footer shows copyright and version', async () => {
    await renderPlugin(identityPlugin, {
      route: '/user',
      api: { 'GET /branding': { name: 'Next Terminal', copyright: 'Copyright © 2026 ACME' } },
    });
    await waitFor(() => expect(document.title).toBe('用户管理\uFF5CNext Terminal'));
    expect(screen.getByText('Copyright © 2026 ACME Version:1.3.9')).toBeInTheDocument();
  });

  it('works without a branding answer: defaults, and no toast', async () => {
    const { eventsOf } = await renderPlugin(identityPlugin, { route: '/role', api: { 'GET /branding': reply.networkError() } });
    await waitFor(() => expect(document.title).toBe('角色管理｜Jumpgate'));
    expect(screen.getByText('Copyright © Jumpgate Version:1.3.9')).toBeInTheDocument();
    expect(eventsOf('notify')).toEqual([]);
  });

  it('user dropdown: 我的资产, a real DEBUG link, and logout', async () => {
    const { user, location } = await renderPlugin(identityPlugin, { route: '/user', extraPlugins: [myAreaPlugin] });
    await user.click(await screen.findByRole('button', { name: 'Tester' }));
    const debug = await screen.findByRole('menuitem', { name: 'DEBUG' });
    expect(debug.tagName).toBe('A');
    expect(debug).toHaveAttribute('href', '/debug/pprof/');
    await user.click(await screen.findByRole('menuitem', { name: '我的资产' }));
    await waitFor(() => expect(location().pathname).toBe('/my-asset'));
  });

  it('logout: cancel does nothing; confirm calls POST /account/logout and goes to /login', { timeout: 20000 }, async () => {
    const { user, location, api, session } = await renderPlugin(identityPlugin, { route: '/user', api: { 'POST /account/logout': null } });
    await user.click(await screen.findByRole('button', { name: 'Tester' }));
    await user.click(await screen.findByRole('menuitem', { name: '退出登录' }, SLOW));
    const dialog = await screen.findByRole('alertdialog', {}, SLOW);
    expect(within(dialog).getByText('您确定要退出登录吗?')).toBeInTheDocument();
    await user.click(await within(dialog).findByRole('button', { name: '取消' }, SLOW));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull(), SLOW);
    expect(api.callsTo('POST /account/logout')).toHaveLength(0);
    expect(location().pathname).toBe('/user');

    await user.click(await screen.findByRole('button', { name: 'Tester' }));
    await user.click(await screen.findByRole('menuitem', { name: '退出登录' }, SLOW));
    await user.click(await within(await screen.findByRole('alertdialog', {}, SLOW)).findByRole('button', { name: '确定' }, SLOW));
    await waitFor(() => expect(location().pathname).toBe('/login'), SLOW);
    expect(api.callsTo('POST /account/logout')).toHaveLength(1);
    expect(session.getState().token).toBeNull();
  });
});

describe('user layout', () => {
  it('top bar lists the user pages; 后台管理 only for admins', async () => {
    const { user, location } = await renderPlugin(myAreaPlugin, { route: '/my-command', extraPlugins: [dashboardPlugin] });
    const bar = screen.getByRole('navigation', { name: '个人导航' });
    expect(within(bar).getAllByRole('button').map((b) => b.textContent)).toEqual(['我的资产', '我的指令', '个人中心']);
    expect(within(bar).getByRole('button', { name: '我的指令' })).toHaveAttribute('aria-current', 'page');
    expect(screen.queryByRole('tree')).toBeNull();
    await user.click(await screen.findByRole('button', { name: 'Tester' }));
    await user.click(await screen.findByRole('menuitem', { name: '后台管理' }));
    await waitFor(() => expect(location().pathname).toBe('/dashboard'));
  });

  it('ordinary users get no 后台管理', async () => {
    const { user } = await renderPlugin(myAreaPlugin, { session: createTestSession({ user: { type: 'user', nickname: 'Bob', menus: [] } }) });
    await user.click(await screen.findByRole('button', { name: 'Bob' }));
    expect(await screen.findByRole('menuitem', { name: '退出登录' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: '后台管理' })).toBeNull();
  });
});

/** A page that records, when its commit lays it out, which parts of the layout are in the document. */
function LayoutProbe({ seen }: { seen: string[] }) {
  useLayoutEffect(() => {
    const parts = [
      ['tree', document.querySelector('[role="tree"]')],
      ['breadcrumb', document.querySelector('nav[aria-label="面包屑导航"]')],
      ['footer', document.querySelector('footer')],
      ['sider', document.querySelector('[data-testid="core.sider"]')],
    ] as const;
    seen.push(parts.filter(([, element]) => element !== null).map(([name]) => name).join(' '));
  }, [seen]);
  return <h1>probe page</h1>;
}

// A first visit paints the page before the layout's menu, header controls and footer (core/ui/SecondPass): they fill
// their fixed boxes in the pass after, so the page's content does not move when they do.
describe('the admin layout on its first render', () => {
  it('commits the page first and its menu, header controls and footer in a later commit', async () => {
    const seen: string[] = [];
    await renderWithProviders(
      <Routes>
        <Route element={<AdminLayout />}>
          <Route path="/probe" element={<LayoutProbe seen={seen} />} />
        </Route>
      </Routes>,
      { route: '/probe', plugins: [identityPlugin] },
    );
    // In the page's own commit: the layout's boxes (the sider), none of what fills them.
    expect(seen).toEqual(['sider']);
    expect(screen.getByRole('heading', { name: 'probe page' })).toBeInTheDocument();
    // Then, without anything else happening, the rest.
    expect(await screen.findByRole('tree', { name: '主菜单' })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: '面包屑导航' })).toBeInTheDocument();
    expect(document.querySelector('footer')).not.toBeNull();
  });
});
