import { createApiClient, createEventBus, createFakeApi, createMemoryStorage, createPluginRegistry, createSessionStore, loadLocaleFiles, reply } from '@/core/testing';
import { describe, expect, it } from 'vitest';
import { type Query, requestUrl } from '../../core/api/client';
import { drawnAnswers, EARLY_ANSWER_TTL_MS, fetchEarly, planFirstScreen, type StoredSession } from '../../core/app/early';
import { DRAWN_ANSWERS_KEY } from '../../shared/first-screen.ts';
import { hashPathname } from '../../core/navigation/paths';
import { landingPath } from '../../core/navigation/landing';
import { discoverPlugins } from '../../core/plugin/discover';
import { dashboardPlugin, identityPlugin, loginPlugin, myAreaPlugin } from './fixtures/plugins';

const plugins = discoverPlugins();
const all = ['core', ...plugins.map((p) => p.id), 'kit'];
const usersFirstPage = '/users/paging?pageIndex=1&pageSize=10&order=&field=';

// The entry's early start: what the first screen of a URL needs, from the descriptors alone.
describe('planFirstScreen', () => {
  const anonymous: StoredSession = { signedIn: false, user: null };
  const admin: StoredSession = { signedIn: true, user: { type: 'admin', menus: ['user', 'role'] } };

  it('reads the router path from the hash', () => {
    expect(hashPathname('#/user?x=1')).toBe('/user');
    expect(hashPathname('#/login?from=%2Fuser')).toBe('/login');
    expect(hashPathname('')).toBe('/');
    expect(hashPathname('#/')).toBe('/');
  });

  it('the login page: its plugin and namespace only, and the branding', () => {
    expect(planFirstScreen(plugins, '/login', anonymous)).toEqual({ pluginId: 'login', layout: 'bare', namespaces: ['core', 'login'], requests: ['/branding'] });
  });

  it('a list page with a token: its plugin, the layout, every namespace (the menu names them all) and its first GET', () => {
    expect(planFirstScreen(plugins, '/user', admin)).toEqual({ pluginId: 'identity', layout: 'admin', namespaces: all, requests: ['/branding', usersFirstPage] });
    expect(planFirstScreen(plugins, '/user/42', admin).pluginId).toBe('identity');
    expect(planFirstScreen(plugins, '/my-info', admin)).toMatchObject({ pluginId: 'info', layout: 'user' });
  });

  it('starts a page\'s declared GETs only for a user who may open it, only for the page itself', () => {
    const requests = (path: string, session: StoredSession) => planFirstScreen(plugins, path, session).requests;
    expect(requests('/user', admin)).toEqual(['/branding', usersFirstPage]);
    // no `user` key: the page shows 403, nothing is fetched for it
    expect(requests('/user', { signedIn: true, user: { type: 'admin', menus: ['role'] } })).toEqual(['/branding']);
    // a token without a stored user: nobody to check, so nothing early
    expect(requests('/user', { signedIn: true, user: null })).toEqual(['/branding']);
    // a child route of the page (/user/:userId) is another page
    expect(requests('/user/42', admin)).toEqual(['/branding']);
    // no token: the login shows
    expect(requests('/user', { signedIn: false, user: admin.user })).toEqual(['/branding']);
    // `/` landing on the page (its first menu page for this user) starts them too
    expect(requests('/', { signedIn: true, user: { type: 'admin', menus: ['user'] } })).toEqual(['/branding', '/account/info', usersFirstPage]);
  });

  it('full-window pages bring the UI kit\'s strings, the login does not', () => {
    const bare = plugins.flatMap((p) => p.pages.filter((page) => page.layout === 'bare' && !page.path.includes(':') && page.path !== '/login'));
    expect(bare.length).toBeGreaterThan(0);
    for (const page of bare) expect(planFirstScreen(plugins, page.path, admin).namespaces, page.path).toContain('kit');
    expect(planFirstScreen(plugins, '/login', anonymous).namespaces).not.toContain('kit');
  });

  it('without a token every page but the login leads to the login, open ones and unknown ones too (spec §4)', () => {
    for (const path of ['/user', '/', '/info', '/my-info', '/no-such-page']) {
      expect(planFirstScreen(plugins, path, anonymous), path).toEqual(planFirstScreen(plugins, '/login', anonymous));
    }
  });

  it('`/` with a token refreshes the user early and starts the page core\'s landing rule gives the stored user', async () => {
    const registry = createPluginRegistry(plugins, await loadLocaleFiles());
    const users = [admin.user, { type: 'admin', menus: [] }, { type: 'user', menus: [] }, { type: 'auditor', menus: ['role'] }];
    for (const user of users) {
      const landing = registry.matchRoute(landingPath(registry, user!));
      const screen = planFirstScreen(plugins, '/', { signedIn: true, user });
      expect(screen, JSON.stringify(user)).toMatchObject({ pluginId: landing?.pluginId ?? null, layout: landing?.layout ?? null });
      expect(screen.requests.slice(0, 2)).toEqual(['/branding', '/account/info']);
    }
    // The personal centre (the info plugin) is an admin's last resort; a type-user account lands on the home the
    // my-area plugin declares (我的资产), which needs no key.
    expect(planFirstScreen(plugins, '/', { signedIn: true, user: { type: 'admin', menus: [] } })).toMatchObject({ pluginId: 'info', layout: 'admin' });
    expect(planFirstScreen(plugins, '/', { signedIn: true, user: { type: 'user', menus: [] } })).toMatchObject({ pluginId: 'my-area', layout: 'user' });
  });

  it('follows a declared home (fixture plugins)', () => {
    const fixtures = [identityPlugin, dashboardPlugin, myAreaPlugin, loginPlugin];
    expect(planFirstScreen(fixtures, '/', { signedIn: true, user: { type: 'admin', menus: ['user', 'dashboard'] } })).toMatchObject({ pluginId: dashboardPlugin.id });
    expect(planFirstScreen(fixtures, '/', { signedIn: true, user: { type: 'admin', menus: ['user'] } })).toMatchObject({ pluginId: identityPlugin.id });
    expect(planFirstScreen(fixtures, '/', { signedIn: true, user: { type: 'user', menus: [] } })).toMatchObject({ pluginId: myAreaPlugin.id, layout: 'user' });
  });

  it('`/` with a token but no stored user, or an unknown path: core only, the page is decided later', () => {
    expect(planFirstScreen(plugins, '/', { signedIn: true, user: null })).toEqual({ pluginId: null, layout: null, namespaces: ['core'], requests: ['/branding', '/account/info'] });
    expect(planFirstScreen(plugins, '/no-such-page', admin)).toEqual({ pluginId: null, layout: null, namespaces: ['core'], requests: ['/branding'] });
  });
});

