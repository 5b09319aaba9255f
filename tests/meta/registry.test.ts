import { describe, expect, it } from 'vitest';
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
});
