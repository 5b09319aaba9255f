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
});
