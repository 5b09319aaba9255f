import { defineManifest, type KeyMap } from '@/shared/manifest';
import { definePlugin } from '@/core';
import { renderPlugin } from '@/core/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { identityPlugin } from './fixtures/plugins';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  for (const script of document.querySelectorAll('script[data-test-entry]')) script.remove();
});

/** While true the page throws on render (React renders it twice before giving up: once more, synchronously). */
let broken = false;
function Fragile() {
  const [clicks, setClicks] = useState(0);
  if (broken) throw new Error('the fragile page broke');
  if (clicks > 0) throw new Error(`broke on click ${clicks}`);
  return (
    <div>
      <h1>fragile page</h1>
      <button type="button" onClick={() => setClicks((n) => n + 1)}>
        break it
      </button>
    </div>
  );
}

const fragileStrings = { 'zh-CN': { label: '易碎页' }, 'en-US': { label: 'Fragile' } };
const goneStrings = { 'zh-CN': { label: '已替换' }, 'en-US': { label: 'Replaced' } };
const fragileManifest = defineManifest({ id: 'fx-fragile', locales: fragileStrings, menus: [{ key: 'fragile', group: 'ops', labelKey: 'label' }] });
const goneManifest = defineManifest({ id: 'fx-gone', locales: goneStrings, menus: [{ key: 'gone', group: 'ops', labelKey: 'label' }] });
declare module '@/shared/manifest' {
  interface PermissionKeys extends KeyMap<typeof fragileManifest>, KeyMap<typeof goneManifest> {}
}

const fragile = definePlugin({
  id: 'fx-fragile',
  manifest: fragileManifest,
  pages: [{ menuKey: 'fragile', group: 'ops', path: '/fragile', page: 'Fragile', layout: 'admin' }],
  load: () => Promise.resolve({ Fragile }),
  locales: fragileStrings,
});

/** console.error calls that carry this error (React's report of a caught error). */
function reportsOf(spy: { mock: { calls: unknown[][] } }, message: string): number {
  return spy.mock.calls.filter((args) => args.some((arg) => arg instanceof Error && arg.message === message)).length;
}

describe('a page that throws', () => {
  it('shows what failed in the page area while the shell keeps working; retry renders it again', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    broken = true;
    const { user, location } = await renderPlugin(fragile, { extraPlugins: [identityPlugin] });
    const alert = await screen.findByTestId('core.page-error');
    expect(within(alert).getByText('此页面出错了')).toBeInTheDocument();
    expect(within(alert).getByText('the fragile page broke')).toBeInTheDocument();
    // The shell: layout, side menu, breadcrumb.
    expect(screen.getByTestId('core.admin-layout')).toBeInTheDocument();
    expect(screen.getByRole('tree', { name: '主菜单' })).toBeInTheDocument();
    expect(within(screen.getByRole('navigation', { name: '面包屑导航' })).getByText('易碎页')).toBeInTheDocument();
    expect(reportsOf(errors, 'the fragile page broke')).toBe(1);

    broken = false; // whatever broke it has passed
    await user.click(within(alert).getByRole('button', { name: '重试' }));
    expect(await screen.findByRole('heading', { name: 'fragile page' })).toBeInTheDocument();
    expect(screen.queryByTestId('core.page-error')).toBeNull();
    expect(location().pathname).toBe('/fragile');
  });

  it('an error in an event-driven render is caught the same way, reported once, and the menu still navigates', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    broken = false;
    const { user, location } = await renderPlugin(fragile, { extraPlugins: [identityPlugin] });
    await user.click(await screen.findByRole('button', { name: 'break it' }));
    expect(await screen.findByText('broke on click 1')).toBeInTheDocument();
    expect(reportsOf(errors, 'broke on click 1')).toBe(1);
    await user.click(screen.getAllByRole('treeitem', { name: '用户管理' })[0] as HTMLElement);
    await user.click(await screen.findByRole('treeitem', { name: '角色管理' }));
    await waitFor(() => expect(location().pathname).toBe('/role'));
    expect(await screen.findByRole('heading', { name: 'roles' })).toBeInTheDocument();
    expect(screen.queryByTestId('core.page-error')).toBeNull();
  });

  it('back returns to the previous page', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    broken = false;
    const { user, router, location } = await renderPlugin(identityPlugin, { route: '/role', extraPlugins: [fragile] });
    expect(await screen.findByRole('heading', { name: 'roles' })).toBeInTheDocument();
    broken = true;
    router.navigate('/fragile');
    const alert = await screen.findByTestId('core.page-error');
    await user.click(within(alert).getByRole('button', { name: '返回上一页' }));
    await waitFor(() => expect(location().pathname).toBe('/role'));
  });
});

describe('a chunk that fails to load', () => {
  const failingChunk = () =>
    definePlugin({
      id: 'fx-gone',
      manifest: goneManifest,
      pages: [{ menuKey: 'gone', group: 'ops', path: '/gone', page: 'Page', layout: 'admin' }],
      load: () => Promise.reject(new TypeError('Failed to fetch dynamically imported module: http://console/static/plugin-gone-1a2b.js')),
      locales: goneStrings,
    });

  function runningBuild(entry: string) {
    const script = document.createElement('script');
    script.type = 'module';
    script.src = entry;
    script.dataset.testEntry = '';
    document.head.append(script);
  }

  it('offers a reload when a deploy replaced the running build (the page now names another entry)', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    runningBuild('/static/index-old111.js');
    const fetchPage = vi.fn(async () => new Response('<!doctype html><script type="module" src="/static/index-new222.js"></script>', { status: 200 }));
    vi.stubGlobal('fetch', fetchPage);
    const { user, reloads } = await renderPlugin(failingChunk());
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('控制台已更新')).toBeInTheDocument();
    expect(within(alert).queryByRole('button', { name: '重试' })).toBeNull();
    await user.click(within(alert).getByRole('button', { name: '刷新页面' }));
    expect(reloads()).toBe(1);
    expect(fetchPage).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId('core.admin-layout')).toBeInTheDocument();
  });

  it('is the network when the server still serves the same build (or cannot be asked): retry, no reload', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    runningBuild('/static/index-same333.js');
    vi.stubGlobal('fetch', vi.fn(async () => new Response('<script type="module" src="/static/index-same333.js"></script>')));
    await renderPlugin(failingChunk());
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('页面加载失败')).toBeInTheDocument();
    expect(within(alert).getByRole('button', { name: '重试' })).toBeInTheDocument();
    expect(within(alert).queryByRole('button', { name: '刷新页面' })).toBeNull();
  });

  it('offline (the page cannot be fetched either) is the network too', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    runningBuild('/static/index-old111.js');
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    await renderPlugin(failingChunk());
    expect(await screen.findByRole('button', { name: '重试' })).toBeInTheDocument();
  });
});
