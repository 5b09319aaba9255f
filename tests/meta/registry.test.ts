import { describe, expect, it } from 'vitest';
import { buildCatalogue, type PluginManifest } from '../../shared/manifest.ts';
import { discoverPlugins } from '../../core/plugin/discover';
import { createPluginRegistry, LANGUAGES } from '../../core/plugin/registry';
import { loadLocaleFiles } from '../../core/i18n/resources';

// Production registers the shipped plugins without their locale files (they arrive on demand), so this is
// where every plugin in plugins/ is checked together: unique ids, paths and menu keys, and every label and
// title key in both languages.
describe('the shipped plugins', () => {
  it('register together with every key in zh-CN and en-US', async () => {
    const plugins = discoverPlugins();
    expect(plugins.length).toBeGreaterThan(0);
    const registry = createPluginRegistry(plugins, await loadLocaleFiles(LANGUAGES), LANGUAGES);
    expect(registry.plugins.map((plugin) => plugin.id)).toEqual(plugins.map((plugin) => plugin.id));
  });

  it('declare their permission keys in one valid catalogue, in the manifest files the server reads', () => {
    const plugins = discoverPlugins();
    const catalogue = buildCatalogue(plugins.flatMap((plugin) => (plugin.manifest ? [plugin.manifest] : [])));
    expect(catalogue.keys).toContain('user-add');
    // The server reads plugins/<id>/manifest.ts; the console reads the descriptor's `manifest`: the same object.
    const files = import.meta.glob<PluginManifest>('../../plugins/*/manifest.ts', { eager: true, import: 'default' });
    const byFolder = Object.fromEntries(Object.entries(files).map(([file, manifest]) => [file.split('/')[3], manifest]));
    expect(Object.fromEntries(plugins.filter((p) => p.manifest).map((p) => [p.id, p.manifest]))).toEqual(byFolder);
    for (const plugin of plugins) expect(plugin.manifest, plugin.id).toBe(byFolder[plugin.id]);
  });

  it("declare each page's menu entry once, in the manifest: the menu and the server's role tree show the same strings", async () => {
    const plugins = discoverPlugins();
    const files = await loadLocaleFiles(LANGUAGES);
    const registry = createPluginRegistry(plugins, files, LANGUAGES);
    const catalogue = buildCatalogue(plugins.flatMap((plugin) => (plugin.manifest ? [plugin.manifest] : [])));
    const lookup = (node: unknown, key: string) => key.split('.').reduce<unknown>((n, part) => (n as Record<string, unknown> | undefined)?.[part], node);
    let keyed = 0;
    for (const plugin of plugins) {
      for (const page of plugin.pages) {
        if (page.menuKey === null) continue;
        keyed += 1;
        const where = `${plugin.id} ${page.path}`;
        // The descriptor names its key only: order and label are the key's manifest entry's.
        expect(Object.keys(page), where).not.toContain('labelKey');
        expect(Object.keys(page), where).not.toContain('order');
        const entry = plugin.manifest?.menus.find((m) => m.key === page.menuKey);
        expect(entry?.labelKey, where).toEqual(expect.any(String));
        const resolved = registry.pages.find((p) => p.path === page.path);
        expect(resolved?.order, where).toBe(entry?.order ?? 1000);
        // What the side menu shows in each language is what GET /menus names the key with.
        const shown = Object.fromEntries(LANGUAGES.map((lng) => [lng, lookup(files[lng][plugin.id], resolved?.labelKey ?? '')]));
        expect(catalogue.entry(page.menuKey)?.label, where).toEqual(shown);
      }
    }
    expect(keyed).toBeGreaterThan(10);
  });
});