function response(status: number, body: unknown, type = 'application/json; charset=utf-8'): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': type } });
}

describe('fetchEarly', () => {
  it('sends the stored token and gives each answer once, to the same token, while fresh', async () => {
    const seen: [string, RequestInit][] = [];
    let now = 1000;
    const answers = fetchEarly(['/account/info', '/branding'], 'tok', async (url, init) => {
      seen.push([url, init]);
      return response(200, { code: 1, message: '', data: { url } });
    }, () => now);
    expect(seen.map(([url]) => url)).toEqual(['/account/info', '/branding']);
    expect(seen[0]?.[1].headers).toEqual({ 'X-Auth-Token': 'tok' });
    expect(await answers.take('/account/info', 'tok')).toEqual({ status: 200, data: { code: 1, message: '', data: { url: '/account/info' } } });
    expect(answers.take('/account/info', 'tok')).toBeUndefined(); // once
    expect(answers.take('/branding', 'other-token')).toBeUndefined(); // another identity asks the server
    const stale = fetchEarly(['/branding'], null, async () => response(200, {}), () => now);
    now += EARLY_ANSWER_TTL_MS + 1;
    expect(stale.take('/branding', null)).toBeUndefined();
  });

  it('shows an answer to peek once it has arrived, without taking it: not before, not to another token, not once taken', async () => {
    let arrive: (res: Response) => void = () => undefined;
    const answers = fetchEarly(['/users/paging'], 'tok', () => new Promise<Response>((resolve) => (arrive = resolve)));
    expect(answers.peek('/users/paging', 'tok')).toBeUndefined(); // not here yet
    arrive(response(200, { code: 1, message: '', data: { total: 0, items: [] } }));
    await waitForPeek(() => answers.peek('/users/paging', 'tok'));
    expect(answers.peek('/users/paging', 'tok')).toEqual({ status: 200, data: { code: 1, message: '', data: { total: 0, items: [] } } });
    expect(answers.peek('/users/paging', 'other-token')).toBeUndefined();
    expect(answers.peek('/other', 'tok')).toBeUndefined();
    expect(await answers.take('/users/paging', 'tok')).not.toBeNull(); // peeking took nothing
    expect(answers.peek('/users/paging', 'tok')).toBeUndefined();
    const failed = fetchEarly(['/a'], null, async () => response(502, {}));
    expect(await failed.take('/a', null)).toBeNull();
    expect(failed.peek('/a', null)).toBeUndefined();
  });

  it("takes the answers the server drew the first screen from (the boot left them for this token) instead of asking again", async () => {
    const seen: string[] = [];
    const page = { code: 1, message: 'success', data: { total: 1, items: [{ id: 'u1' }] } };
    const drawn = { [DRAWN_ANSWERS_KEY]: { token: 'tok', bodies: { '/users/paging': page } } };
    const answers = fetchEarly(['/branding', '/users/paging'], 'tok', async (url) => {
      seen.push(url);
      return response(200, { code: 1, message: '', data: {} });
    }, Date.now, drawnAnswers('tok', drawn));
    expect(seen).toEqual(['/branding']);
    // At hand at once: the table's first render shows it.
    expect(answers.peek('/users/paging', 'tok')).toEqual({ status: 200, data: page });
    expect(await answers.take('/users/paging', 'tok')).toEqual({ status: 200, data: page });
    // Drawn for another session (the token changed since), or none drawn: nothing taken from it.
    expect(drawnAnswers('other', drawn)).toEqual({});
    expect(drawnAnswers(null, drawn)).toEqual({});
    expect(drawnAnswers('tok', {})).toEqual({});
    expect(drawnAnswers('tok', { [DRAWN_ANSWERS_KEY]: { token: 'tok', bodies: null } })).toEqual({});
  });

  it('turns a failed, non-OK or non-JSON answer into null (the client then asks the server itself)', async () => {
    const answers = fetchEarly(['/a', '/b', '/c'], null, async (url) => {
      if (url === '/a') throw new TypeError('Failed to fetch');
      return url === '/b' ? response(502, {}) : response(200, 'x', 'text/html');
    });
    expect(await answers.take('/a', null)).toBeNull();
    expect(await answers.take('/b', null)).toBeNull();
    expect(await answers.take('/c', null)).toBeNull();
  });
});

