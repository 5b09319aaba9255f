import { definePlugin, usePageTitle } from '@/core';
import { renderConsole } from '@/core/testing';
import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

// A bare page titled by its data (as the terminal is by its host), and an ordinary one titled by its route.
const Host = () => {
  usePageTitle('db-01');
  return <h1>host</h1>;
};
const Plain = () => <h1>plain</h1>;
const fixture = definePlugin({
  id: 'fx-title',
  pages: [
    { menuKey: null, path: '/fx-host', page: 'Host', labelKey: 'host', layout: 'bare', hideInMenu: true },
    { menuKey: null, path: '/fx-plain', page: 'Plain', labelKey: 'plain', layout: 'bare', hideInMenu: true },
  ],
  load: () => Promise.resolve({ Host, Plain }),
  locales: { 'zh-CN': { host: '主机', plain: '普通页' }, 'en-US': { host: 'Host', plain: 'Plain' } },
});

describe('usePageTitle', () => {
  it("titles the browser tab with the page's own text while it is shown, then the route's title again", async () => {
    const { router } = await renderConsole([fixture], { route: '/fx-host' });
    expect(await screen.findByRole('heading', { name: 'host' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('db-01')); // not 主机｜Jumpgate, even once branding arrived
    await act(async () => router.navigate('/fx-plain'));
    expect(await screen.findByRole('heading', { name: 'plain' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('普通页\uFF5CJumpgate'));
  });
});
