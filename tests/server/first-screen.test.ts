import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RenderedFirstScreen } from '../../shared/first-screen.ts';
import { routeTable } from '../../core/app/prerender.tsx';
import { buildServerRender } from '../../scripts/prerender-first-screen.ts';
import { ADMIN_PASSWORD, startHarness } from './harness.ts';

// GET /first-screen with the build's real server render (core/app/serverFirstScreen.tsx, built here as the console
// build writes it), against a real database: the markup is the caller's own page, from the caller's own GETs.
let distDir = '';
beforeAll(async () => {
  distDir = fs.mkdtempSync(path.join(os.tmpdir(), 'jumpgate-first-screen-'));
  await buildServerRender(distDir);
}, 120_000);

const PASSWORD = 'Some-User-Pass-1';

async function setUp() {
  const h = await startHarness({ distDir });
  const admin = await h.login('admin', ADMIN_PASSWORD);
  await h.createUser({ username: 'listed-person', type: 'user' });
  return { h, admin };
}

const screenOf = (data: unknown) => data as RenderedFirstScreen | null;
/** The texts of the table's body cells, row by row. */
const rowsOf = (html: string) =>
  [...(html.split('<tbody')[1] ?? '').matchAll(/<tr[^>]*>(.*?)<\/tr>/g)].map((row) => [...(row[1] ?? '').matchAll(/<td[^>]*>(.*?)<\/td>/g)].map((cell) => (cell[1] ?? '').replace(/<[^>]+>/g, '')));

