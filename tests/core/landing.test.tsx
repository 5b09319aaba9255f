import { defineManifest, type KeyMap } from '@/shared/manifest';
import { type AnyPlugin, definePlugin } from '@/core';
import { createPluginRegistry, loadLocaleFiles, PluginRegistrationError, renderConsole, renderPlugin, reply } from '@/core/testing';
import { screen, waitFor } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { afterLoginPath, landingPath, loginPathFrom } from '../../core/navigation/landing';
import { dashboardPlugin, identityPlugin, loginPlugin, myAreaPlugin, resourcePlugin } from './fixtures/plugins';

let files: Awaited<ReturnType<typeof loadLocaleFiles>>;
beforeAll(async () => {
  files = await loadLocaleFiles();
});
const registryOf = (plugins: readonly AnyPlugin[]) => createPluginRegistry(plugins, files);

// The portal without its home plugin: only the personal centre (the fallback home) and a menu-gated page.
const Page = () => <h1>page</h1>;
const centreStrings = { 'zh-CN': { label: '个人中心' }, 'en-US': { label: 'Personal centre' } };
const centreManifest = defineManifest({
  id: 'fx-centre',
  locales: centreStrings,
  menus: [
    { key: 'info', group: 'info', labelKey: 'label' },
    { key: 'my-only', group: 'info', order: 1, labelKey: 'label' },
  ],
});
declare module '@/shared/manifest' {
  interface PermissionKeys extends KeyMap<typeof centreManifest> {}
}
const portalCentre = definePlugin({
  id: 'fx-centre',
  manifest: centreManifest,
  pages: [
    { menuKey: 'info', group: 'info', path: '/info', page: 'Page', layout: 'admin', fallbackHome: 'admin' },
    { menuKey: 'my-only', path: '/my-gated', page: 'Page', layout: 'user' },
    { menuKey: null, path: '/my-info', page: 'Page', labelKey: 'label', layout: 'user', order: 100, fallbackHome: 'user' },
  ],
  load: () => Promise.resolve({ Page }),
  locales: centreStrings,
});

describe('core landing rule', () => {
  it('takes the home a plugin declares for the account type', () => {
    const registry = registryOf([identityPlugin, dashboardPlugin, myAreaPlugin]);
    expect(landingPath(registry, { type: 'admin', menus: ['user', 'dashboard'] })).toBe('/dashboard');
    expect(landingPath(registry, { type: 'user', menus: [] })).toBe('/my-asset');
    // Any type but `user` is the console's (spec §2: everyone else to /dashboard).
    expect(landingPath(registry, { type: 'auditor', menus: ['dashboard'] })).toBe('/dashboard');
  });

  it('without the home plugin (or without its key), takes the first page of the account’s menus', () => {
    const withoutHomes = registryOf([identityPlugin, resourcePlugin, portalCentre]);
    expect(landingPath(withoutHomes, { type: 'admin', menus: ['role', 'credential'] })).toBe('/credential'); // resource group comes first
    const withHome = registryOf([identityPlugin, dashboardPlugin]);
    expect(landingPath(withHome, { type: 'admin', menus: ['role'] })).toBe('/role');
    expect(landingPath(withoutHomes, { type: 'user', menus: ['my-only'] })).toBe('/my-gated');
    expect(landingPath(withoutHomes, { type: 'user', menus: [] })).toBe('/my-info');
  });

  it('else the declared fallback home (the personal centre), else the 403 page', () => {
    const registry = registryOf([identityPlugin, portalCentre]);
    expect(landingPath(registry, { type: 'admin', menus: [] })).toBe('/info');
    expect(landingPath(registryOf([identityPlugin]), { type: 'admin', menus: [] })).toBe('/permission-denied');
  });

  it('accepts one home and one fallback per account type, and only the two types', () => {
    const second: AnyPlugin = { ...myAreaPlugin, id: 'fx-second', pages: [{ ...myAreaPlugin.pages[0], path: '/other-home' }] } as AnyPlugin;
    expect(() => registryOf([myAreaPlugin, second])).toThrow(PluginRegistrationError);
    expect(() => registryOf([myAreaPlugin, second])).toThrow(/home of 'user' is already "\/my-asset"/);
    const wrong = { ...dashboardPlugin, id: 'fx-wrong', manifest: undefined, pages: [{ ...dashboardPlugin.pages[0], path: '/x', menuKey: null, home: 'root' }] };
    expect(() => registryOf([wrong as unknown as AnyPlugin])).toThrow(/home must be 'admin' or 'user'/);
  });

  it('after login, returns to a remembered page only when it is registered and the account may open it', () => {
    const registry = registryOf([identityPlugin, dashboardPlugin, myAreaPlugin, loginPlugin]);
    const admin = { type: 'admin', menus: ['dashboard', 'user'] };
    expect(afterLoginPath(registry, admin, '/user/7?tab=roles')).toBe('/user/7?tab=roles');
    expect(afterLoginPath(registry, admin, '/role')).toBe('/dashboard');
    expect(afterLoginPath(registry, admin, '/nowhere')).toBe('/dashboard');
    expect(afterLoginPath(registry, admin, '/login')).toBe('/dashboard');
    expect(afterLoginPath(registry, admin, '//evil.example')).toBe('/dashboard');
    expect(afterLoginPath(registry, admin, 'https://evil.example/')).toBe('/dashboard');
    expect(afterLoginPath(registry, { type: 'user', menus: [] }, null)).toBe('/my-asset');
  });

  it('remembers where the visitor wanted to go, except the root and the login page itself', () => {
    expect(loginPathFrom('/user?x=1')).toBe('/login?from=%2Fuser%3Fx%3D1');
    expect(loginPathFrom('/')).toBe('/login');
    expect(loginPathFrom('/login?from=%2Fuser')).toBe('/login');
    expect(loginPathFrom('/login-log')).toBe('/login?from=%2Flogin-log');
  });
});

