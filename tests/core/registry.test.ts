import type { FluentIcon } from '@fluentui/react-icons';
import { type AnyPlugin, definePlugin } from '@/core';
import { createPluginRegistry, expectValidPlugin, loadLocaleFiles, PluginRegistrationError, validatePluginLoad, validatePluginModule } from '@/core/testing';
import { buildCatalogue } from '@/shared/manifest';
import { beforeAll, describe, expect, it } from 'vitest';
import { allFixtures, dashboardPlugin, identityPlugin } from './fixtures/plugins';

let files: Awaited<ReturnType<typeof loadLocaleFiles>>;
beforeAll(async () => {
  files = await loadLocaleFiles();
});
const base = () => files;
const Page = () => null;
const locales = { 'zh-CN': { label: '标签', detail: '详情' }, 'en-US': { label: 'Label', detail: 'Detail' } };

/** A plugin whose manifest declares its pages' keys (in their groups), unless `manifest` is given. */
function plugin(overrides: Partial<AnyPlugin> & { id: string }): AnyPlugin {
  const pages: AnyPlugin['pages'] = overrides.pages ?? [{ menuKey: overrides.id, group: 'resource', path: `/${overrides.id}`, page: 'Page', layout: 'admin' }];
  const menus = pages.flatMap((p) => (p.menuKey === null ? [] : [{ key: p.menuKey, group: p.group ?? 'ops', labelKey: 'label' }]));
  return { load: () => Promise.resolve({ Page }), locales, manifest: { id: overrides.id, menus, actions: [] }, ...overrides, pages };
}

function registrationError(plugins: AnyPlugin[]): PluginRegistrationError {
  try {
    createPluginRegistry(plugins, base());
  } catch (error) {
    if (error instanceof PluginRegistrationError) return error;
    throw error;
  }
  throw new Error('expected registration to fail');
}

