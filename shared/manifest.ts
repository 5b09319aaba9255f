// Permission keys as data: what a plugin's `manifest.ts` declares, and the one catalogue derived from all of them.
// React-free on purpose: the server imports the manifests (and this module) at start, the console at build time.
import { NAV_GROUPS, type NavGroupKey } from './nav-groups.ts';

export type Lng = 'zh-CN' | 'en-US';
/** A label in every language the console ships: both are required, so a missing one does not compile. */
export type Labels = Readonly<Record<Lng, string>>;

export type GrantMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/** A server route exactly as the server declares it: `'GET /users/:id'`. */
export type RouteRef = `${GrantMethod} /${string}`;

/** Core's menu groups (non-top entries of NAV_GROUPS): permission keys owned by core, parents of plugins' pages. */
export type GroupKey = Extract<(typeof NAV_GROUPS)[number], { top: false }>['key'];
export const GROUP_KEYS: readonly GroupKey[] = NAV_GROUPS.filter((g): g is Extract<(typeof NAV_GROUPS)[number], { top: false }> => !g.top).map((g) => g.key);

/**
 * Every permission key a plugin declares, as the keys of this interface. Each plugin's manifest adds its own:
 *
 *   declare module '@/shared/manifest' { interface PermissionKeys extends KeyMap<typeof manifest> {} }
 *
 * so the union grows with every plugin folder and core names none of them.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging from each plugin's manifest.
export interface PermissionKeys {}

/** A declared permission (menu) key: core's groups plus every key of every manifest in the program. */
export type PermissionKey = GroupKey | (keyof PermissionKeys & string);

/** A gate: one key or a list, passed when the user holds any of them. */
export type KeyGate = PermissionKey | readonly PermissionKey[];

/**
 * A page's key: where it sits in core's menu groups (a `top` slot such as `info` makes it a root), its order and its
 * label. This entry is the one place a page's menu entry is declared: the page descriptor names its key only
 * (`menuKey`), and the console's menu, the page title and the server's permission tree all read it from here.
 */
export type MenuKeyDef<K extends string = string> = MenuKeyFields<K> & MenuLabel;

interface MenuKeyFields<K extends string> {
  key: K;
  group: NavGroupKey;
  /** Order among the pages of its group, in the side menu (or the user bar) and the permission tree; default 1000. */
  order?: number;
  /** Server routes this key grants. */
  grants?: readonly RouteRef[];
}

/** A menu entry's label: one of the two, never both. */
export type MenuLabel =
  | {
      /**
       * A string of the plugin's locale namespace (`nav.asset` in locales/<lng>/<id>.json), its only copy: the
       * console shows it through i18n, the server reads the same files (the manifest's `locales`). A page of the
       * console needs this form: the console build strips inline labels.
       */
      labelKey: string;
      label?: never;
    }
  | {
      /** Inline, both languages: for a key no console page shows (a server test's fixture). */
      label: Labels;
      labelKey?: never;
    };

/**
 * Where a manifest's `labelKey` strings are, for the server (the console has them from its locale files): the
 * manifest module's own `import.meta.url` (the plugin's files `locales/<lng>/<id>.json`, two folders up from
 * `plugins/<id>/manifest.ts`), or the strings inline by language for a manifest outside a plugin tree (a fixture).
 */
export type ManifestLocales = string | Readonly<Partial<Record<Lng, object>>>;

/** An action key (a button, a tab): under a page key or another action key of the same plugin. */
export interface ActionKeyDef<K extends string = string, P extends string = string> {
  key: K;
  parent: P;
  label: Labels;
  grants?: readonly RouteRef[];
  /**
   * Destroys what cannot be restored (audit records): never part of a built-in role, not even the system
   * administrator's; held by the super admin, and by whoever a role editor grants it to explicitly. The role editor
   * shows it with a warning. The routes it grants may be granted by destructive keys only, and its child keys must be
   * destructive too (checked at start).
   */
  destructive?: true;
}

export interface PluginManifest<K extends string = string> {
  /** The plugin id (its folder name). */
  readonly id: string;
  readonly menus: readonly MenuKeyDef<K>[];
  readonly actions: readonly ActionKeyDef<K>[];
  /** Where the `labelKey` strings are (read by the server only; the console build drops it). */
  readonly locales?: ManifestLocales;
}

