import type { AnyPlugin, PageDef, ResolvedPage } from './types';

// Light on purpose (no library): the registry uses it, and so does the entry's early start (core/app/early.ts),
// which applies the landing rule to the descriptors before the registry's chunk has arrived.

const DEFAULT_ORDER = 1000;

/**
 * A declared page as core's menus and landing rule see it: a keyed page's group, order and label key are its key's
 * manifest entry's, a key-less page's its own; order defaults to last, the title key to the label key. No checks:
 * createPluginRegistry makes them before using this.
 */
export function resolvePage(plugin: AnyPlugin, page: PageDef<string, string>): ResolvedPage {
  const declared = page.menuKey === null ? undefined : plugin.manifest?.menus.find((m) => m.key === page.menuKey);
  const entry: { order?: number; labelKey?: string } = page.menuKey === null ? page : (declared ?? {});
  const { order = DEFAULT_ORDER, labelKey = '' } = entry;
  return { ...page, group: declared?.group ?? page.group, pluginId: plugin.id, labelKey, order, titleKey: page.titleKey ?? labelKey };
}

/** Every page of the descriptors, resolved, in declaration order (the registry's `pages`, without its checks). */
export function resolvePages(plugins: readonly AnyPlugin[]): ResolvedPage[] {
  return plugins.flatMap((plugin) => plugin.pages.map((page) => resolvePage(plugin, page)));
}
