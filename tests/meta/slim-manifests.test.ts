import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverPlugins } from '../../core/plugin/discover';
import { namedKeys, slimManifest } from '../../scripts/slim-manifests';

const root = path.resolve(__dirname, '../..');

describe('slim manifests (console build)', () => {
  it('drops label, grants, destructive and locales (server-only), keeps keys, groups and the menu entry (order, labelKey), and of the actions only the named keys', () => {
    const code = `// grants: a comment { stays
const manifest = defineManifest({
  id: 'x',
  locales: import.meta.url,
  menus: [{ key: 'x', group: 'ops', order: 2, labelKey: 'nav.x', grants: ['GET /x', 'POST /x/:id'] }],
  actions: [
    {
      key: 'x-del',
      parent: 'x',
      destructive: true,
      label: { 'zh-CN': '删除', 'en-US': 'Delete' },
      grants: ['DELETE /x/:id'],
    },
    // key: 'x-comment' is a comment, not a key
    { key: 'x-watch', parent: 'x', label: { 'zh-CN': "key: 'x-label'", 'en-US': 'Watch' } },
  ],
});`;
    const slim = slimManifest(code, new Set(['x', 'x-watch', 'x-comment', 'x-label']));
    expect(slim).toContain('// grants: a comment { stays');
    expect(slim).not.toMatch(/label:|GET \/x|DELETE|删除|destructive|locales|import\.meta|parent|x-del|x-comment|x-label/);
    expect(slim).toMatch(/\{ key: 'x', group: 'ops', order: 2, labelKey: 'nav.x',\s*\}/);
    expect(slim).toMatch(/actions: \[\{ key: "x-watch" \}\],\s*\}\);$/);
    // No key named: no actions at all (defineManifest defaults them to []).
    expect(slimManifest(code)).not.toMatch(/actions|x-watch|x-del/);
    // A fixture's inline strings go too, brackets in strings and all.
    const inline = slimManifest(`defineManifest({ id: 'y', locales: { 'zh-CN': { nav: '括号}' }, 'en-US': { nav: "a ] b" } }, menus: [] })`);
    expect(inline).toBe(`defineManifest({ id: 'y',  menus: [] })`);
  });

  it("names every key the shipped descriptors' pages and child routes name (gate, menuKey), and nothing else", () => {
    const expected = new Set<string>();
    for (const plugin of discoverPlugins()) {
      for (const page of plugin.pages) {
        for (const key of [page.menuKey, page.gate, ...(page.children ?? []).map((child) => child.menuKey)]) if (typeof key === 'string') expected.add(key);
      }
    }
    expect([...namedKeys(path.join(root, 'plugins'))].sort()).toEqual([...expected].sort());
  });

  it("leaves every shipped manifest with its keys, groups and menu entries, and the action keys a descriptor names, as the browser's registry reads them", async () => {
    const named = namedKeys(path.join(root, 'plugins'));
    const dirs = fs.readdirSync(path.join(root, 'plugins')).filter((d) => fs.existsSync(path.join(root, 'plugins', d, 'manifest.ts')));
    expect(dirs.length).toBeGreaterThan(5);
    let kept = 0;
    for (const dir of dirs) {
      const file = path.join(root, 'plugins', dir, 'manifest.ts');
      const full = (await import(file)).default as { menus: { key: string; group: string; order?: number; labelKey?: string }[]; actions: { key: string; parent: string }[] };
      const slim = slimManifest(fs.readFileSync(file, 'utf8'), named);
      expect(slim, dir).not.toMatch(/\blabel\s*:|\bgrants\s*:|\blocales\s*:|\bparent\s*:/);
      for (const m of full.menus) {
        const order = m.order === undefined ? '' : `\\s*order: ${m.order},`;
        expect(slim, `${dir} ${m.key}`).toMatch(new RegExp(`key: '${m.key}',\\s*group: '${m.group}',${order}\\s*labelKey: '${m.labelKey}'`));
      }
      for (const a of full.actions) {
        if (named.has(a.key)) {
          expect(slim, `${dir} ${a.key}`).toContain(`{ key: "${a.key}" }`);
          kept++;
        } else expect(slim, `${dir} ${a.key}`).not.toMatch(new RegExp(`['"]${a.key}['"]`));
      }
    }
    // The detail routes' keys (asset-detail, strategy-detail) and the monitor's and player's gates.
    expect(kept).toBeGreaterThanOrEqual(4);
  });
});