/** The keys a manifest declares. */
export type KeysOf<M> = M extends PluginManifest<infer K> ? K : never;
/** The shape a manifest merges into `PermissionKeys`. */
export type KeyMap<M> = { readonly [K in KeysOf<M>]: true };

/**
 * Declares a plugin's permission keys. Parents are typed: an action's parent must be one of this manifest's keys
 * (checked without widening, so a typo is a compile error, not a new key).
 */
export function defineManifest<const MK extends string, const AK extends string = never>(manifest: {
  id: string;
  menus: readonly MenuKeyDef<MK>[];
  actions?: readonly ActionKeyDef<AK, NoInfer<MK | AK>>[];
  locales?: ManifestLocales;
}): PluginManifest<MK | AK> {
  // A spread: fewer bytes in the entry chunk than naming each field (the build has dropped `locales` there).
  return Object.freeze({ ...manifest, actions: manifest.actions ?? [] });
}

export class ManifestError extends Error {
  constructor(
    readonly pluginId: string,
    detail: string,
  ) {
    super(`Plugin "${pluginId}" manifest: ${detail}`);
    this.name = 'ManifestError';
  }
}

/** One node of the catalogue, in tree order. */
export interface CatalogueEntry {
  key: string;
  /** Null for a root (a page in a top slot, or a core group). */
  parent: string | null;
  /** Null for core's groups. */
  pluginId: string | null;
  /** Null for core's groups (their labels are core's locale strings `nav.groups.<key>`). */
  label: Labels | null;
  grants: readonly RouteRef[];
  /** A `destructive` action key: left out of every built-in role. */
  destructive: boolean;
}

export interface Catalogue {
  /** Every key in tree order: core's groups that hold pages, then their pages, each followed by its actions. */
  readonly entries: readonly CatalogueEntry[];
  readonly keys: readonly string[];
  has(key: string): boolean;
  entry(key: string): CatalogueEntry | undefined;
  /** Known keys only, each once, in tree order. */
  inOrder(keys: Iterable<string>): string[];
  /** The keys and all their descendants (known ones), in tree order. */
  withDescendants(keys: Iterable<string>): string[];
  /** Keys whose grants name the route (`'GET /users'`), in tree order. */
  keysGranting(route: string): string[];
  /** Every route some key grants. */
  grantedRoutes(): string[];
  /** The `destructive` keys, in tree order. */
  destructiveKeys(): string[];
}

const KEY_PATTERN = /^[a-z][a-z0-9-]*$/;
const ROUTE_PATTERN = /^(GET|POST|PUT|PATCH|DELETE) \/\S*$/;
const DEFAULT_ORDER = 1000;

/**
 * Builds the one catalogue from the manifests (sorted by plugin id, so the console and the server agree).
 * Throws a ManifestError naming the plugin on a duplicate or malformed key, an unknown group or parent, or a
 * malformed grant.
 */
