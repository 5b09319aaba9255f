import { NAV_GROUPS, type NavGroupKey } from '../../shared/nav-groups.ts';
import type { PluginRegistry } from '../plugin/registry';
import type { ResolvedPage } from '../plugin/types';

export type MenuEntry =
  | { type: 'item'; page: ResolvedPage }
  | { type: 'group'; key: NavGroupKey; labelKey: string; children: ResolvedPage[] };

const byOrder = (a: ResolvedPage, b: ResolvedPage) => a.order - b.order || a.path.localeCompare(b.path);

function visible(page: ResolvedPage, menus: readonly string[]): boolean {
  const holds = (key: string | null | undefined) => key == null || menus.includes(key);
  return !page.hideInMenu && holds(page.menuKey) && holds(page.gate);
}

/**
 * The admin side menu: core's group order, pages by `order` inside a group, filtered by the user's menus.
 * A group is shown when any child survives (the group key itself need not be in menus).
 */
export function buildAdminMenu(registry: Pick<PluginRegistry, 'pages'>, menus: readonly string[]): MenuEntry[] {
  const pages = registry.pages.filter((page) => page.layout === 'admin' && page.group !== undefined && visible(page, menus));
  const entries: MenuEntry[] = [];
  for (const group of NAV_GROUPS) {
    const children = pages.filter((page) => page.group === group.key).sort(byOrder);
    if (children.length === 0) continue;
    if (group.top) for (const page of children) entries.push({ type: 'item', page });
    else entries.push({ type: 'group', key: group.key, labelKey: `nav.groups.${group.key}`, children });
  }
  return entries;
}

/** The user layout's top bar. */
export function buildUserBar(registry: Pick<PluginRegistry, 'pages'>, menus: readonly string[]): ResolvedPage[] {
  return registry.pages.filter((page) => page.layout === 'user' && visible(page, menus)).sort(byOrder);
}

export interface Crumb {
  path: string;
  ns: string;
  titleKey: string;
}

/** One crumb per path segment that is a registered route (`/user` → 用户管理, `/user/7` → 用户详情). */
export function buildCrumbs(registry: PluginRegistry, pathname: string): Crumb[] {
  const segments = pathname.split('/').filter(Boolean);
  const crumbs: Crumb[] = [];
  for (let i = 1; i <= segments.length; i++) {
    const path = `/${segments.slice(0, i).join('/')}`;
    const route = registry.matchRoute(path);
    if (route) crumbs.push({ path, ns: route.pluginId, titleKey: route.titleKey });
  }
  return crumbs;
}

/** The menu entry to highlight: the page owning the current route. */
export function selectedPagePath(registry: PluginRegistry, pathname: string): string | undefined {
  return registry.matchRoute(pathname)?.parentPath;
}
