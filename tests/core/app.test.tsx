import { type AnyPlugin, Can, definePlugin, useBus, useCan, useIsAdmin, useSession } from '@/core';
import { createFakeApi, reply, renderConsole, renderPlugin, renderWithProviders, UnexpectedRequestError } from '@/core/testing';
import { screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dashboardPlugin, identityPlugin, loginPlugin, myAreaPlugin } from './fixtures/plugins';

afterEach(() => window.localStorage.clear());

const FlakyPage = () => <h1>flaky page</h1>;
const SlowPage = () => <h1>slow page</h1>;
const WatchPage = () => <h1>watch page</h1>;

function Probe() {
  const nickname = useSession((s) => s.user?.nickname);
  const canAdd = useCan('user-add', 'role-add');
  const admin = useIsAdmin();
  const bus = useBus();
  return (
    <div>
      <span>nick:{nickname}</span>
      <span>add:{String(canAdd)}</span>
      <span>admin:{String(admin)}</span>
      <Can menu="user-add">
        <button type="button" onClick={() => bus.emit('notify', { intent: 'success', message: 'saved' })}>
          add
        </button>
      </Can>
      <Can menu={['user-del']} fallback={<span>no delete</span>}>
        <button type="button">delete</button>
      </Can>
    </div>
  );
}



describe('root redirect', () => {
  it('loads /account/info, stores it, and sends admins to /dashboard', async () => {
    const { location, session, api } = await renderConsole([dashboardPlugin, myAreaPlugin], {
      route: '/',
      session: { user: { type: 'admin', menus: [] } },
      api: { 'GET /account/info': { type: 'admin', nickname: 'Root', menus: ['dashboard'] } },
    });
    await waitFor(() => expect(location().pathname).toBe('/dashboard'));
    expect(session.getState().user).toMatchObject({ nickname: 'Root', menus: ['dashboard'] });
    expect(api.callsTo('GET /account/info')).not.toHaveLength(0);
    expect(await screen.findByRole('heading', { name: 'dashboard page' })).toBeInTheDocument();
  });

  it('sends type user to /my-asset', async () => {
    const { location } = await renderConsole([dashboardPlugin, myAreaPlugin], {
      route: '/',
      api: { 'GET /account/info': { type: 'user', nickname: 'U', menus: [] } },
    });
    await waitFor(() => expect(location().pathname).toBe('/my-asset'));
  });

  it('while no /dashboard page is registered, admins land on the first page of their own menu, not a 404', async () => {
    const { location } = await renderConsole([identityPlugin, myAreaPlugin], {
      route: '/',
      api: {
        'GET /account/info': { type: 'admin', nickname: 'Root', menus: ['role'] },
        'GET /roles/paging': { total: 0, items: [] },
      },
    });
    await waitFor(() => expect(location().pathname).toBe('/role'));
  });

  it('a 401 answer leads to #/login (the bare login page)', async () => {
    const { location } = await renderConsole([loginPlugin], { route: '/', api: { 'GET /account/info': reply.http(401) } });
    await waitFor(() => expect(location().pathname).toBe('/login'));
    expect(await screen.findByRole('heading', { name: 'login page' })).toBeInTheDocument();
    expect(screen.queryByTestId('core.admin-layout')).toBeNull();
  });
});

describe('plugin pages and the API', () => {
  it('a business error from a page query toasts and a body 403 goes to /permission-denied', async () => {
    const { location, eventsOf } = await renderPlugin(identityPlugin, {
      route: '/user-group',
      api: { 'GET /user-groups/paging': reply.envelope(403, 'no') },
    });
    await waitFor(() => expect(location().pathname).toBe('/permission-denied'));
    expect(await screen.findByText('抱歉，您似乎没有此页面的权限。')).toBeInTheDocument();
    expect(eventsOf('permission:denied')).toEqual([{ url: '/user-groups/paging' }]);
  });

  it('answers declared requests with data', async () => {
    const { api } = await renderPlugin(identityPlugin, { route: '/user-group', api: { 'GET /user-groups/paging': { total: 3, items: [] } } });
    expect(await screen.findByRole('heading', { name: 'groups 3' })).toBeInTheDocument();
    expect(api.callsTo('GET /user-groups/paging')[0]?.headers['X-Auth-Token']).toBe('test-token');
  });

  it('the fake API rejects and records any undeclared request', async () => {
    const fake = createFakeApi({});
    const request = fake.adapter({ method: 'get', url: '/nobody', headers: { toJSON: () => ({}) } } as never);
    await expect(request).rejects.toBeInstanceOf(UnexpectedRequestError);
    await expect(request).rejects.toThrow(/Unexpected request GET \/nobody/);
    expect(fake.unexpected.map((r) => r.path)).toEqual(['/nobody']);
  });
});

