import type { ComponentType } from 'react';
import type { PageLayout } from '../plugin/types';

type Layout = Exclude<PageLayout, 'bare'>;

const loaded = new Map<Layout, ComponentType>();

function remember(layout: Layout, component: ComponentType): ComponentType {
  loaded.set(layout, component);
  return component;
}

/** Layouts are lazy core chunks: the login screen (bare) must not pay for the menu and header. */
export const layoutLoaders: Record<Layout, () => Promise<ComponentType>> = {
  admin: () => import('../layouts/AdminLayout').then((m) => remember('admin', m.AdminLayout)),
  user: () => import('../layouts/UserLayout').then((m) => remember('user', m.UserLayout)),
};

/**
 * The locale namespaces a layout renders with: its menu and breadcrumb name every plugin's pages, and it carries the
 * UI kit's strings (`kit`), which the login screen never needs. The layout host loads them; the entry's early start
 * fetches the same list, which the first render waits for (core/app/main-app.tsx).
 */
export function layoutNamespaces(pluginIds: readonly string[]): string[] {
  return [...pluginIds, 'kit'];
}

/** A layout whose chunk has arrived (through `layoutLoaders`), to render without a placeholder pass. */
export function loadedLayout(layout: Layout): ComponentType | undefined {
  return loaded.get(layout);
}