describe('GET /first-screen', () => {
  it("draws the users page as the caller's console renders it: layout, page, the first page of rows, its styles", async () => {
    const { h, admin } = await setUp();
    const res = await h.call('GET', '/first-screen', { token: admin, query: { path: '/user', lng: 'en-US' } });
    expect(res.status).toBe(200);
    const screen = screenOf(res.body.data);
    expect(screen).toMatchObject({ route: '/user', lng: 'en-US' });
    expect(screen?.html).toContain('data-testid="core.admin-layout"');
    // What it was drawn from, for the console to take instead of asking again: exactly the answers it would get, in
    // the language it asked for (the super admin's seeded nickname is said in English).
    const pageUrl = '/users/paging?pageIndex=1&pageSize=10&order=&field=';
    expect(Object.keys(screen?.answers ?? {}).sort()).toEqual(['/branding', pageUrl]);
    expect(screen?.answers[pageUrl]).toEqual((await h.call('GET', pageUrl, { token: admin, headers: { 'accept-language': 'en-US' } })).body);
    const rows = rowsOf(screen?.html ?? '');
    expect(rows.flat()).toEqual(expect.arrayContaining(['admin', 'listed-person']));
    // The super admin's row actions, in the language asked for.
    // (a ⋯ menu that would hold one item, 详情, is that item as a button: RowActions)
    expect(rows[0]).toContain('EditDeleteDetails');
    // Every class the markup uses has its rule in the stylesheet (a sample: the table's cells).
    const cellClass = /<td class="([^"]+)"/.exec(screen?.html ?? '')?.[1]?.split(' ').find((name) => /^f[a-z0-9]{5,}$/.test(name));
    expect(cellClass && screen?.css.includes(`.${cellClass}`)).toBe(true);
  });

  it("shows only what the caller's own keys and answers show: no actions without their keys, nothing on a page it may not open", async () => {
    const { h } = await setUp();
    const viewer = await h.createRole(['user'], 'viewer');
    await h.createUser({ username: 'narrow-admin', password: PASSWORD, type: 'admin', roles: [viewer] });
    const narrow = await h.login('narrow-admin', PASSWORD);
    const drawn = screenOf((await h.call('GET', '/first-screen', { token: narrow, query: { path: '/user', lng: 'zh-CN' } })).body.data);
    expect(rowsOf(drawn?.html ?? '').flat()).toContain('listed-person');
    expect(drawn?.html).not.toContain('编辑');
    expect(drawn?.html).toContain('用户昵称');

    await h.createUser({ username: 'no-keys-admin', password: PASSWORD, type: 'admin', roles: [await h.createRole(['role'], 'roles only')] });
    await h.createUser({ username: 'portal-user', password: PASSWORD, type: 'user' });
    for (const username of ['no-keys-admin', 'portal-user']) {
      const token = await h.login(username, PASSWORD);
      const res = await h.call('GET', '/first-screen', { token, query: { path: '/user' } });
      expect(res.body, username).toEqual({ code: 1, message: 'success', data: null });
    }
  });

  it('draws every page the build marks as drawn by the server, for the super admin, in both languages', async () => {
    const { h, admin } = await setUp();
    const drawn = routeTable().filter((route) => route[3] === 1);
    expect(drawn.map(([pattern]) => pattern)).toContain('/user');
    for (const [pattern] of drawn) {
      for (const lng of ['zh-CN', 'en-US']) {
        const screen = screenOf((await h.call('GET', '/first-screen', { token: admin, query: { path: pattern, lng } })).body.data);
        expect(screen, `${pattern} ${lng}`).toMatchObject({ route: pattern, lng });
        // The page itself is in it (a table, its own or its empty state), not only the layout.
        expect(screen?.html, pattern).toMatch(/<table[^>]*>/);
      }
    }
  });

  it('draws nothing for a page it does not draw: a detail page, the login, a full-window page, an unknown path', async () => {
    const { h, admin } = await setUp();
    for (const where of ['/user/abc', '/login', '/term', '/nowhere', '/']) {
      const res = await h.call('GET', '/first-screen', { token: admin, query: { path: where } });
      expect(res.body, where).toEqual({ code: 1, message: 'success', data: null });
    }
  });

  it('refuses bad input and anonymous callers with envelopes, HTTP 200', async () => {
    const { h, admin } = await setUp();
    for (const query of [{ path: 'user' }, { path: '/user?x=<b>' }, { path: `/${'a'.repeat(300)}` }, { path: '/user', lng: 'x'.repeat(40) }, {}]) {
      const res = await h.call('GET', '/first-screen', { token: admin, query: query as Record<string, string> });
      expect(res.status).toBe(200);
      expect(res.body.code, JSON.stringify(query)).toBe(400);
    }
    const anonymous = await h.call('GET', '/first-screen', { query: { path: '/user' } });
    expect(anonymous.body.code).toBe(401);
  });

  it('is compressed for a browser that takes brotli', async () => {
    const { h, admin } = await setUp();
    const res = await h.app.inject({ method: 'GET', url: '/first-screen?path=%2Fuser', headers: { 'x-auth-token': admin, 'accept-encoding': 'gzip, deflate, br' } });
    expect(res.headers['content-encoding']).toBe('br');
    const body = JSON.parse(zlib.brotliDecompressSync(res.rawPayload).toString('utf8')) as { code: number; data: RenderedFirstScreen };
    expect(body.code).toBe(1);
    expect(body.data.route).toBe('/user');
    expect(res.rawPayload.length).toBeLessThan(JSON.stringify(body).length / 4);
  });

  it('draws at most MAX_RENDERING pages at once: past that the console renders its page itself', async () => {
    const { h, admin } = await setUp();
    const answers = await Promise.all(Array.from({ length: 16 }, () => h.call('GET', '/first-screen', { token: admin, query: { path: '/user' } })));
    const drawn = answers.filter((res) => res.body.data !== null).length;
    expect(answers.every((res) => res.body.code === 1)).toBe(true);
    expect(drawn).toBeGreaterThanOrEqual(1);
    expect(drawn).toBeLessThan(16);
  });

  it('draws nothing where the build has no server render (the API run alone, an older build)', async () => {
    const h = await startHarness();
    const admin = await h.login('admin', ADMIN_PASSWORD);
    const res = await h.call('GET', '/first-screen', { token: admin, query: { path: '/user' } });
    expect(res.body).toEqual({ code: 1, message: 'success', data: null });
  });
});
