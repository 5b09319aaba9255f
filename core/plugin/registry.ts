import { matchPath } from 'react-router-dom';
import { isNavGroupKey } from '../../shared/nav-groups.ts';
import { resolvePage } from './resolve';
import type { FluentIcon } from '@fluentui/react-icons';
import type { AnyPlugin, Lng, LocaleResources, PageDef, ResolvedPage, ResolvedRoute } from './types';

export const LANGUAGES: readonly Lng[] = ['zh-CN', 'en-US'];
const ID_PATTERN = /^[a-z][a-z0-9-]*$/;

/** Resources by language, then namespace (`core` or a plugin id). */
export type ResourceBundle = Record<Lng, Record<string, LocaleResources>>;

export class PluginRegistrationError extends Error {
  constructor(
    readonly pluginId: string,
    detail: string,
  ) {
    super(`Plugin "${pluginId}": ${detail}`);
    this.name = 'PluginRegistrationError';
  }
}

export interface PluginRegistry {
  readonly plugins: readonly AnyPlugin[];
  readonly pages: readonly ResolvedPage[];
  /** Every routable path: pages and their child routes. */
  readonly routes: readonly ResolvedRoute[];
  /** Resources with plugin inline locales merged in. */
  readonly resources: ResourceBundle;
  getPlugin(id: string): AnyPlugin | undefined;
  /** The registered route matching a pathname, if any (independent of permissions). */
  matchRoute(pathname: string): ResolvedRoute | undefined;
  /** One shared load per plugin; a failed load is forgotten so a retry fetches again. */
  loadPlugin(id: string): Promise<object>;
  /** The plugin's pages module once a load of it has succeeded, else undefined: lets a page render in one pass. */
  loadedPlugin(id: string): object | undefined;
  /** Drop a pending load (after a time-out) so the next attempt imports again. */
  forgetLoad(id: string): void;
  /** Runs every page's icon loader once (the layouts wait for it); a failure is forgotten so a retry loads again. */
  loadIcons(): Promise<void>;
  /** `loadIcons()` has resolved: every page's icon is at hand. */
  iconsLoaded(): boolean;
  /** A page's icon once `loadIcons()` has resolved. */
  iconOf(path: string): FluentIcon | undefined;
}

