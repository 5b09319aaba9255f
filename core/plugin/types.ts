import type { FluentIcon } from '@fluentui/react-icons';
import type { ComponentType } from 'react';
import type { Lng, PermissionKey, PluginManifest } from '../../shared/manifest.ts';
import type { NavGroupKey } from '../../shared/nav-groups.ts';

export type { Lng } from '../../shared/manifest.ts';
export type PageLayout = 'admin' | 'user' | 'bare';
/** Account types as the console treats them: `user` (the portal) and every other type (`admin`, the console). */
export type AccountKind = 'admin' | 'user';

/** A module of named page components, as `import('./pages')` returns it. */
export type PagesModule = object;

/** Names of the exports of a pages module that are components. */
export type PageName<M> = {
  [K in keyof M & string]: M[K] extends ComponentType<never> ? K : never;
}[keyof M & string];

/** A detail route under a page, e.g. `/user/:userId`. */
export interface ChildRouteDef<P extends string = string, K extends string = PermissionKey> {
  /** Absolute (`/user/:userId`, must start with the page path) or relative (`:userId`). */
  path: string;
  /** The export of the pages module rendered at this route. */
  page: P;
  /** Breadcrumb and document title, a key in the plugin's namespace (e.g. `detail.title` → 用户详情). */
  titleKey: string;
  /** Extra menu key needed for this route (any key of the plugin's manifest); defaults to the page's. */
  menuKey?: K | null;
}

export type IconLoader = () => Promise<FluentIcon>;

/**
 * A page. `K`: the key type; declared keys in a descriptor, any string once erased (the registry checks them at run
 * time). A page with a key takes its menu entry (order, label) from the key's manifest entry, declared there only; a
 * page without one declares its own.
 */
export type PageDef<P extends string = string, K extends string = PermissionKey> = KeyedPageDef<P, K> | OpenPageDef<P, K>;

/** A page gated by a page key of the plugin's manifest, whose entry holds its `order` and `labelKey`. */
export interface KeyedPageDef<P extends string = string, K extends string = PermissionKey> extends PageFields<P, K> {
  /** Permission and menu key (`user`, `asset`…), a page key of the plugin's manifest. Required on purpose. */
  menuKey: K;
  /** The key's manifest entry holds it (`labelKey`): one place. */
  labelKey?: never;
  /** The key's manifest entry holds it (`order`): one place. */
  order?: never;
}

/** A page every signed-in user may open (`menuKey: null`): it names its own label and order. */
export interface OpenPageDef<P extends string = string, K extends string = PermissionKey> extends PageFields<P, K> {
  /** Null: every signed-in user. Required on purpose. */
  menuKey: null;
  /** Menu label key in the plugin's namespace. */
  labelKey: string;
  /** Sort order inside the group (or the user top bar); default 1000, ties by path. */
  order?: number;
}

/** What every page declares, with a key or without. */
export interface PageFields<P extends string = string, K extends string = PermissionKey> {
  /**
   * Admin-menu group owned by core. A page with a menu key takes its manifest entry's group (leave this out);
   * only a key-less admin page shown in the menu names one here.
   */
  group?: NavGroupKey;
  /** Absolute route path, unique across the console. */
  path: string;
  /** The export of the pages module rendered at `path`. */
  page: P;
  /** Breadcrumb / document title key; defaults to the label key. */
  titleKey?: string;
  /**
   * Menu icon, as a loader: `() => import('@fluentui/react-icons/svg/person').then((m) => m.PersonRegular)`.
   * Descriptors are in the entry chunk; a loader keeps icon code out of it (the menu loads them with the layout).
   */
  icon?: IconLoader;
  layout: PageLayout;
  /** Routable but not in any menu (e.g. /batch-command). */
  hideInMenu?: boolean;
  /**
   * A further key the user must hold to open this page, besides `menuKey`: any key a plugin's manifest declares (its
   * own or another's: keys are data), an action key included. For a full-window page opened by another page's action (the live monitor needs
   * `online-session-monitor`), whose `menuKey` cannot be that action (a menu key names one page only).
   */
  gate?: K;
  children?: readonly ChildRouteDef<P, K>[];
  /**
   * The GETs this page makes as it opens, each exactly as it makes it (path and query, as the API client writes
   * it: `/users/paging?pageIndex=1&pageSize=10&order=&field=`). On a direct open of the page by a user who may open
   * it, the entry fetches them with the stored token before React has arrived (core/app/early.ts), and the page's
   * first request of each URL takes that answer. A test should render the page and compare its first requests
   * (`firstRequestsOf` in `@/core/testing`), so the list cannot drift. Optional: a speed-up only.
   */
  opensWith?: readonly string[];
  /**
   * This page is the home of an account type: where it lands after login and at `/` (spec §4: 我的资产 for
   * users, 控制面板 for admins). At most one page per type; core's landing rule reads it, never the path.
   */
  home?: AccountKind;
  /**
   * The last resort of the landing rule for that account type, when neither its home nor any menu page is open to
   * it (the personal centre). At most one page per type.
   */
  fallbackHome?: AccountKind;
}

export type LocaleResources = Record<string, unknown>;

export interface PluginDescriptor<M extends PagesModule = PagesModule> {
  /** kebab-case; also the i18n namespace and the chunk name `plugin-<id>`. */
  id: string;
  /** The plugin's permission keys (`./manifest.ts`, React-free); none for a plugin whose pages need no key. */
  manifest?: PluginManifest;
  pages: readonly PageDef<PageName<M>>[];
  /** Exactly `() => import('./pages')`: the plugin's one lazy chunk. */
  load: () => Promise<M>;
  /**
   * Inline resources, merged over `locales/<lng>/<id>.json`. Only for plugins that live outside
   * `plugins/` (test fixtures); product plugins use the locales folder.
   */
  locales?: Partial<Record<Lng, LocaleResources>>;
}

/** The erased form the registry works with (every `PluginDescriptor<M>` is one). */
export interface AnyPlugin {
  id: string;
  manifest?: PluginManifest;
  pages: readonly PageDef<string, string>[];
  load: () => Promise<object>;
  locales?: Partial<Record<Lng, LocaleResources>>;
}

/** A route the registry resolved: a page or a child route, with everything needed to render it. */
export interface ResolvedRoute {
  pluginId: string;
  /** Absolute path pattern. */
  path: string;
  page: string;
  layout: PageLayout;
  menuKey: string | null;
  /** The page's `gate`, a key needed besides `menuKey` (child routes inherit it). */
  gate?: string;
  titleKey: string;
  /** The page this route belongs to (itself for a page). */
  parentPath: string;
  isChild: boolean;
}

/** A page as core's menus see it: its label key and order resolved (from its key's manifest entry, else its own). */
export interface ResolvedPage extends PageFields<string, string> {
  menuKey: string | null;
  pluginId: string;
  labelKey: string;
  order: number;
  titleKey: string;
}
