import type { FluentIcon } from '@fluentui/react-icons';
import { type AnyPlugin, definePlugin } from '@/core';
import { createPluginRegistry, expectValidPlugin, loadLocaleFiles, PluginRegistrationError, validatePluginLoad, validatePluginModule } from '@/core/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { allFixtures, dashboardPlugin, identityPlugin } from './fixtures/plugins';

let files: Awaited<ReturnType<typeof loadLocaleFiles>>;
beforeAll(async () => {
  files = await loadLocaleFiles();
});
const base = () => files;
const Page = () => null;
const locales = { 'zh-CN': { label: '标签', detail: '详情' }, 'en-US': { label: 'Label', detail: 'Detail' } };

function plugin(overrides: Partial<AnyPlugin> & { id: string }): AnyPlugin {
  return {
    pages: [{ menuKey: overrides.id, group: 'resource', path: `/${overrides.id}`, page: 'Page', labelKey: 'label', layout: 'admin' }],
    load: () => Promise.resolve({ Page }),
    locales,
    ...overrides,
  };
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
    const error = registrationError([plugin({ id: 'dup' }), plugin({ id: 'dup', pages: [{ menuKey: 'other', group: 'ops', path: '/other', page: 'Page', labelKey: 'label', layout: 'admin' }] })]);
    expect(error.message).toBe('Plugin "dup": duplicate plugin id');
  });

  it('rejects a duplicate path, also between a child route and a page', () => {
    expect(registrationError([plugin({ id: 'a' }), plugin({ id: 'b', pages: [{ menuKey: 'b', group: 'ops', path: '/a', page: 'Page', labelKey: 'label', layout: 'admin' }] })]).message).toMatch(
      /Plugin "b": path "\/a" is already registered by plugin "a"/,
    );
    const withChild = plugin({
      id: 'c',
      pages: [{ menuKey: 'c', group: 'ops', path: '/c', page: 'Page', labelKey: 'label', layout: 'admin', children: [{ path: ':id', page: 'Page', titleKey: 'detail' }] }],
    });
    const clash = plugin({ id: 'd', pages: [{ menuKey: 'd', group: 'ops', path: '/c/:other', page: 'Page', labelKey: 'label', layout: 'admin' }] });
    expect(registrationError([withChild, clash]).message).toMatch(/Plugin "d": path "\/c\/:other" is already registered by plugin "c"/);
  });

  it('rejects a duplicate menu key', () => {
    const error = registrationError([plugin({ id: 'a' }), plugin({ id: 'b', pages: [{ menuKey: 'a', group: 'ops', path: '/b', page: 'Page', labelKey: 'label', layout: 'admin' }] })]);
    expect(error.message).toMatch(/Plugin "b": menu key "a" is already registered by plugin "a"/);
  });

  it('rejects an unknown group', () => {
    const bad = plugin({ id: 'g' });
    const pages = [{ ...bad.pages[0]!, group: 'made-up' as 'ops' }];
    expect(registrationError([{ ...bad, pages }]).message).toMatch(/Plugin "g": page "\/g" names unknown group "made-up"/);
  });

  it('rejects a label or title key missing in either language', () => {
    const noEn = plugin({ id: 'e', locales: { 'zh-CN': { label: '标签' }, 'en-US': {} } });
    expect(registrationError([noEn]).message).toBe('Plugin "e": label key "label" is missing from locales/en-US/e.json');
    const noZh = plugin({ id: 'z', locales: { 'zh-CN': {}, 'en-US': { label: 'Label' } } });
    expect(registrationError([noZh]).message).toBe('Plugin "z": label key "label" is missing from locales/zh-CN/z.json');
    const noChildTitle = plugin({
      id: 't',
      locales: { 'zh-CN': { label: '标签' }, 'en-US': { label: 'Label' } },
      pages: [{ menuKey: 't', group: 'ops', path: '/t', page: 'Page', labelKey: 'label', layout: 'admin', children: [{ path: ':id', page: 'Page', titleKey: 'detail' }] }],
    });
    expect(registrationError([noChildTitle]).message).toMatch(/Plugin "t": title key "detail" is missing/);
    const noActionLabel = plugin({ id: 'act', actions: [{ key: 'act-add', labelKey: 'actions.add' }] });
    expect(registrationError([noActionLabel]).message).toMatch(/Plugin "act": label of action "act-add" "actions.add" is missing/);
  });

  it('rejects a bad id and an admin page without a group', () => {
    expect(registrationError([plugin({ id: 'Bad_Id' })]).message).toMatch(/Plugin "Bad_Id": id must be kebab-case/);
    // core's own locale namespaces (core, core-<area>) share the namespace space with plugin ids.
    expect(registrationError([plugin({ id: 'core-account' })]).message).toMatch(/Plugin "core-account": ids "core" and "core-…" are reserved/);
    const bad = plugin({ id: 'nogroup' });
    expect(registrationError([{ ...bad, pages: [{ ...bad.pages[0]!, group: undefined }] }]).message).toMatch(/needs a group/);
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