describe('a broken plugin', () => {
  it('fails the render loudly, naming the plugin', async () => {
    const broken = definePlugin({
      id: 'fx-broken',
      pages: [{ menuKey: null, group: 'ops', path: '/broken', page: 'Page', labelKey: 'missing.key', layout: 'admin' }],
      load: () => Promise.resolve({ Page: FlakyPage }),
    });
    await expect(renderPlugin(broken, { extraPlugins: [identityPlugin] })).rejects.toThrow(
      'Plugin "fx-broken": label key "missing.key" is missing from locales/zh-CN/fx-broken.json',
    );
  });
});

describe('a page gate', () => {
  // A full-window page opened by another page's action: it needs that action's key, besides its own menu key (none).
  const gated: AnyPlugin = {
    id: 'fx-gated',
    manifest: {
      id: 'fx-gated',
      locales: { 'zh-CN': { label: '监看' }, 'en-US': { label: 'Watch' } },
      menus: [{ key: 'fx-list', group: 'ops', labelKey: 'label' }],
      actions: [{ key: 'fx-watch', parent: 'fx-list', label: { 'zh-CN': '监看', 'en-US': 'Watch' } }],
    },
    pages: [
      { menuKey: 'fx-list', path: '/fx-list', page: 'Page', layout: 'admin' },
      { menuKey: null, path: '/fx-watch', page: 'Page', labelKey: 'label', layout: 'bare', hideInMenu: true, gate: 'fx-watch' },
    ],
    load: () => Promise.resolve({ Page: WatchPage }),
    locales: { 'zh-CN': { label: '监看' }, 'en-US': { label: 'Watch' } },
  };

  it('shows the 403 page without the gate key, the page with it', async () => {
    const denied = await renderPlugin(gated, { route: '/fx-watch', session: { user: { menus: ['fx-list'] } } });
    expect(await screen.findByText('抱歉，您似乎没有此页面的权限。')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'watch page' })).toBeNull();
    denied.unmount();
    await renderPlugin(gated, { route: '/fx-watch', session: { user: { menus: ['fx-watch'] } } });
    expect(await screen.findByRole('heading', { name: 'watch page' })).toBeInTheDocument();
  });
});

describe('chunk loading', () => {
  it('shows 正在努力加载中... then, on failure, a generic error whose retry loads again', async () => {
    let attempts = 0;
    const flaky = definePlugin({
      id: 'fx-flaky',
      pages: [{ menuKey: null, group: 'ops', path: '/flaky', page: 'Page', labelKey: 'label', layout: 'admin' }],
      load: () => {
        attempts += 1;
        return attempts === 1 ? Promise.reject(new TypeError('Failed to fetch dynamically imported module')) : Promise.resolve({ Page: FlakyPage });
      },
      locales: { 'zh-CN': { label: '不稳定' }, 'en-US': { label: 'Flaky' } },
    });
    const logged = vi.spyOn(console, 'error');
    const { user } = await renderPlugin(flaky);
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('页面加载失败')).toBeInTheDocument();
    // The failed fetch is on screen and in the browser's network log: no console error of ours on top.
    expect(logged).not.toHaveBeenCalled();
    logged.mockRestore();
    await user.click(within(alert).getByRole('button', { name: '重试' }));
    expect(await screen.findByRole('heading', { name: 'flaky page' })).toBeInTheDocument();
    expect(attempts).toBe(2);
  });

  it('a chunk slower than the time-out shows the error; retry succeeds', async () => {
    let attempts = 0;
    const slow = definePlugin({
      id: 'fx-slow',
      pages: [{ menuKey: null, path: '/slow', page: 'Page', labelKey: 'label', layout: 'bare' }],
      load: () => {
        attempts += 1;
        return attempts === 1 ? new Promise<{ Page: typeof SlowPage }>(() => undefined) : Promise.resolve({ Page: SlowPage });
      },
      locales: { 'zh-CN': { label: '慢' }, 'en-US': { label: 'Slow' } },
    });
    const { user } = await renderPlugin(slow, { chunkTimeoutMs: 300, waitForLoad: false });
    expect(await screen.findByText('正在努力加载中...')).toBeInTheDocument();
    const alert = await screen.findByRole('alert');
    await user.click(within(alert).getByRole('button', { name: '重试' }));
    expect(await screen.findByRole('heading', { name: 'slow page' })).toBeInTheDocument();
  });

  it('the default chunk time-out is 120 s', async () => {
    const { services } = await renderConsole([], { route: '/nowhere' });
    expect(services.chunkTimeoutMs).toBe(120_000);
  });
});