export function buildCatalogue(manifests: readonly PluginManifest[]): Catalogue {
  const sorted = [...manifests].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const owners = new Map<string, string>(GROUP_KEYS.map((g) => [g, 'core']));
  const ids = new Set<string>();
  type Page = { def: MenuKeyDef; pluginId: string; rank: number; label: Labels };
  const pages: Page[] = [];
  const readLocaleFile = localeFileReader();
  const children = new Map<string, { def: ActionKeyDef; pluginId: string }[]>();

  const claim = (pluginId: string, key: string, grants: readonly string[] | undefined) => {
    if (typeof key !== 'string' || !KEY_PATTERN.test(key)) throw new ManifestError(pluginId, `key "${String(key)}" must be kebab-case`);
    const owner = owners.get(key);
    if (owner !== undefined) throw new ManifestError(pluginId, `key "${key}" is already declared by ${owner === 'core' ? 'core (a menu group)' : `plugin "${owner}"`}`);
    owners.set(key, pluginId);
    for (const grant of grants ?? []) {
      if (!ROUTE_PATTERN.test(grant)) throw new ManifestError(pluginId, `key "${key}" grants "${grant}": expected "METHOD /path"`);
    }
  };

  for (const manifest of sorted) {
    const pluginId = manifest.id;
    if (ids.has(pluginId)) throw new ManifestError(pluginId, 'duplicate plugin id');
    ids.add(pluginId);
    for (const def of manifest.menus) {
      claim(pluginId, def.key, def.grants);
      if (!NAV_GROUPS.some((g) => g.key === def.group)) throw new ManifestError(pluginId, `key "${def.key}" names unknown group "${def.group}"`);
      pages.push({ def, pluginId, rank: pages.length, label: menuLabel(manifest, def, readLocaleFile) });
    }
    for (const def of manifest.actions) {
      claim(pluginId, def.key, def.grants);
      const list = children.get(def.parent) ?? [];
      list.push({ def, pluginId });
      children.set(def.parent, list);
    }
  }
  for (const manifest of sorted) {
    for (const def of manifest.actions) {
      if (owners.get(def.parent) !== manifest.id) {
        throw new ManifestError(manifest.id, `action "${def.key}" has parent "${def.parent}", which is not a key of this plugin`);
      }
    }
  }
  checkDestructive(sorted);

  const entries: CatalogueEntry[] = [];
  const walk = (key: string) => {
    for (const { def, pluginId } of children.get(key) ?? []) {
      entries.push({ key: def.key, parent: key, pluginId, label: def.label, grants: def.grants ?? [], destructive: def.destructive === true });
      walk(def.key);
    }
  };
  const byOrder = (a: Page, b: Page) => (a.def.order ?? DEFAULT_ORDER) - (b.def.order ?? DEFAULT_ORDER) || a.rank - b.rank;
  for (const slot of NAV_GROUPS) {
    const inSlot = pages.filter((p) => p.def.group === slot.key).sort(byOrder);
    if (inSlot.length === 0) continue;
    if (!slot.top) entries.push({ key: slot.key, parent: null, pluginId: null, label: null, grants: [], destructive: false });
    for (const { def, pluginId, label } of inSlot) {
      entries.push({ key: def.key, parent: slot.top ? null : slot.key, pluginId, label, grants: def.grants ?? [], destructive: false });
      walk(def.key);
    }
  }
  const declared = [...owners.keys()].filter((k) => !GROUP_KEYS.includes(k as GroupKey));
  const placed = new Set(entries.map((e) => e.key));
  const lost = declared.find((k) => !placed.has(k));
  if (lost !== undefined) throw new ManifestError(owners.get(lost) ?? '?', `key "${lost}" is not reachable from a page (a parent cycle)`);

  const keys = entries.map((e) => e.key);
  const order = new Map(keys.map((k, i) => [k, i]));
  const byKey = new Map(entries.map((e) => [e.key, e]));
  const inOrder = (list: Iterable<string>) => [...new Set(list)].filter((k) => order.has(k)).sort((a, b) => order.get(a)! - order.get(b)!);
  const granting = new Map<string, string[]>();
  for (const e of entries) for (const route of e.grants) granting.set(route, [...(granting.get(route) ?? []), e.key]);

  return {
    entries,
    keys,
    has: (key) => order.has(key),
    entry: (key) => byKey.get(key),
    inOrder,
    withDescendants(list) {
      const wanted = new Set(list);
      return keys.filter((k) => {
        for (let e = byKey.get(k); e; e = e.parent === null ? undefined : byKey.get(e.parent)) if (wanted.has(e.key)) return true;
        return false;
      });
    },
    keysGranting: (route) => granting.get(route) ?? [],
    grantedRoutes: () => [...granting.keys()],
    destructiveKeys: () => entries.filter((e) => e.destructive).map((e) => e.key),
  };
}

const LANGUAGES: readonly Lng[] = ['zh-CN', 'en-US'];

/**
 * A page key's label in both languages: inline (`label`), or its `labelKey` looked up in the manifest's `locales`,
 * the plugin's locale files (read here, on the server and in tests; never in the browser, whose build strips them).
 */
function menuLabel(manifest: PluginManifest, def: MenuKeyDef, readLocaleFile: (url: URL) => unknown): Labels {
  const { label, labelKey } = def as { label?: unknown; labelKey?: unknown };
  if (label !== undefined && labelKey !== undefined) throw new ManifestError(manifest.id, `key "${def.key}" declares its label twice (label and labelKey)`);
  if (label !== undefined) return label as Labels;
  if (typeof labelKey !== 'string') throw new ManifestError(manifest.id, `key "${def.key}" has no label: labelKey (a locale string) or label`);
  const text = (lng: Lng): string => {
    const where = manifest.locales === undefined ? undefined : typeof manifest.locales === 'string' ? `locales/${lng}/${manifest.id}.json` : `its inline ${lng} strings`;
    if (where === undefined) throw new ManifestError(manifest.id, `key "${def.key}" names labelKey "${labelKey}" but the manifest has no locales (import.meta.url)`);
    let node: unknown = typeof manifest.locales === 'string' ? readLocaleFile(new URL(`../../${where}`, manifest.locales)) : manifest.locales?.[lng];
    for (const part of labelKey.split('.')) node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[part] : undefined;
    if (typeof node !== 'string') throw new ManifestError(manifest.id, `key "${def.key}": labelKey "${labelKey}" is missing from ${where}`);
    return node;
  };
  return Object.fromEntries(LANGUAGES.map((lng) => [lng, text(lng)])) as Record<Lng, string>;
}