describe('plugin registry', () => {
  it('accepts the fixtures and resolves pages, child routes and matching', () => {
    const registry = createPluginRegistry(allFixtures, base());
    expect(registry.pages.map((p) => p.path)).toContain('/user');
    expect(registry.matchRoute('/user/42')).toMatchObject({ pluginId: 'fx-identity', page: 'UserDetail', titleKey: 'detail.user', isChild: true, menuKey: 'user' });
    expect(registry.matchRoute('/nowhere')).toBeUndefined();
  });

  it('definePlugin keeps the descriptor as data (frozen)', () => {
    const descriptor = definePlugin({ id: 'x', pages: [], load: () => Promise.resolve({}) });
    expect(Object.isFrozen(descriptor)).toBe(true);
  });

  it('rejects a duplicate id, naming the plugin', () => {
    const error = registrationError([plugin({ id: 'dup' }), plugin({ id: 'dup', pages: [{ menuKey: 'other', group: 'ops', path: '/other', page: 'Page', layout: 'admin' }] })]);
    expect(error.message).toBe('Plugin "dup": duplicate plugin id');
  });

  it('rejects a duplicate path, also between a child route and a page', () => {
    expect(registrationError([plugin({ id: 'a' }), plugin({ id: 'b', pages: [{ menuKey: 'b', group: 'ops', path: '/a', page: 'Page', layout: 'admin' }] })]).message).toMatch(
      /Plugin "b": path "\/a" is already registered by plugin "a"/,
    );
    const withChild = plugin({
      id: 'c',
      pages: [{ menuKey: 'c', group: 'ops', path: '/c', page: 'Page', layout: 'admin', children: [{ path: ':id', page: 'Page', titleKey: 'detail' }] }],
    });
    const clash = plugin({ id: 'd', pages: [{ menuKey: 'd', group: 'ops', path: '/c/:other', page: 'Page', layout: 'admin' }] });
    expect(registrationError([withChild, clash]).message).toMatch(/Plugin "d": path "\/c\/:other" is already registered by plugin "c"/);
  });

  it('rejects a duplicate menu key', () => {
    const error = registrationError([plugin({ id: 'a' }), plugin({ id: 'b', pages: [{ menuKey: 'a', group: 'ops', path: '/b', page: 'Page', layout: 'admin' }] })]);
    expect(error.message).toMatch(/Plugin "b": menu key "a" is already the key of page "\/a"/);
  });

  it('rejects an unknown group, on a key-less page or in a manifest', () => {
    const keyless = plugin({ id: 'g', pages: [{ menuKey: null, group: 'made-up' as 'ops', path: '/g', page: 'Page', labelKey: 'label', layout: 'admin' }] });
    expect(registrationError([keyless]).message).toMatch(/Plugin "g": page "\/g" names unknown group "made-up"/);
    const inManifest = plugin({ id: 'h', pages: [{ menuKey: 'h', path: '/h', page: 'Page', layout: 'admin' }], manifest: { id: 'h', menus: [{ key: 'h', group: 'made-up' as 'ops', labelKey: 'label' }], actions: [] } });
    expect(registrationError([inManifest]).message).toMatch(/Plugin "h": page "\/h" names unknown group "made-up"/);
  });

  it("takes a page's group from its manifest key, and refuses keys the plugin's manifest does not declare", () => {
    const page = { menuKey: 'k', path: '/k', page: 'Page', layout: 'admin' } as const;
    const k = plugin({ id: 'k', pages: [page], manifest: { id: 'k', menus: [{ key: 'k', group: 'security', labelKey: 'label' }], actions: [] } });
    expect(createPluginRegistry([k], base()).pages[0]).toMatchObject({ path: '/k', group: 'security' });
    expect(registrationError([{ ...k, pages: [{ ...page, group: 'ops' }] }]).message).toMatch(/Plugin "k": page "\/k" names group "ops" but its key "k" sits in "security"/);
    // A key declared by another plugin's manifest is still not this plugin's page key.
    const thief = plugin({ id: 'thief', pages: [{ ...page, path: '/thief' }], manifest: { id: 'thief', menus: [], actions: [] } });
    expect(registrationError([k, thief]).message).toMatch(/Plugin "thief": page "\/thief": menu key "k" is not a page key of the plugin's manifest/);
    const noManifest = { ...thief, manifest: undefined };
    expect(registrationError([noManifest]).message).toMatch(/menu key "k" is not a page key/);
    const child = plugin({ id: 'c2', pages: [{ ...page, menuKey: 'c2', path: '/c2', children: [{ path: ':id', page: 'Page', titleKey: 'detail', menuKey: 'k' }] }] });
    expect(registrationError([k, child]).message).toMatch(/Plugin "c2": child route "\/c2\/:id": menu key "k" is not a key of the plugin's manifest/);
    expect(registrationError([{ ...k, manifest: { ...k.manifest!, id: 'other' } }]).message).toBe('Plugin "k": its manifest is for plugin "other"');
  });

  it("takes a keyed page's order and label key from its key's manifest entry, a key-less page's from itself", () => {
    const strings = { 'zh-CN': { label: '标签', nav: { list: '列表', mine: '我的' } }, 'en-US': { label: 'Label', nav: { list: 'List', mine: 'Mine' } } };
    const entry = plugin({
      id: 'me',
      locales: strings,
      manifest: { id: 'me', menus: [{ key: 'me-list', group: 'ops', order: 7, labelKey: 'nav.list' }], actions: [] },
      pages: [
        { menuKey: 'me-list', path: '/me-list', page: 'Page', layout: 'admin' },
        { menuKey: null, path: '/me-mine', page: 'Page', labelKey: 'nav.mine', order: 3, layout: 'user' },
      ],
    });
    const registry = createPluginRegistry([entry], base());
    expect(registry.pages.map(({ path, labelKey, order, titleKey }) => ({ path, labelKey, order, titleKey }))).toEqual([
      { path: '/me-list', labelKey: 'nav.list', order: 7, titleKey: 'nav.list' },
      { path: '/me-mine', labelKey: 'nav.mine', order: 3, titleKey: 'nav.mine' },
    ]);
    expect(registry.matchRoute('/me-list')).toMatchObject({ titleKey: 'nav.list' });
  });

  it("refuses a menu entry declared twice (a keyed page repeating its entry's labelKey or order) or a key without labelKey", () => {
    const page = { menuKey: 'tw', path: '/tw', page: 'Page', layout: 'admin' } as const;
    const manifest = { id: 'tw', menus: [{ key: 'tw', group: 'ops' as const, order: 2, labelKey: 'label' }], actions: [] };
    expect(createPluginRegistry([plugin({ id: 'tw', manifest, pages: [page] })], base()).pages[0]).toMatchObject({ order: 2, labelKey: 'label' });
    // The type refuses both on a keyed page; a descriptor the type checker did not see is refused at start.
    // @ts-expect-error: a keyed page's label key is its manifest entry's
    const withLabel: AnyPlugin['pages'][number] = { ...page, labelKey: 'label' };
    // @ts-expect-error: a keyed page's order is its manifest entry's
    const withOrder: AnyPlugin['pages'][number] = { ...page, order: 2 };
    const twice = 'Plugin "tw": page "/tw": order and labelKey belong to its key\'s manifest entry (which names the labelKey), never to the page';
    expect(registrationError([plugin({ id: 'tw', manifest, pages: [withLabel] })]).message).toBe(twice);
    expect(registrationError([plugin({ id: 'tw', manifest, pages: [withOrder] })]).message).toBe(twice);
    // An inline label is for keys no page shows (the console build strips it): a page's key needs a labelKey.
    const inline = { ...manifest, menus: [{ key: 'tw', group: 'ops' as const, label: { 'zh-CN': '双', 'en-US': 'Twice' } }] };
    expect(registrationError([plugin({ id: 'tw', manifest: inline, pages: [page] })]).message).toBe(twice);
  });

  it("carries a page gate (any plugin's key, an action too) on the page and its child routes, and refuses an undeclared one", () => {
    const manifest = { id: 'gt', menus: [{ key: 'gt', group: 'ops' as const, labelKey: 'label' }], actions: [{ key: 'gt-watch', parent: 'gt', label: { 'zh-CN': 'w', 'en-US': 'w' } }] };
    const bare = { menuKey: null, path: '/gt-watch', page: 'Page', labelKey: 'label', layout: 'bare', hideInMenu: true, gate: 'gt-watch', children: [{ path: ':id', page: 'Page', titleKey: 'detail' }] } as const;
    const list = { menuKey: 'gt', path: '/gt', page: 'Page', layout: 'admin' } as const;
    const gated = plugin({ id: 'gt', manifest, pages: [list, bare] });
    const registry = createPluginRegistry([gated], base());
    expect(registry.matchRoute('/gt-watch')).toMatchObject({ menuKey: null, gate: 'gt-watch' });
    expect(registry.matchRoute('/gt-watch/7')).toMatchObject({ gate: 'gt-watch', isChild: true });
    expect(registry.matchRoute('/gt')).not.toHaveProperty('gate');
    expect(registrationError([plugin({ id: 'gt', manifest, pages: [list, { ...bare, gate: 'asset-del' }] })]).message).toBe(
      'Plugin "gt": page "/gt-watch": gate "asset-del" is not a key of any plugin\'s manifest',
    );
    // Another plugin's key gates as well as its own (a viewer plugin's page behind session-audit's monitor key).
    const viewer = plugin({ id: 'vw', pages: [{ ...bare, path: '/vw-watch', gate: 'gt-watch', children: [] }] });
    expect(createPluginRegistry([gated, viewer], base()).matchRoute('/vw-watch')).toMatchObject({ pluginId: 'vw', gate: 'gt-watch' });
  });

  it("derives one catalogue from the plugins' manifests, in the tree order the server uses", () => {
    const catalogue = buildCatalogue(allFixtures.flatMap((p) => (p.manifest ? [p.manifest] : [])));
    expect(catalogue.keys).toEqual(['dashboard', 'resource', 'asset', 'credential', 'identity', 'user', 'user-add', 'role', 'user-group', 'setting']);
    expect(catalogue.entry('user-add')).toMatchObject({ parent: 'user', pluginId: 'fx-identity' });
  });

  it('rejects a label or title key missing in either language', () => {
    const noEn = plugin({ id: 'e', locales: { 'zh-CN': { label: '标签' }, 'en-US': {} } });
    expect(registrationError([noEn]).message).toBe('Plugin "e": label key "label" is missing from locales/en-US/e.json');
    const noZh = plugin({ id: 'z', locales: { 'zh-CN': {}, 'en-US': { label: 'Label' } } });
    expect(registrationError([noZh]).message).toBe('Plugin "z": label key "label" is missing from locales/zh-CN/z.json');
    const noChildTitle = plugin({
      id: 't',
      locales: { 'zh-CN': { label: '标签' }, 'en-US': { label: 'Label' } },
      pages: [{ menuKey: 't', group: 'ops', path: '/t', page: 'Page', layout: 'admin', children: [{ path: ':id', page: 'Page', titleKey: 'detail' }] }],
    });
    expect(registrationError([noChildTitle]).message).toMatch(/Plugin "t": title key "detail" is missing/);
  });

  it('rejects a bad id and an admin page without a group', () => {
    expect(registrationError([plugin({ id: 'Bad_Id' })]).message).toMatch(/Plugin "Bad_Id": id must be kebab-case/);
    // core's own locale namespaces (core, core-<area>) share the namespace space with plugin ids.
    expect(registrationError([plugin({ id: 'core-account' })]).message).toMatch(/Plugin "core-account": ids "core" and "core-…" are reserved/);
    const bad = plugin({ id: 'nogroup', pages: [{ menuKey: null, path: '/nogroup', page: 'Page', labelKey: 'label', layout: 'admin' }] });
    expect(registrationError([bad]).message).toMatch(/needs a group/);
  });

  it('rejects an icon that is not a loader, and loads every icon once for the menu', async () => {
    const bad = plugin({ id: 'iconic' });
    const withComponent = { ...bad, pages: [{ ...bad.pages[0]!, icon: 'PersonRegular' as unknown as () => Promise<never> }] };
    expect(registrationError([withComponent]).message).toMatch(/Plugin "iconic": page "\/iconic": icon must be a loader/);
    let calls = 0;
    const Icon = (() => null) as unknown as FluentIcon;
    const good = { ...bad, pages: [{ ...bad.pages[0]!, icon: async () => { calls += 1; return Icon; } }] };
    const registry = createPluginRegistry([good], base());
    expect(registry.iconOf('/iconic')).toBeUndefined();
    await registry.loadIcons();
    await registry.loadIcons();
    expect(registry.iconOf('/iconic')).toBe(Icon);
    expect(calls).toBe(1);
  });

  it('forgets a failed icon load so a retry loads again', async () => {
    const bad = plugin({ id: 'flaky' });
    let fail = true;
    const Icon = (() => null) as unknown as FluentIcon;
    const flaky = { ...bad, pages: [{ ...bad.pages[0]!, icon: async () => { if (fail) throw new Error('chunk failed'); return Icon; } }] };
    const registry = createPluginRegistry([flaky], base());
    await expect(registry.loadIcons()).rejects.toThrow('chunk failed');
    fail = false;
    await registry.loadIcons();
    expect(registry.iconOf('/flaky')).toBe(Icon);
  });

  it('fails when load() does not export a named page', async () => {
    const broken = plugin({ id: 'broken', load: () => Promise.resolve({ Other: Page }) });
    expect(() => validatePluginModule(broken, { Other: Page })).toThrow('Plugin "broken": load() does not export page(s) "Page"');
    await expect(validatePluginLoad(broken)).rejects.toThrow(/Plugin "broken": load\(\) does not export page\(s\) "Page"/);
    const registry = createPluginRegistry([broken], base());
    await expect(registry.loadPlugin('broken')).rejects.toThrow(/does not export/);
  });

  it('fixture plugins pass the descriptor contract', async () => {
    await expect(validatePluginLoad(identityPlugin)).resolves.toBeUndefined();
    await expect(expectValidPlugin(dashboardPlugin)).resolves.toBeUndefined();
  });

  it('forgets a failed load so a retry fetches again', async () => {
    let calls = 0;
    const flaky = plugin({
      id: 'flaky',
      load: () => {
        calls += 1;
        return calls === 1 ? Promise.reject(new Error('chunk failed')) : Promise.resolve({ Page });
      },
    });
    const registry = createPluginRegistry([flaky], base());
    await expect(registry.loadPlugin('flaky')).rejects.toThrow('chunk failed');
    await expect(registry.loadPlugin('flaky')).resolves.toHaveProperty('Page');
    await registry.loadPlugin('flaky');
    expect(calls).toBe(2);
  });
});
