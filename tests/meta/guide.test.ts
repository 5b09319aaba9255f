// docs/PLUGINS.md is a test: its walkthrough plugin, extracted exactly as written, type-checks, follows the import
// rules, registers with the shipped plugins, and its own test file (§7) runs here. The server half (granted to a
// role through the real server) is tests/server/guide.test.ts.
import { afterAll, describe, expect, it, vi } from 'vitest';
import type * as Resources from '../../core/i18n/resources';
import type { Lng } from '../../core/plugin/types';

const guide = await vi.hoisted(async () => (await import('../guide/extract')).extractGuide());

// In the product a plugin's locale files sit in locales/<lng>/<id>.json; the guide's sit in the scratch tree.
vi.mock('../../core/i18n/resources', async (importOriginal) => {
  const original = await importOriginal<typeof Resources>();
  const fs = await import('node:fs');
  return {
    ...original,
    async loadLocaleFiles(languages: readonly Lng[] = ['zh-CN', 'en-US'], namespaces?: readonly string[]) {
      const bundle = await original.loadLocaleFiles(languages, namespaces);
      if (namespaces && !namespaces.includes(guide.pluginId)) return bundle;
      for (const lng of languages) bundle[lng][guide.pluginId] = JSON.parse(fs.readFileSync(guide.at(`locales/${lng}/${guide.pluginId}.json`), 'utf8'));
      return bundle;
    },
  };
});

afterAll(() => guide.remove());

describe('docs/PLUGINS.md walkthrough', () => {
  it('holds a whole plugin: manifest, descriptor, pages, both locale files, a server module and a test', () => {
    const id = guide.pluginId;
    expect(guide.files.map((f) => f.path).sort()).toEqual(
      [
        `plugins/${id}/manifest.ts`,
        `plugins/${id}/index.ts`,
        `plugins/${id}/locales.d.ts`,
        `plugins/${id}/api.ts`,
        `plugins/${id}/pages.tsx`,
        `locales/zh-CN/${id}.json`,
        `locales/en-US/${id}.json`,
        `server/modules/${id}/index.ts`,
        `tests/plugins/${id}/${id}.test.tsx`,
      ].sort(),
    );
  });

  it('type-checks as written, its keys typed and nothing else', async () => {
    const { typeCheck } = await import('../guide/extract');
    expect(typeCheck(guide)).toBe('');
  }, 120_000);

  it('follows the import rules', async () => {
    const fs = await import('node:fs');
    const { checkImports, describeViolations, REPO } = await import('./importRules');
    // The scratch tree gets core and shared/ beside its plugin, so the rules see the same paths as in the repository.
    for (const folder of ['core', 'shared']) if (!fs.existsSync(guide.at(folder))) fs.symlinkSync(`${REPO}/${folder}`, guide.at(folder), 'dir');
    for (const lng of ['zh-CN', 'en-US']) {
      // core's typed namespaces read them
      for (const ns of ['core', 'kit']) {
        const file = guide.at(`locales/${lng}/${ns}.json`);
        if (!fs.existsSync(file)) fs.symlinkSync(`${REPO}/locales/${lng}/${ns}.json`, file);
      }
    }
    expect(describeViolations(await checkImports(['plugins', 'tests/plugins'], guide.root))).toEqual([]);
  }, 60_000);

  it('registers with the shipped plugins, its keys in the one catalogue', async () => {
    const { discoverPlugins } = await import('../../core/plugin/discover');
    const { createPluginRegistry } = await import('../../core/plugin/registry');
    const { loadLocaleFiles } = await import('../../core/i18n/resources');
    const plugin = (await import(/* @vite-ignore */ guide.at(`plugins/${guide.pluginId}/index.ts`))).default;
    const { buildCatalogue } = await import('../../shared/manifest.ts');
    const plugins = [...discoverPlugins(), plugin];
    const registry = createPluginRegistry(plugins, await loadLocaleFiles());
    const catalogue = buildCatalogue(plugins.flatMap((p) => (p.manifest ? [p.manifest] : [])));
    expect(catalogue.keys).toEqual(expect.arrayContaining(['ops', 'announcement', 'announcement-detail', 'announcement-del', 'user']));
    expect(catalogue.entry('announcement-del')).toMatchObject({ parent: 'announcement', pluginId: 'announcement', grants: ['DELETE /announcements/:id'] });
    expect(registry.pages.find((p) => p.path === '/announcement')).toMatchObject({ group: 'ops', menuKey: 'announcement' });
  });
});

// §7's test file, as written in the guide.
await import(/* @vite-ignore */ guide.at(`tests/plugins/${guide.pluginId}/${guide.pluginId}.test.tsx`));
