import { act, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startEarly } from '../../core/app/early';
import { createApp, firstScreenLoaded } from '../../core/app/main-app';
import { discoverPlugins } from '../../core/plugin/discover';

afterEach(() => {
  window.location.hash = '';
  window.localStorage.clear();
});

// The production composition (discovered plugins, locale files, hash router, persisted session).
describe('createApp', () => {
  it('boots with the plugins in plugins/ and routes by hash', async () => {
    window.localStorage.setItem('X-Auth-Token', 'token');
    window.localStorage.setItem('user', JSON.stringify({ type: 'admin', nickname: 'A', menus: [] }));
    window.location.hash = '#/no-such-page';
    const { app, services } = await createApp();
    render(app);
    expect(await screen.findByText('抱歉，您似乎到达了预期之外的页面。')).toBeInTheDocument();
    // Branding cannot be fetched here (no server): defaults apply, and no toast.
    await waitFor(() => expect(document.title).toBe('Jumpgate'));
    expect(services.registry.plugins.length).toBeGreaterThanOrEqual(0);
  });

  it('without a token, sends a protected page to #/login, remembering it', async () => {
    window.location.hash = '#/user?name=ann';
    const { app } = await createApp();
    render(app);
    expect(await screen.findByRole('button', { name: '登录' })).toBeInTheDocument();
    expect(window.location.hash).toBe(`#/login?from=${encodeURIComponent('/user?name=ann')}`);
  });

  it('remembers the language', async () => {
    window.localStorage.setItem('jumpgate.lng', 'en-US');
    window.localStorage.setItem('X-Auth-Token', 'token');
    window.localStorage.setItem('user', JSON.stringify({ type: 'admin', nickname: 'A', menus: [] }));
    window.location.hash = '#/nowhere';
    const { app } = await createApp();
    render(app);
    expect(await screen.findByText('Sorry, this page does not exist.')).toBeInTheDocument();
  });
});

// Production starts with the `core` namespace only; a plugin's arrives with its page, every plugin's with a layout.
describe('createApp in production', () => {
  it('fetches the login namespace with the login page and no other plugin namespace', async () => {
    window.location.hash = '#/login';
    const { app, services } = await createApp({ dev: false });
    expect(services.i18n.hasResourceBundle('zh-CN', 'core')).toBe(true);
    expect(services.i18n.hasResourceBundle('zh-CN', 'login')).toBe(false);
    render(app);
    expect(await screen.findByRole('button', { name: '登录' })).toBeInTheDocument();
    expect(services.i18n.hasResourceBundle('zh-CN', 'login')).toBe(true);
    expect(services.i18n.hasResourceBundle('zh-CN', 'identity')).toBe(false);
    expect(services.i18n.hasResourceBundle('en-US', 'login')).toBe(false);
    expect(services.i18n.hasResourceBundle('zh-CN', 'kit')).toBe(false);
  });

  it("brings the UI kit's strings with a full-window page other than the login (its dialogs say 确定, not ui.ok)", async () => {
    window.localStorage.setItem('X-Auth-Token', 'token');
    window.localStorage.setItem('user', JSON.stringify({ type: 'user', nickname: 'U', menus: [] }));
    window.location.hash = '#/term';
    const { app, services } = await createApp({ dev: false });
    render(app);
    // Without an asset the page says so (it asks the server nothing).
    expect(await screen.findByText('参数缺失，请关闭此页面后重新打开。')).toBeInTheDocument();
    expect(services.i18n.hasResourceBundle('zh-CN', 'kit')).toBe(true);
    expect(services.i18n.hasResourceBundle('zh-CN', 'identity')).toBe(false);
  });

  it('brings the namespaces in use along when the language switches', async () => {
    window.location.hash = '#/login';
    const { app, services } = await createApp({ dev: false });
    render(app);
    await screen.findByRole('button', { name: '登录' });
    await services.ensureLanguage('en-US');
    expect(services.i18n.hasResourceBundle('en-US', 'core')).toBe(true);
    expect(services.i18n.hasResourceBundle('en-US', 'login')).toBe(true);
    expect(services.i18n.hasResourceBundle('en-US', 'identity')).toBe(false);
  });

  it('loads every plugin namespace with a layout, so the menu never shows a raw key', async () => {
    window.localStorage.setItem('X-Auth-Token', 'token');
    window.localStorage.setItem('user', JSON.stringify({ type: 'admin', nickname: 'A', menus: ['user', 'role', 'user-group', 'info'] }));
    window.location.hash = '#/info';
    const { app, services } = await createApp({ dev: false });
    render(app);
    // The page itself cannot load its data here (no server), but the menu is drawn from the registry.
    const tree = await screen.findByRole('tree', { name: '主菜单' });
    // 个人中心 is the info plugin's own label (locales/zh-CN/info.json), not a core group name.
    expect(within(tree).getByRole('treeitem', { name: '个人中心' })).toBeInTheDocument();
    expect(within(tree).queryByText(/^nav\./)).toBeNull();
    for (const plugin of services.registry.plugins) {
      expect(services.i18n.hasResourceBundle('zh-CN', plugin.id), plugin.id).toBe(true);
    }
  });
});

// startApp renders once the early start's loads are in (or after a bound): the first render is the screen itself.
describe('the first render', () => {
  const admin = () => {
    window.localStorage.setItem('X-Auth-Token', 'token');
    window.localStorage.setItem('user', JSON.stringify({ type: 'admin', nickname: 'A', menus: ['user', 'role', 'user-group', 'info'] }));
  };

  it('shows the layout and the page in its first commit once the first screen has loaded: no placeholder pass', async () => {
    admin();
    window.location.hash = '#/info';
    const early = startEarly(discoverPlugins(), window.location);
    const { app, services } = await createApp({ dev: false, early });
    await firstScreenLoaded(services, early.screen);
    const seen: string[] = [];
    const observer = new MutationObserver(() => {
      if (document.body.textContent?.includes('正在努力加载中')) seen.push('placeholder');
    });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
    render(app);
    // In the commit of render(): the menu (layout chunk, every namespace, icons) is there without waiting.
    const tree = screen.getByRole('tree', { name: '主菜单' });
    expect(within(tree).getByRole('treeitem', { name: '个人中心' })).toBeInTheDocument();
    await act(async () => undefined);
    observer.disconnect();
    expect(seen).toEqual([]);
  });

  it('waits no longer than its bound for a load that hangs, and not at all on one that fails', async () => {
    admin();
    window.location.hash = '#/info';
    const early = startEarly(discoverPlugins(), window.location);
    const { services } = await createApp({ dev: false, early });
    const hang = vi.spyOn(services.registry, 'loadPlugin').mockReturnValue(new Promise(() => undefined));
    const started = Date.now();
    await firstScreenLoaded(services, early.screen, 50);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    hang.mockRejectedValue(new Error('chunk gone'));
    await expect(firstScreenLoaded(services, early.screen, 60_000)).resolves.toBeUndefined();
  });
});
