import { changeLanguage } from '../../core/i18n/createI18n';
import { downloadUrl } from '../../core/ui/download';
import { socketUrl } from '../../core/terminal/frames';
import { type AnyPlugin, useApi } from '@/core';
import { createApiClient, createEventBus, createFakeApi, createMemoryStorage, createSessionStore, renderPlugin } from '@/core/testing';
import { screen, waitFor } from '@testing-library/react';
import { createElement, useEffect, useState } from 'react';
import { describe, expect, it, vi } from 'vitest';

vi.setConfig({ testTimeout: 30_000 });

// The server says its messages (refusals, close reasons, the super admin's seeded name) in the language the console
// sends (issue 27, "Words"): `Accept-Language` on every call, `lng` in socket and download URLs.

/** Asks GET /probe when shown and at each click. */
function ProbePage() {
  const api = useApi();
  const [n, setN] = useState(0);
  useEffect(() => {
    void api.get('/probe').then(() => setN((v) => v + 1));
  }, [api]);
  return createElement('button', { type: 'button', onClick: () => void api.get('/probe').then(() => setN((v) => v + 1)) }, `asked ${n}`);
}

describe('the API client sends the console’s language', () => {
  it('as Accept-Language on every call, following the current language; none when built without one', async () => {
    const fake = createFakeApi({ 'GET /x': { ok: true } });
    let lng = 'en-US';
    const session = createSessionStore({ storage: createMemoryStorage(), initial: { token: 'tok', user: null } });
    const api = createApiClient({ session, bus: createEventBus(), t: (k) => k, redirect: () => undefined, adapter: fake.adapter, language: () => lng });
    await api.get('/x');
    lng = 'zh-CN';
    await api.get('/x');
    expect(fake.calls.map((c) => c.headers['Accept-Language'])).toEqual(['en-US', 'zh-CN']);
    expect(api.language()).toBe('zh-CN');

    const bare = createApiClient({ session, bus: createEventBus(), t: (k) => k, redirect: () => undefined, adapter: fake.adapter });
    await bare.get('/x');
    expect(fake.calls.at(-1)?.headers['Accept-Language']).toBeUndefined();
  });

  it('as lng in a socket’s and a download’s URL, beside the token', () => {
    const api = { baseUrl: '', token: () => 'tok', language: () => 'en-US' };
    const ws = new URL(socketUrl(api, '/sessions/s1/ssh', { cols: 80 }, 'http://console.example:8088/#/term'));
    expect(ws.protocol).toBe('ws:');
    expect(Object.fromEntries(ws.searchParams)).toEqual({ cols: '80', lng: 'en-US', 'X-Auth-Token': 'tok' });
    expect(downloadUrl(api, '/assets/export')).toBe('/assets/export?lng=en-US&X-Auth-Token=tok');
  });

  it('in the console: the calls a page makes carry the language shown, and the new one after a switch', async () => {
    // Typed as any plugin: its menu key is the fixture's own, not one of the shipped manifests' PermissionKeys.
    const probe: AnyPlugin = {
      id: 'fx-probe',
      manifest: { id: 'fx-probe', locales: { 'zh-CN': { label: '探针' }, 'en-US': { label: 'Probe' } }, menus: [{ key: 'fx-probe', group: 'ops', labelKey: 'label' }], actions: [] },
      pages: [{ menuKey: 'fx-probe', path: '/probe', page: 'Page', layout: 'admin' }],
      load: () => Promise.resolve({ Page: ProbePage }),
      locales: { 'zh-CN': { label: '探针' }, 'en-US': { label: 'Probe' } },
    };
    const { api, user, services } = await renderPlugin(probe, { route: '/probe', lng: 'en-US', api: { 'GET /probe': { ok: true } } });
    await screen.findByRole('button', { name: 'asked 1' });
    expect(api.callsTo('GET /probe').map((c) => c.headers['Accept-Language'])).toEqual(['en-US']);
    await changeLanguage(services.i18n, 'zh-CN', false);
    await user.click(screen.getByRole('button', { name: 'asked 1' }));
    await waitFor(() => expect(api.callsTo('GET /probe')).toHaveLength(2));
    expect(api.callsTo('GET /probe')[1]?.headers['Accept-Language']).toBe('zh-CN');
  });
});
