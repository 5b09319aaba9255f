import type { EarlyAnswer, EarlyAnswers } from '../api/client';
import { storedLanguage } from '../i18n/language';
import { loadLocaleBundle, loadLocaleFiles } from '../i18n/resources';
import { LOGIN_PATH, type LandingUser, landingPath, mayOpenRoute } from '../navigation/landing';
import { childPath, hashPathname, matchesPath } from '../navigation/paths';
import { resolvePages } from '../plugin/resolve';
import type { AnyPlugin, Lng, PageDef, PageLayout } from '../plugin/types';
import { parseUser, TOKEN_KEY, USER_KEY } from '../session/stored';
import { DRAWN_ANSWERS_KEY, type DrawnAnswers } from '../../shared/first-screen.ts';
import { layoutLoaders, layoutNamespaces } from './layouts';

// The entry's first act (core/main.tsx), before React and the libraries have arrived: from the URL and the
// descriptors alone, start fetching everything the first screen needs — the page's chunk, its layout, locale files,
// menu icons — and the GETs it makes at start, so they all load in parallel with the app
// instead of one after another as each piece discovers the next. Only imports of light modules here: whatever
// this module imports statically is in the entry chunk and delays the start.

/** Early answers serve the first screen only; later calls go to the server. */
export const EARLY_ANSWER_TTL_MS = 15_000;

/** What the first screen of a URL needs, as far as the descriptors tell. */
export interface FirstScreen {
  /** Plugin whose page shows (null: `/`, an unknown path). */
  pluginId: string | null;
  layout: PageLayout | null;
  /**
   * Locale namespaces it renders with: core, the page's plugin, every plugin under a layout (menu), and the UI kit's
   * strings for every page but the login (the layouts and PluginPage load `kit` with them).
   */
  namespaces: string[];
  /** GETs made while it starts: the branding, the user's refresh at `/`, the page's own (`opensWith`). */
  requests: string[];
}

/** The plugin and layout of the route at `pathname`; `page` when it is a page itself (not one of its child routes). */
function findRoute(plugins: readonly AnyPlugin[], pathname: string): { plugin: AnyPlugin; layout: PageLayout; page?: PageDef<string, string> } | undefined {
  for (const plugin of plugins) {
    for (const page of plugin.pages) {
      if (matchesPath(page.path, pathname)) return { plugin, layout: page.layout, page };
      for (const child of page.children ?? []) {
        if (matchesPath(childPath(page.path, child.path), pathname)) return { plugin, layout: page.layout };
      }
    }
  }
  return undefined;
}

/** The session as stored when the page opens: a token or none, and the user saved with it (null: none or corrupt). */
export interface StoredSession {
  signedIn: boolean;
  user: LandingUser | null;
}

/**
 * The screen a visit to `pathname` shows first, as core's routes decide it (core/app/routes.tsx, RootRedirect):
 * without a token every page but the login leads to the login; `/` with one refreshes the user (`/account/info`),
 * then goes where core's landing rule sends that user — planned here with the stored user, who is almost always the
 * refreshed one (a wrong guess costs a chunk loaded early, nothing else). A page's own GETs (`opensWith`) start
 * too when the stored user may open it (the server checks the token as always; the answer serves only that token).
 */
export function planFirstScreen(plugins: readonly AnyPlugin[], pathname: string, session: StoredSession): FirstScreen {
  const requests = ['/branding'];
  let target = session.signedIn || pathname === LOGIN_PATH ? pathname : LOGIN_PATH;
  if (target === '/') {
    requests.push('/account/info');
    if (!session.user) return { pluginId: null, layout: null, namespaces: ['core'], requests };
    target = landingPath({ pages: resolvePages(plugins) }, session.user);
  }
  const route = findRoute(plugins, target);
  if (!route) return { pluginId: null, layout: null, namespaces: ['core'], requests };
  const namespaces =
    route.layout !== 'bare' ? ['core', ...layoutNamespaces(plugins.map((plugin) => plugin.id))] : target === LOGIN_PATH ? ['core', route.plugin.id] : ['core', route.plugin.id, 'kit'];
  const user = session.user;
  const page = route.page;
  if (session.signedIn && page?.opensWith && user && mayOpenRoute({ menuKey: page.menuKey, gate: page.gate }, (key) => user.menus?.includes(key) ?? false)) {
    requests.push(...page.opensWith);
  }
  return { pluginId: route.plugin.id, layout: route.layout, namespaces, requests };
}

type Fetch = (url: string, init: RequestInit) => Promise<Response>;

