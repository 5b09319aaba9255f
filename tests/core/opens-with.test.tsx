import { createFakeApi, renderPlugin } from '@/core/testing';
import { waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { discoverPlugins } from '../../core/plugin/discover';

vi.setConfig({ testTimeout: 30_000 });

// A page's `opensWith` (core/plugin/types.ts) is fetched by the entry before React arrives and handed to the page's
// first request of the same URL. So it must be exactly what the page requests as it opens: each declaring page is
// rendered here (the real console, a fake server answering every GET with an empty page) and compared.
const plugins = discoverPlugins();
const declaring = plugins.flatMap((plugin) => plugin.pages.filter((page) => page.opensWith?.length).map((page) => ({ plugin, page })));

describe('pages that declare the GETs they open with', () => {
  it('exist (the list pages start their first page early)', () => {
    expect(declaring.length).toBeGreaterThan(0);
  });

  for (const { plugin, page } of declaring) {
    it(`${page.path} (${plugin.id}): the declared URLs are its first requests, query included`, async () => {
      const declared = page.opensWith ?? [];
      const api = createFakeApi({ 'GET /branding': {}, 'GET /*': { total: 0, items: [] } });
      await renderPlugin(plugin, { route: page.path, api, waitForLoad: false });
      const first = () => api.calls.filter((call) => call.method === 'GET' && call.path !== '/branding').map((call) => call.url);
      await waitFor(() => expect(first().length).toBeGreaterThanOrEqual(declared.length));
      expect(first().slice(0, declared.length)).toEqual(declared);
    });
  }
});
