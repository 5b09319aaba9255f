import { buildCatalogue, catalogueTree, defineManifest, type PluginManifest } from '@/shared/manifest';
import { describe, expect, it } from 'vitest';

const label = (k: string) => ({ 'zh-CN': k, 'en-US': k });
// Erased manifests, to feed the run-time checks what the types would refuse.
const raw = (id: string, menus: [string, string][], actions: [string, string][] = [], grants: string[] = []): PluginManifest => ({
  id,
  menus: menus.map(([key, group]) => ({ key, group: group as 'ops', label: label(key), grants: grants as `GET /${string}`[] })),
  actions: actions.map(([key, parent]) => ({ key, parent, label: label(key) })),
});
const error = (manifests: PluginManifest[]) => {
  try {
    buildCatalogue(manifests);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected the catalogue to be refused');
};

describe('the permission catalogue', () => {
  it("orders keys as 1.3.9's tree: core's group order, pages by order then plugin id, actions depth-first", () => {
    const b = defineManifest({
      id: 'b',
      menus: [{ key: 'b-page', group: 'ops', order: 1, label: label('b') }],
      actions: [
        { key: 'b-detail', parent: 'b-page', label: label('d') },
        { key: 'b-detail-tab', parent: 'b-detail', label: label('t') },
        { key: 'b-del', parent: 'b-page', label: label('x') },
      ],
    });
    const a = defineManifest({ id: 'a', menus: [{ key: 'a-page', group: 'ops', order: 2, label: label('a') }, { key: 'a-top', group: 'setting', label: label('s') }, { key: 'a-res', group: 'resource', label: label('r') }] });
    const catalogue = buildCatalogue([b, a]);
    expect(catalogue.keys).toEqual(['resource', 'a-res', 'ops', 'b-page', 'b-detail', 'b-detail-tab', 'b-del', 'a-page', 'a-top']);
    expect(catalogue.entry('a-top')).toMatchObject({ parent: null, pluginId: 'a' });
    expect(catalogue.entry('ops')).toMatchObject({ parent: null, pluginId: null, label: null });
    expect(catalogue.withDescendants(['b-detail', 'resource'])).toEqual(['resource', 'a-res', 'b-detail', 'b-detail-tab']);
    expect(catalogue.inOrder(['b-del', 'nope', 'ops', 'b-del'])).toEqual(['ops', 'b-del']);
    const tree = catalogueTree(catalogue, (g) => ({ 'zh-CN': `组${g}`, 'en-US': g }));
    expect(tree.map((n) => n.key)).toEqual(['resource', 'ops', 'a-top']);
    expect(tree[1]).toMatchObject({ title: '组ops', children: [{ key: 'b-page', children: [{ key: 'b-detail', children: [{ key: 'b-detail-tab', children: null }] }, { key: 'b-del' }] }, { key: 'a-page' }] });
  });

  it('maps each route to the keys that grant it', () => {
    const m = defineManifest({
      id: 'm',
      menus: [{ key: 'm', group: 'ops', label: label('m'), grants: ['GET /m', 'GET /shared'] }],
      actions: [{ key: 'm-add', parent: 'm', label: label('a'), grants: ['POST /m', 'GET /shared'] }],
    });
    const catalogue = buildCatalogue([m]);
    expect(catalogue.keysGranting('GET /shared')).toEqual(['m', 'm-add']);
    expect(catalogue.keysGranting('DELETE /m')).toEqual([]);
    expect(catalogue.grantedRoutes().sort()).toEqual(['GET /m', 'GET /shared', 'POST /m']);
  });

  it('refuses duplicate, malformed and misplaced keys, naming the plugin', () => {
    expect(error([raw('a', [['x', 'ops']]), raw('b', [['x', 'ops']])])).toBe('Plugin "b" manifest: key "x" is already declared by plugin "a"');
    expect(error([raw('a', [['ops', 'ops']])])).toBe('Plugin "a" manifest: key "ops" is already declared by core (a menu group)');
    expect(error([raw('a', [['Bad_Key', 'ops']])])).toBe('Plugin "a" manifest: key "Bad_Key" must be kebab-case');
    expect(error([raw('a', [['x', 'nowhere']])])).toBe('Plugin "a" manifest: key "x" names unknown group "nowhere"');
    expect(error([raw('a', [['x', 'ops']], [['x-add', 'y']])])).toBe('Plugin "a" manifest: action "x-add" has parent "y", which is not a key of this plugin');
    expect(error([raw('a', [['x', 'ops']]), raw('b', [['y', 'ops']], [['y-add', 'x']])])).toMatch(/action "y-add" has parent "x", which is not a key of this plugin/);
    expect(error([raw('a', [['x', 'ops']], [['p', 'q'], ['q', 'p']])])).toBe('Plugin "a" manifest: key "p" is not reachable from a page (a parent cycle)');
    expect(error([raw('a', [['x', 'ops']], [], ['/x'])])).toBe('Plugin "a" manifest: key "x" grants "/x": expected "METHOD /path"');
    expect(error([raw('a', [['x', 'ops']]), raw('a', [['y', 'ops']])])).toBe('Plugin "a" manifest: duplicate plugin id');
  });

  it('marks destructive action keys (no built-in role holds them), in GET /menus too, and checks the marker', () => {
    const m = defineManifest({
      id: 'm',
      menus: [{ key: 'm', group: 'ops', label: label('m'), grants: ['GET /m'] }],
      actions: [
        { key: 'm-del', parent: 'm', label: label('d'), grants: ['DELETE /m/:id'], destructive: true },
        { key: 'm-clear', parent: 'm', label: label('c'), grants: ['POST /m/clear'], destructive: true },
        { key: 'm-edit', parent: 'm', label: label('e'), grants: ['PUT /m/:id'] },
      ],
    });
    const catalogue = buildCatalogue([m]);
    expect(catalogue.destructiveKeys()).toEqual(['m-del', 'm-clear']);
    expect(catalogue.entry('m-del')?.destructive).toBe(true);
    expect(catalogue.entry('m-edit')?.destructive).toBe(false);
    expect(catalogue.entry('ops')?.destructive).toBe(false);
    const [ops] = catalogueTree(catalogue, () => label('g'));
    const page = ops?.children?.[0];
    expect(page?.children?.map((n) => [n.key, n.destructive])).toEqual([
      ['m-del', true],
      ['m-clear', true],
      ['m-edit', undefined],
    ]);
    // Only `destructive: true` is sent: the other nodes keep the 1.3.9 shape.
    expect(Object.keys(page?.children?.[2] ?? {})).toEqual(['title', 'titles', 'key', 'children']);

    const base = { id: 'a', menus: [{ key: 'a', group: 'ops' as const, label: label('a'), grants: ['GET /a' as const] }] };
    const act = (over: Record<string, unknown>) => ({ key: 'a-del', parent: 'a', label: label('d'), grants: ['DELETE /a' as const], ...over });
    // A marker that is not `true`.
    expect(error([{ ...base, actions: [act({ destructive: 'yes' })] } as unknown as PluginManifest])).toBe('Plugin "a" manifest: key "a-del": destructive must be true or absent');
    // A page key.
    expect(error([{ ...base, menus: [{ ...base.menus[0]!, destructive: true }], actions: [] } as unknown as PluginManifest])).toBe(
      'Plugin "a" manifest: page key "a" cannot be destructive (only action keys can)',
    );
    // A child of a destructive key that is not destructive (a built-in role would hold it without its parent).
    expect(error([{ ...base, actions: [act({ destructive: true }), { key: 'a-del-all', parent: 'a-del', label: label('x') }] } as PluginManifest])).toBe(
      'Plugin "a" manifest: key "a-del-all" is under the destructive key "a-del" and must be destructive too',
    );
    // A destructive route another key grants too: the built-in roles would reach it anyway.
    const other = { id: 'b', menus: [{ key: 'b', group: 'ops' as const, label: label('b'), grants: ['DELETE /a' as const] }], actions: [] };
    expect(error([{ ...base, actions: [act({ destructive: true })] } as PluginManifest, other])).toBe(
      'Plugin "b" manifest: key "b" grants "DELETE /a", which the destructive key "a-del" grants: only destructive keys may grant it',
    );
    expect(buildCatalogue([{ ...base, actions: [act({ destructive: true }), act({ key: 'a-del-2', destructive: true })] } as PluginManifest]).destructiveKeys()).toEqual(['a-del', 'a-del-2']);
  });
});

describe("a page key's label (the server's side of the menu entry)", () => {
  const strings = { 'zh-CN': { nav: { list: '列表' } }, 'en-US': { nav: { list: 'List' } } };
  const labelOf = (manifest: PluginManifest, key: string) => buildCatalogue([manifest]).entry(key)?.label;

  it('is looked up by labelKey in the manifest’s strings, both languages; an inline label is taken as written', () => {
    const keyed = defineManifest({ id: 'lk', locales: strings, menus: [{ key: 'lk', group: 'ops', labelKey: 'nav.list' }] });
    expect(labelOf(keyed, 'lk')).toEqual({ 'zh-CN': '列表', 'en-US': 'List' });
    const inline = defineManifest({ id: 'il', menus: [{ key: 'il', group: 'ops', label: { 'zh-CN': '内联', 'en-US': 'Inline' } }] });
    expect(labelOf(inline, 'il')).toEqual({ 'zh-CN': '内联', 'en-US': 'Inline' });
  });

  it("is read from the plugin's locale files when the manifest gives its import.meta.url: the strings the console shows", async () => {
    const { default: identity } = await import('../../plugins/identity/manifest');
    const zh = (await import('../../locales/zh-CN/identity.json')).default;
    const en = (await import('../../locales/en-US/identity.json')).default;
    expect(identity.locales).toMatch(/^file:.*\/plugins\/identity\/manifest\.ts$/);
    expect(labelOf(identity, 'user-group')).toEqual({ 'zh-CN': zh.nav.userGroup, 'en-US': en.nav.userGroup });
  });

  it('is refused when declared twice or not at all, without strings to read, or missing in a language', () => {
    const page = { key: 'p', group: 'ops' as const };
    const one = (menu: Record<string, unknown>, locales?: PluginManifest['locales']) => error([{ id: 'p', menus: [{ ...page, ...menu }], actions: [], locales } as unknown as PluginManifest]);
    expect(one({ label: label('p'), labelKey: 'nav.list' }, strings)).toBe('Plugin "p" manifest: key "p" declares its label twice (label and labelKey)');
    expect(one({})).toBe('Plugin "p" manifest: key "p" has no label: labelKey (a locale string) or label');
    expect(one({ labelKey: 'nav.list' })).toBe('Plugin "p" manifest: key "p" names labelKey "nav.list" but the manifest has no locales (import.meta.url)');
    expect(one({ labelKey: 'nav.list' }, { 'zh-CN': strings['zh-CN'], 'en-US': {} })).toBe('Plugin "p" manifest: key "p": labelKey "nav.list" is missing from its inline en-US strings');
    expect(one({ labelKey: 'nav.gone' }, import.meta.url.replace(/tests\/core\/manifest\.test\.ts$/, 'plugins/p/manifest.ts'))).toBe(
      'Plugin "p" manifest: key "p": labelKey "nav.gone" is missing from locales/zh-CN/p.json',
    );
  });

  it('cannot be written both ways, nor repeated by a keyed page (types)', () => {
    // @ts-expect-error: one label, inline or by key, not both
    defineManifest({ id: 'both', locales: strings, menus: [{ key: 'both', group: 'ops', label: label('b'), labelKey: 'nav.list' }] });
    // @ts-expect-error: a page key needs a label
    defineManifest({ id: 'none', menus: [{ key: 'none', group: 'ops' }] });
  });
});