/** Lets the fetch's promise chain settle until `read` gives something (a handful of microtasks). */
async function waitForPeek(read: () => unknown): Promise<void> {
  for (let i = 0; i < 20 && read() === undefined; i++) await Promise.resolve();
}

describe('requestUrl', () => {
  it('writes the URL axios sends for the same params', async () => {
    const { default: axios } = await import('axios');
    const cases: Query[] = [
      { pageIndex: 1, pageSize: 10, order: '', field: '' },
      { name: 'a b:c,d$e&f=g/h?é', online: true, skip: undefined, none: null },
      {},
    ];
    for (const params of cases) expect(requestUrl('/x/paging', params)).toBe(axios.getUri({ url: '/x/paging', params }));
    expect(requestUrl('/x', { ids: ['a', 'b'] })).toBeNull();
    expect(requestUrl('/x')).toBe('/x');
  });
});

describe('API client with early answers', () => {
  function setup(early: Record<string, unknown>) {
    const fake = createFakeApi({ 'GET /branding': { name: 'from the server' }, 'POST /branding': reply.envelope(1), 'GET /users/paging': { total: 9, items: [] } });
    const redirects: string[] = [];
    const taken: string[] = [];
    const api = createApiClient({
      session: createSessionStore({ storage: createMemoryStorage(), initial: { token: 'tok', user: { type: 'admin', menus: [] } } }),
      bus: createEventBus(),
      t: (key) => key,
      redirect: (path) => redirects.push(path),
      adapter: fake.adapter,
      early: {
        take(url, token) {
          taken.push(`${url} ${token}`);
          if (!(url in early)) return undefined;
          const answer = early[url];
          delete early[url];
          return Promise.resolve(answer === null ? null : { status: 200, data: answer });
        },
        peek(url) {
          const answer = early[url];
          return answer === undefined || answer === null ? undefined : { status: 200, data: answer };
        },
      },
    });
    return { api, fake, redirects, taken };
  }

  it('uses the early answer for the first plain GET, then asks the server', async () => {
    const { api, fake, taken } = setup({ '/branding': { code: 1, message: '', data: { name: 'early' } } });
    expect(await api.get('/branding')).toEqual({ name: 'early' });
    expect(fake.calls).toHaveLength(0);
    expect(taken).toEqual(['/branding tok']);
    expect(await api.get('/branding')).toEqual({ name: 'from the server' });
    expect(fake.calls).toHaveLength(1);
  });

  it('puts an early answer through the same envelope handling (body 401 → login)', async () => {
    const { api, redirects } = setup({ '/account/info': { code: 401, message: 'expired', data: null } });
    await expect(api.get('/account/info')).rejects.toMatchObject({ kind: 'unauthorized' });
    expect(redirects).toEqual(['/login']);
  });

  it('matches a GET with params by its URL as the transport writes it (the page declares that URL)', async () => {
    const { api, fake, taken } = setup({ [usersFirstPage]: { code: 1, message: '', data: { total: 0, items: [] } } });
    expect(await api.get('/users/paging', { params: { pageIndex: 1, pageSize: 10, order: '', field: '' } })).toEqual({ total: 0, items: [] });
    expect(fake.calls).toHaveLength(0);
    expect(taken).toEqual([`${usersFirstPage} tok`]);
  });

  it('gives a screen the data of an arrived, successful early answer at once, and uses it up', async () => {
    const { api, fake, taken } = setup({ [usersFirstPage]: { code: 1, message: '', data: { total: 1, items: [{ id: 'u1' }] } } });
    const params = { pageIndex: 1, pageSize: 10, order: '', field: '' };
    expect(api.earlyData('/users/paging', { ...params, pageIndex: 2 })).toBeUndefined(); // another page
    expect(api.earlyData('/users/paging', params)).toEqual({ total: 1, items: [{ id: 'u1' }] });
    expect(taken).toEqual([`${usersFirstPage} tok`]);
    expect(api.earlyData('/users/paging', params)).toBeUndefined();
    expect(await api.get('/users/paging', { params })).toEqual({ total: 9, items: [] }); // the next call is the server's
    expect(fake.calls.map((call) => call.url)).toEqual([usersFirstPage]);
  });

  it('leaves an early error to the call that handles it (earlyData gives nothing)', async () => {
    const { api, redirects } = setup({ '/account/info': { code: 401, message: 'expired', data: null } });
    expect(api.earlyData('/account/info')).toBeUndefined();
    expect(redirects).toEqual([]);
    await expect(api.get('/account/info')).rejects.toMatchObject({ kind: 'unauthorized' });
    expect(redirects).toEqual(['/login']);
  });

  it('asks the server when the early fetch failed, and never uses early answers for other calls', async () => {
    const { api, fake, taken } = setup({ '/branding': null });
    expect(await api.get('/branding')).toEqual({ name: 'from the server' });
    await api.get('/branding', { params: { a: 1 } }).catch(() => undefined);
    await api.post('/branding').catch(() => undefined);
    await api.get('/branding', { headers: { x: '1' } }).catch(() => undefined);
    expect(taken).toEqual(['/branding tok', '/branding?a=1 tok']);
    expect(fake.calls.length).toBeGreaterThanOrEqual(2);
  });
});
