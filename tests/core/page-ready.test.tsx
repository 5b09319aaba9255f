// A page whose chunk and strings are already loaded renders in its first pass, never through the loading placeholder
// (core/app/PluginPage.tsx `ready`; on a first visit the early start brings them while the layout loads).
import { defineManifest, type KeyMap } from '@/shared/manifest';
import { definePlugin } from '@/core';
import { renderPlugin } from '@/core/testing';
import { act, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

const twinStrings = { 'zh-CN': { label: '双页' }, 'en-US': { label: 'Twin' } };
const twinManifest = defineManifest({
  id: 'fx-twin',
  locales: twinStrings,
  menus: [
    { key: 'twin-a', group: 'ops', labelKey: 'label' },
    { key: 'twin-b', group: 'ops', labelKey: 'label' },
  ],
});
declare module '@/shared/manifest' {
  interface PermissionKeys extends KeyMap<typeof twinManifest> {}
}

const PageA = () => <h1>page a</h1>;
const PageB = () => <h1>page b</h1>;

describe('a page already loaded', () => {
  it('renders at once on the next visit: the placeholder never shows, the chunk is not loaded again', async () => {
    const load = vi.fn(() => Promise.resolve({ PageA, PageB }));
    const twin = definePlugin({
      id: 'fx-twin',
      manifest: twinManifest,
      pages: [
        { menuKey: 'twin-a', group: 'ops', path: '/twin-a', page: 'PageA', layout: 'admin' },
        { menuKey: 'twin-b', group: 'ops', path: '/twin-b', page: 'PageB', layout: 'admin' },
      ],
      load,
      locales: twinStrings,
    });
    const { router } = await renderPlugin(twin, { route: '/twin-a' });
    expect(await screen.findByRole('heading', { name: 'page a' })).toBeInTheDocument();

    const placeholders: string[] = [];
    const observer = new MutationObserver(() => {
      if (document.body.textContent?.includes('正在努力加载中')) placeholders.push('shown');
    });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
    act(() => router.navigate('/twin-b'));
    // In the same commit as the navigation, without waiting for an effect.
    expect(screen.getByRole('heading', { name: 'page b' })).toBeInTheDocument();
    await act(async () => undefined);
    observer.disconnect();
    expect(placeholders).toEqual([]);
    expect(load).toHaveBeenCalledTimes(1);
  });
});