/**
 * The answers the server drew the first screen from, when index.html's boot has them for this token (a signed-in
 * visit to a page the server draws, core/app/firstScreenBoot.ts): the early start takes them instead of asking again.
 */
export function drawnAnswers(token: string | null, from: object = window): Readonly<Record<string, unknown>> {
  const drawn = (from as Record<string, Partial<DrawnAnswers> | undefined>)[DRAWN_ANSWERS_KEY];
  return (token !== null && drawn?.token === token && drawn.bodies) || {};
}

/**
 * GETs `urls` now, but for those `ready` already holds (the bodies the first screen was drawn from). A failed or
 * non-JSON answer becomes null: the caller then asks the server itself, as usual.
 */
export function fetchEarly(
  urls: readonly string[],
  token: string | null,
  fetchFn: Fetch,
  now: () => number = Date.now,
  ready: Readonly<Record<string, unknown>> = {},
  /** The console's language, sent as the API client sends it (the server's texts in the answers are said in it). */
  lng?: string,
): EarlyAnswers {
  const started = now();
  const pending = new Map<string, Promise<EarlyAnswer | null>>();
  /** Answers already here, for `peek`. */
  const arrived = new Map<string, EarlyAnswer>();
  for (const url of urls) {
    const drawn = Object.hasOwn(ready, url) && { status: 200, data: ready[url] };
    if (drawn) arrived.set(url, drawn);
    const answer = drawn ? Promise.resolve(drawn) : fetchFn(url, { headers: { ...(token ? { [TOKEN_KEY]: token } : {}), ...(lng ? { 'Accept-Language': lng } : {}) }, credentials: 'same-origin' })
      .then(
        async (res) => (res.ok && (res.headers.get('content-type') ?? '').includes('json') ? { status: res.status, data: await res.json() } : null),
        () => null,
      )
      .catch(() => null);
    answer.then((value) => value && arrived.set(url, value));
    pending.set(url, answer);
  }
  const usable = (current: string | null) => current === token && now() - started <= EARLY_ANSWER_TTL_MS;
  return {
    take(url, current) {
      const answer = pending.get(url);
      if (!answer) return undefined;
      pending.delete(url);
      arrived.delete(url);
      return usable(current) ? answer : undefined;
    },
    peek(url, current) {
      return pending.has(url) && usable(current) ? arrived.get(url) : undefined;
    },
  };
}

export interface EarlyStart {
  lng: Lng;
  screen: FirstScreen;
  answers: EarlyAnswers;
}

const ignore = () => undefined;

/**
 * Starts the first screen's loads and GETs. Best effort: a failure here is ignored, the app's own loads
 * (which reuse these imports) report it as they always do.
 */
export function startEarly(plugins: readonly AnyPlugin[], location: Pick<Location, 'hash'> = window.location): EarlyStart {
  let token: string | null = null;
  let user: LandingUser | null = null;
  try {
    token = window.localStorage.getItem(TOKEN_KEY);
    user = parseUser(window.localStorage.getItem(USER_KEY));
  } catch {
    // storage unavailable: anonymous
  }
  const lng = storedLanguage();
  let screen: FirstScreen;
  try {
    screen = planFirstScreen(plugins, hashPathname(location.hash), { signedIn: token !== null, user });
  } catch {
    // a broken descriptor: the registry names it when the app starts
    screen = { pluginId: null, layout: null, namespaces: ['core'], requests: [] };
  }
  const answers = fetchEarly(screen.requests, token, (url, init) => window.fetch(url, init), Date.now, drawnAnswers(token), lng);
  // In the order they are needed, as HTTP/1.1's six connections serve them: `core`'s strings hold the app's first
  // render, then the page and its layout; the menu's namespaces and icons (some forty small files) last.
  loadLocaleFiles([lng], ['core']).catch(ignore);
  const plugin = plugins.find((p) => p.id === screen.pluginId);
  if (plugin) plugin.load().catch(ignore);
  if (screen.layout && screen.layout !== 'bare') layoutLoaders[screen.layout]().catch(ignore);
  if (screen.layout && screen.layout !== 'bare') {
    // The menu names every plugin's pages: all namespaces, as the layout host asks for them (one bundle).
    loadLocaleBundle(lng).catch(ignore);
    for (const p of plugins) for (const page of p.pages) page.icon?.().catch(ignore);
  } else {
    loadLocaleFiles([lng], screen.namespaces).catch(ignore);
  }
  return { lng, screen, answers };
}