describe('i18n', () => {
  it('switches language from the header, persists it and moves dayjs along', async () => {
    const { user, eventsOf } = await renderPlugin(identityPlugin, { route: '/user' });
    expect(dayjs.locale()).toBe('zh-cn');
    const switcher = screen.getByRole('group', { name: '语言' });
    expect(within(switcher).getByRole('button', { name: '简体中文' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(within(switcher).getByRole('button', { name: 'English' }));
    expect(await screen.findByRole('heading', { name: 'User list' })).toBeInTheDocument();
    expect(screen.getByRole('tree', { name: 'Main menu' })).toBeInTheDocument();
    expect(window.localStorage.getItem('jumpgate.lng')).toBe('en-US');
    expect(dayjs.locale()).toBe('en');
    expect(eventsOf('locale:changed')).toEqual([{ lng: 'en-US' }]);
    const englishSwitch = screen.getByRole('group', { name: 'Language' });
    expect(within(englishSwitch).getByRole('button', { name: 'English' })).toHaveAttribute('aria-pressed', 'true');
    expect(within(englishSwitch).getByRole('button', { name: '简体中文' })).toHaveAttribute('aria-pressed', 'false');
    // Pressing the current language again changes nothing.
    await user.click(within(englishSwitch).getByRole('button', { name: 'English' }));
    expect(eventsOf('locale:changed')).toHaveLength(1);
  });

  it('a language whose files do not arrive is not applied, and the user is told (no unhandled rejection)', async () => {
    const { user, eventsOf, services } = await renderPlugin(identityPlugin, { route: '/user' });
    // As the browser rejects a chunk that cannot be fetched (the server stopped). The harness has every locale file
    // already, so the failure is injected where the switch applies them.
    vi.spyOn(services.i18n, 'changeLanguage').mockRejectedValue(new TypeError('Failed to fetch dynamically imported module: /static/en-US-x.js'));
    await user.click(within(screen.getByRole('group', { name: '语言' })).getByRole('button', { name: 'English' }));
    await waitFor(() =>
      expect(eventsOf('notify')).toEqual([{ intent: 'error', message: '未能切换语言：语言文件未能加载，请检查网络后重试。' }]),
    );
    expect(within(screen.getByRole('group', { name: '语言' })).getByRole('button', { name: '简体中文' })).toHaveAttribute('aria-pressed', 'true');
    expect(eventsOf('locale:changed')).toEqual([]);
    expect(window.localStorage.getItem('jumpgate.lng')).toBeNull();
  });

  it('renders English when asked', async () => {
    await renderPlugin(identityPlugin, { route: '/nowhere', lng: 'en-US' });
    expect(screen.getByText('Sorry, this page does not exist.')).toBeInTheDocument();
  });
});

describe('plugin-facing hooks', () => {
  it('useSession / useCan (any-of) / useIsAdmin / Can / useBus', async () => {
    const { user, eventsOf } = await renderWithProviders(<Probe />, { session: { user: { nickname: 'Zed', type: 'user', menus: ['user-add'] } } });
    expect(screen.getByText('nick:Zed')).toBeInTheDocument();
    expect(screen.getByText('add:true')).toBeInTheDocument();
    expect(screen.getByText('admin:false')).toBeInTheDocument();
    expect(screen.getByText('no delete')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'delete' })).toBeNull();
    await user.click(await screen.findByRole('button', { name: 'add' }));
    expect(eventsOf('notify')).toEqual([{ intent: 'success', message: 'saved' }]);
  });
});