/** Reads locale files, each once per catalogue. Node only: this module is also the browser's, hence no `node:fs` import. */
function localeFileReader(): (url: URL) => unknown {
  const files = new Map<string, unknown>();
  return (url) => {
    if (!files.has(url.href)) {
      const fs = globalThis.process?.getBuiltinModule?.('node:fs');
      if (!fs) throw new Error(`shared/manifest: cannot read ${url.href} here (labels are read on the server)`);
      files.set(url.href, fs.existsSync(url) ? JSON.parse(fs.readFileSync(url, 'utf8')) : undefined);
    }
    return files.get(url.href);
  };
}

/**
 * The `destructive` marker holds only where it means something: on action keys (a page key is never destructive),
 * as `true`; a destructive key's children are destructive too (a built-in role would otherwise hold a child without
 * its parent); and no other key grants a destructive key's routes (the built-in roles would reach them anyway).
 */
function checkDestructive(manifests: readonly PluginManifest[]): void {
  const marked = new Map<string, string>();
  const grantedBy = new Map<string, { key: string; pluginId: string; destructive: boolean }[]>();
  const note = (pluginId: string, key: string, grants: readonly string[] | undefined, destructive: boolean) => {
    for (const route of grants ?? []) grantedBy.set(route, [...(grantedBy.get(route) ?? []), { key, pluginId, destructive }]);
  };
  for (const m of manifests) {
    for (const def of m.menus) {
      if ((def as { destructive?: unknown }).destructive !== undefined) throw new ManifestError(m.id, `page key "${def.key}" cannot be destructive (only action keys can)`);
      note(m.id, def.key, def.grants, false);
    }
    for (const def of m.actions) {
      const flag: unknown = def.destructive;
      if (flag !== undefined && flag !== true) throw new ManifestError(m.id, `key "${def.key}": destructive must be true or absent`);
      if (flag === true) marked.set(def.key, m.id);
      note(m.id, def.key, def.grants, flag === true);
    }
  }
  for (const m of manifests) {
    for (const def of m.actions) {
      if (marked.has(def.parent) && def.destructive !== true) {
        throw new ManifestError(m.id, `key "${def.key}" is under the destructive key "${def.parent}" and must be destructive too`);
      }
    }
  }
  for (const [route, keys] of grantedBy) {
    const marker = keys.find((k) => k.destructive);
    const plain = keys.find((k) => !k.destructive);
    if (marker && plain) {
      throw new ManifestError(
        plain.pluginId,
        `key "${plain.key}" grants "${route}", which the destructive key "${marker.key}" grants: only destructive keys may grant it`,
      );
    }
  }
}

/** A node of GET /menus (contract §4.1): `title` is the zh-CN label, `titles` both; `destructive` only on such keys. */
export interface TreeMenu {
  title: string;
  titles: Labels;
  key: string;
  children: TreeMenu[] | null;
  destructive?: true;
}

/** The catalogue as the nested tree of GET /menus; core's groups are labelled by `groupLabel`. */
export function catalogueTree(catalogue: Catalogue, groupLabel: (key: GroupKey) => Labels): TreeMenu[] {
  const nodes = new Map<string, TreeMenu>();
  const roots: TreeMenu[] = [];
  for (const e of catalogue.entries) {
    const titles = e.label ?? groupLabel(e.key as GroupKey);
    const node: TreeMenu = { title: titles['zh-CN'], titles, key: e.key, children: null, ...(e.destructive ? { destructive: true as const } : {}) };
    nodes.set(e.key, node);
    const parent = e.parent === null ? undefined : nodes.get(e.parent);
    if (!parent) roots.push(node);
    else {
      parent.children ??= [];
      parent.children.push(node);
    }
  }
  return roots;
}
