import type { PluginRegistry } from '../plugin/registry';
import type { AccountKind, ResolvedPage, ResolvedRoute } from '../plugin/types';
import type { SessionUser } from '../session/store';
import { buildAdminMenu, buildUserBar, type MenuEntry } from './menu';

/** The sign-in route: where a 401 and a visit without a token lead (spec §4, §8). The only route open without a token. */
export const LOGIN_PATH = '/login';
/** The query parameter of the login route that remembers where the visitor wanted to go. */
export const RETURN_PARAM = 'from';

export type LandingUser = Pick<SessionUser, 'type'> & { menus?: readonly string[] | null };

/** Accounts of type `user` live in the user layout; every other type in the admin console (spec §2, §6). */
function accountKindOf(type: string | undefined): AccountKind {
  return type === 'user' ? 'user' : 'admin';
}

/** Whether an account holding the keys `holds` accepts may open a route: its menu key and its gate (the 403 page's check). */
export function mayOpenRoute(route: Pick<ResolvedRoute, 'menuKey' | 'gate'>, holds: (key: string) => boolean): boolean {
  return (route.menuKey === null || holds(route.menuKey)) && (route.gate === undefined || holds(route.gate));
}

function mayOpen(route: Pick<ResolvedRoute, 'menuKey' | 'gate'>, menus: readonly string[]): boolean {
  return mayOpenRoute(route, (key) => menus.includes(key));
}

function firstMenuPage(entries: readonly MenuEntry[]): ResolvedPage | undefined {
  const entry = entries[0];
  if (!entry) return undefined;
  return entry.type === 'item' ? entry.page : entry.children[0];
}

/**
 * Core's one landing rule, for `/`, after login, and the 403/404 pages' buttons: the page a plugin declares as the
 * home of the account's type (`home`), when the account may open it; else the first page of that account's menus
 * (admin side menu, or the user top bar); else the page declared as the fallback home (`fallbackHome`, the personal
 * centre). Core never names those paths: the plugins declare them.
 */
function landingPage(registry: Pick<PluginRegistry, 'pages'>, user: LandingUser, kind: AccountKind = accountKindOf(user.type)): ResolvedPage | undefined {
  const menus = user.menus ?? [];
  const home = registry.pages.find((page) => page.home === kind);
  if (home && mayOpen(home, menus)) return home;
  const first = kind === 'user' ? buildUserBar(registry, menus)[0] : firstMenuPage(buildAdminMenu(registry, menus));
  return first ?? registry.pages.find((page) => page.fallbackHome === kind);
}

/** The landing rule as a path; `/permission-denied` when no page at all is open to the account. */
export function landingPath(registry: Pick<PluginRegistry, 'pages'>, user: LandingUser, kind?: AccountKind): string {
  return landingPage(registry, user, kind)?.path ?? '/permission-denied';
}

/**
 * Where a sign-in sends the account: the remembered return path when it is a registered page the account may open
 * (never the login page itself), else the landing rule.
 */
export function afterLoginPath(registry: PluginRegistry, user: LandingUser, returnTo: string | null): string {
  if (returnTo?.startsWith('/') && !returnTo.startsWith('//')) {
    const pathname = returnTo.split(/[?#]/)[0] ?? '';
    const route = registry.matchRoute(pathname);
    if (route && pathname !== LOGIN_PATH && mayOpen(route, user.menus ?? [])) return returnTo;
  }
  return landingPath(registry, user);
}

/** The login route remembering `returnTo` (nothing to remember for `/`). */
export function loginPathFrom(returnTo: string): string {
  const pathname = returnTo.split(/[?#]/)[0] ?? '';
  if (pathname === '/' || pathname === '' || pathname === LOGIN_PATH) return LOGIN_PATH;
  return `${LOGIN_PATH}?${new URLSearchParams({ [RETURN_PARAM]: returnTo })}`;
}
