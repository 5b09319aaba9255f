import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { slimManifest } from '../../scripts/slim-manifests';

const root = path.resolve(__dirname, '../..');

describe('slim manifests (console build)', () => {
  it('drops label, grants, destructive and locales (server-only), keeps keys, groups, parents and the menu entry (order, labelKey)', () => {
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
  ],
});`;
    const slim = slimManifest(code);
    expect(slim).toContain('// grants: a comment { stays');
    expect(slim).not.toMatch(/label:|GET \/x|DELETE|删除|destructive|locales|import\.meta/);
    expect(slim).toMatch(/\{ key: 'x', group: 'ops', order: 2, labelKey: 'nav.x',\s*\}/);
    expect(slim).toMatch(/key: 'x-del',\s*parent: 'x',\s*}/);
    // A fixture's inline strings go too, brackets in strings and all.
    const inline = slimManifest(`defineManifest({ id: 'y', locales: { 'zh-CN': { nav: '括号}' }, 'en-US': { nav: "a ] b" } }, menus: [] })`);
    expect(inline).toBe(`defineManifest({ id: 'y',  menus: [] })`);
  });

  it("leaves every shipped manifest with its keys, groups, parents and menu entries, as the browser's registry reads them", async () => {
    const dirs = fs.readdirSync(path.join(root, 'plugins')).filter((d) => fs.existsSync(path.join(root, 'plugins', d, 'manifest.ts')));
    expect(dirs.length).toBeGreaterThan(5);
    for (const dir of dirs) {
      const file = path.join(root, 'plugins', dir, 'manifest.ts');
      const full = (await import(file)).default as { menus: { key: string; group: string; order?: number; labelKey?: string }[]; actions: { key: string; parent: string }[] };
      const slim = slimManifest(fs.readFileSync(file, 'utf8'));
      expect(slim, dir).not.toMatch(/\blabel\s*:|\bgrants\s*:|\blocales\s*:/);
      for (const m of full.menus) {
        const order = m.order === undefined ? '' : `\\s*order: ${m.order},`;
        expect(slim, `${dir} ${m.key}`).toMatch(new RegExp(`key: '${m.key}',\\s*group: '${m.group}',${order}\\s*labelKey: '${m.labelKey}'`));
      }
      for (const a of full.actions) expect(slim, `${dir} ${a.key}`).toMatch(new RegExp(`key: '${a.key}',\\s*parent: '${a.parent}'`));
    }
  });
});