describe('without a token', () => {
  for (const route of ['/user', '/my-asset', '/permission-denied', '/no-such-page', '/']) {
    it(`${route} sends to the login page, with no layout and no request`, async () => {
      const { location, api } = await renderConsole([identityPlugin, myAreaPlugin, loginPlugin], { route, session: { token: null, user: null } });
      await waitFor(() => expect(location().pathname).toBe('/login'));
      expect(await screen.findByRole('heading', { name: 'login page' })).toBeInTheDocument();
      expect(location().search).toBe(route === '/' ? '' : `?from=${encodeURIComponent(route)}`);
      expect(screen.queryByTestId('core.admin-layout')).toBeNull();
      expect(screen.queryByTestId('core.user-layout')).toBeNull();
      expect(api.calls.filter((call) => call.path !== '/branding')).toEqual([]);
    });
  }

  it('signing out of a page (here or in another tab) ends on the login page, remembering nothing', async () => {
    const { location, session } = await renderPlugin(identityPlugin, { route: '/role', extraPlugins: [loginPlugin] });
    expect(await screen.findByRole('heading', { name: 'roles' })).toBeInTheDocument();
    session.getState().clear();
    await waitFor(() => expect(location().pathname).toBe('/login'));
    expect(location().search).toBe('');
  });
});

describe('an expired token (401)', () => {
  it('goes to the login page remembering the page', async () => {
    const { location } = await renderPlugin(identityPlugin, {
      route: '/user-group?page=2',
      extraPlugins: [loginPlugin],
      api: { 'GET /user-groups/paging': reply.http(401) },
    });
    await waitFor(() => expect(location().pathname).toBe('/login'));
    expect(location().search).toBe(`?from=${encodeURIComponent('/user-group?page=2')}`);
  });
});

describe('buttons that follow the landing rule', () => {
  it('the 403 page’s 我的资产 and 后台首页 go to the declared homes', async () => {
    const { user, location } = await renderPlugin(identityPlugin, { route: '/permission-denied', extraPlugins: [dashboardPlugin, myAreaPlugin] });
    await user.click(await screen.findByRole('button', { name: '后台首页' }));
    await waitFor(() => expect(location().pathname).toBe('/dashboard'));
  });

  it('without the portal’s home plugin, 我的资产 leads to the personal centre, not a 404', async () => {
    const { user, location } = await renderPlugin(identityPlugin, { route: '/no-such-page', extraPlugins: [portalCentre], session: { user: { menus: ['user'] } } });
    await user.click(await screen.findByRole('button', { name: '我的资产' }));
    await waitFor(() => expect(location().pathname).toBe('/my-info'));
  });

  it('the portal’s logo and breadcrumb home lead to the portal home; 后台管理 to the console home', async () => {
    const { user, location } = await renderPlugin(myAreaPlugin, { route: '/my-command', extraPlugins: [dashboardPlugin] });
    await user.click(await screen.findByRole('button', { name: '首页' }));
    await waitFor(() => expect(location().pathname).toBe('/my-asset'));
    await user.click(await screen.findByRole('button', { name: 'Tester' }));
    await user.click(await screen.findByRole('menuitem', { name: '后台管理' }));
    await waitFor(() => expect(location().pathname).toBe('/dashboard'));
  });
});