function lookupKey(resources: LocaleResources | undefined, key: string): unknown {
  let node: unknown = resources;
  for (const part of key.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

/** Whether a key (page or action) is declared by the plugin's own manifest. */
function hasKey(plugin: AnyPlugin, key: string): boolean {
  return plugin.manifest !== undefined && [...plugin.manifest.menus, ...plugin.manifest.actions].some((k) => k.key === key);
}

function joinChildPath(parent: string, child: string): string {
  if (child.startsWith('/')) return child;
  return `${parent.replace(/\/$/, '')}/${child}`;
}

function normalisePath(path: string): string {
  return path.replace(/\/:[^/]+/g, '/:param');
}

/** Checks that `load()` exports every page the descriptor names. Throws naming the plugin. */
export function validatePluginModule(plugin: AnyPlugin, module: object): void {
  const exports = module as Record<string, unknown>;
  const names = new Set<string>();
  for (const page of plugin.pages) {
    names.add(page.page);
    for (const child of page.children ?? []) names.add(child.page);
  }
  const missing = [...names].filter((name) => {
    const value = exports[name];
    return typeof value !== 'function' && (typeof value !== 'object' || value === null);
  });
  if (missing.length > 0) {
    throw new PluginRegistrationError(plugin.id, `load() does not export page(s) ${missing.map((m) => `"${m}"`).join(', ')}`);
  }
}

/** Loads a plugin's pages and validates them; for tests and the development start check. */
export async function validatePluginLoad(plugin: AnyPlugin): Promise<void> {
  validatePluginModule(plugin, await plugin.load());
}

function mergeResources(base: ResourceBundle, plugins: readonly AnyPlugin[]): ResourceBundle {
  const merged = { 'zh-CN': { ...base['zh-CN'] }, 'en-US': { ...base['en-US'] } } as ResourceBundle;
  for (const plugin of plugins) {
    for (const lng of LANGUAGES) {
      const inline = plugin.locales?.[lng];
      if (inline) merged[lng][plugin.id] = { ...(merged[lng][plugin.id] ?? {}), ...inline };
    }
  }
  return merged;
}

/**
 * Builds and validates the registry. Any problem throws a PluginRegistrationError naming the plugin:
 * a broken plugin must fail loudly, never drop out of the menu silently.
 */
export function createPluginRegistry(
  plugins: readonly AnyPlugin[],
  baseResources: ResourceBundle,
  /** Languages whose keys are checked; production checks the one it loaded, tests and development both. */
  languages: readonly Lng[] = LANGUAGES,
): PluginRegistry {
  const resources = mergeResources(baseResources, plugins);
  const ids = new Map<string, AnyPlugin>();
  const pathOwners = new Map<string, string>();
  const pageOfKey = new Map<string, string>();
  const homeOwners = new Map<string, string>();
  const claimHome = (plugin: AnyPlugin, page: Pick<PageDef<string, string>, 'path' | 'home' | 'fallbackHome'>, field: 'home' | 'fallbackHome') => {
    const kind = page[field];
    if (kind === undefined) return;
    if (kind !== 'admin' && kind !== 'user') {
      throw new PluginRegistrationError(plugin.id, `page "${page.path}": ${field} must be 'admin' or 'user'`);
    }
    const owner = homeOwners.get(`${field}:${kind}`);
    if (owner !== undefined) throw new PluginRegistrationError(plugin.id, `page "${page.path}": the ${field} of '${kind}' is already "${owner}"`);
    homeOwners.set(`${field}:${kind}`, page.path);
  };
  const pages: ResolvedPage[] = [];
  const routes: ResolvedRoute[] = [];

  const requireKey = (plugin: AnyPlugin, key: string, what: string) => {
    for (const lng of languages) {
      if (typeof lookupKey(resources[lng][plugin.id], key) !== 'string') {
        throw new PluginRegistrationError(plugin.id, `${what} "${key}" is missing from locales/${lng}/${plugin.id}.json`);
      }
    }
  };
  const claimPath = (plugin: AnyPlugin, path: string) => {
    const norm = normalisePath(path);
    const owner = pathOwners.get(norm);
    if (owner !== undefined) {
      throw new PluginRegistrationError(plugin.id, `path "${path}" is already registered by plugin "${owner}"`);
    }
    pathOwners.set(norm, plugin.id);
  };

  for (const plugin of plugins) {
    if (!ID_PATTERN.test(plugin.id)) {
      throw new PluginRegistrationError(plugin.id, 'id must be kebab-case (^[a-z][a-z0-9-]*$)');
    }
    if (plugin.id === 'core' || plugin.id.startsWith('core-')) {
      throw new PluginRegistrationError(plugin.id, 'ids "core" and "core-…" are reserved for core\'s locale namespaces');
    }
    if (ids.has(plugin.id)) throw new PluginRegistrationError(plugin.id, 'duplicate plugin id');
    ids.set(plugin.id, plugin);
    if (plugin.manifest && plugin.manifest.id !== plugin.id) {
      throw new PluginRegistrationError(plugin.id, `its manifest is for plugin "${plugin.manifest.id}"`);
    }
  }

  for (const plugin of plugins) {
    if (typeof plugin.load !== 'function') throw new PluginRegistrationError(plugin.id, 'load must be () => import(\'./pages\')');
    if (plugin.pages.length === 0) throw new PluginRegistrationError(plugin.id, 'declares no pages');

    for (const page of plugin.pages) {
      if (!page.path.startsWith('/')) throw new PluginRegistrationError(plugin.id, `path "${page.path}" must be absolute`);
      claimPath(plugin, page.path);
      let group = page.group;
      if (page.menuKey !== null) {
        const declared = plugin.manifest?.menus.find((m) => m.key === page.menuKey);
        if (!declared) {
          throw new PluginRegistrationError(plugin.id, `page "${page.path}": menu key "${page.menuKey}" is not a page key of the plugin's manifest`);
        }
        // A menu entry is declared once, in the manifest: the page names its key, the key's entry its order and label.
        // The type forbids both on the page; this catches a descriptor the type checker did not see, in development and
        // tests only (tests/meta/registry.test.ts checks the shipped plugins): the login screen's bundle has no room.
        if (import.meta.env.DEV && (page.labelKey !== undefined || page.order !== undefined || typeof declared.labelKey !== 'string')) {
          throw new PluginRegistrationError(plugin.id, `page "${page.path}": order and labelKey belong to its key's manifest entry (which names the labelKey), never to the page`);
        }
        if (group !== undefined && group !== declared.group) {
          throw new PluginRegistrationError(plugin.id, `page "${page.path}" names group "${group}" but its key "${page.menuKey}" sits in "${declared.group}"`);
        }
        group = declared.group;
        const other = pageOfKey.get(page.menuKey);
        if (other !== undefined) throw new PluginRegistrationError(plugin.id, `menu key "${page.menuKey}" is already the key of page "${other}"`);
        pageOfKey.set(page.menuKey, page.path);
      }
      if (group !== undefined && !isNavGroupKey(group)) {
        throw new PluginRegistrationError(plugin.id, `page "${page.path}" names unknown group "${group}"`);
      }
      if (page.icon !== undefined && typeof page.icon !== 'function') {
        throw new PluginRegistrationError(plugin.id, `page "${page.path}": icon must be a loader, () => import('@fluentui/react-icons/svg/…')`);
      }
      if (page.layout === 'admin' && !page.hideInMenu && group === undefined) {
        throw new PluginRegistrationError(plugin.id, `admin page "${page.path}" needs a group (or hideInMenu)`);
      }
      // A gate may be another plugin's key (keys are data; the desktop monitor needs session-audit's monitor key).
      const gate = page.gate;
      if (gate !== undefined && ![...ids.values()].some((p) => hasKey(p, gate))) {
        throw new PluginRegistrationError(plugin.id, `page "${page.path}": gate "${gate}" is not a key of any plugin's manifest`);
      }
      claimHome(plugin, page, 'home');
      claimHome(plugin, page, 'fallbackHome');
      const resolved = resolvePage(plugin, page);
      requireKey(plugin, resolved.labelKey, 'label key');
      const titleKey = resolved.titleKey;
      requireKey(plugin, titleKey, 'title key');
      pages.push(resolved);
      routes.push({
        pluginId: plugin.id,
        path: page.path,
        page: page.page,
        layout: page.layout,
        menuKey: page.menuKey,
        ...(page.gate === undefined ? {} : { gate: page.gate }),
        titleKey,
        parentPath: page.path,
        isChild: false,
      });
      for (const child of page.children ?? []) {
        const path = joinChildPath(page.path, child.path);
        if (!path.startsWith(`${page.path}/`)) {
          throw new PluginRegistrationError(plugin.id, `child route "${child.path}" must live under "${page.path}/"`);
        }
        claimPath(plugin, path);
        requireKey(plugin, child.titleKey, 'title key');
        const childKey = child.menuKey;
        if (typeof childKey === 'string' && !hasKey(plugin, childKey)) {
          throw new PluginRegistrationError(plugin.id, `child route "${path}": menu key "${childKey}" is not a key of the plugin's manifest`);
        }
        routes.push({
          pluginId: plugin.id,
          path,
          page: child.page,
          layout: page.layout,
          menuKey: child.menuKey === undefined ? page.menuKey : child.menuKey,
          ...(page.gate === undefined ? {} : { gate: page.gate }),
          titleKey: child.titleKey,
          parentPath: page.path,
          isChild: true,
        });
      }
    }
  }

  const loads = new Map<string, Promise<object>>();
  const loaded = new Map<string, object>();
  const icons = new Map<string, FluentIcon>();
  let iconsLoad: Promise<void> | null = null;
  let iconsReady = false;
  return {
    plugins,
    pages,
    routes,
    resources,
    getPlugin: (id) => ids.get(id),
    matchRoute: (pathname) => routes.find((route) => matchPath({ path: route.path, end: true }, pathname) !== null),
    loadPlugin(id) {
      const plugin = ids.get(id);
      if (!plugin) return Promise.reject(new Error(`Unknown plugin "${id}"`));
      let pending = loads.get(id);
      if (!pending) {
        pending = plugin.load().then(
          (module) => {
            validatePluginModule(plugin, module);
            loaded.set(id, module);
            return module;
          },
          (error: unknown) => {
            loads.delete(id);
            throw error;
          },
        );
        // A module that loads but misses a page stays broken: do not cache that either.
        pending.catch(() => loads.delete(id));
        loads.set(id, pending);
      }
      return pending;
    },
    loadedPlugin: (id) => (loads.has(id) ? loaded.get(id) : undefined),
    forgetLoad: (id) => void loads.delete(id),
    loadIcons() {
      iconsLoad ??= Promise.all(
        pages.map(async (page) => {
          if (page.icon && !icons.has(page.path)) icons.set(page.path, await page.icon());
        }),
      ).then(
        () => {
          iconsReady = true;
        },
        (error: unknown) => {
          iconsLoad = null;
          throw error;
        },
      );
      return iconsLoad;
    },
    iconsLoaded: () => iconsReady,
    iconOf: (path) => icons.get(path),
  };
}
