import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(__dirname, '..', '..', 'locales');
const LANGUAGES = ['zh-CN', 'en-US'];
const PLURAL_ONE = '_one';

function keys(value: unknown, prefix = ''): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [prefix];
  return Object.entries(value).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

function namespaces(lng: string): string[] {
  return readdirSync(join(root, lng))
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.replace(/\.json$/, ''))
    .sort();
}

describe('locale parity', () => {
  it('both languages have the same namespaces', () => {
    expect(namespaces('en-US')).toEqual(namespaces('zh-CN'));
  });

  for (const ns of namespaces('zh-CN')) {
    it(`namespace "${ns}": every key exists in zh-CN and en-US, with string values`, () => {
      const [zh, en] = LANGUAGES.map((lng) => JSON.parse(readFileSync(join(root, lng, `${ns}.json`), 'utf8')) as unknown);
      const zhKeys = keys(zh).sort();
      const enKeys = keys(en).sort();
      // English's singular of a counted string (i18next's plural suffix, `t(key, {count})`): `key_one` beside `key`,
      // which zh-CN (one form for every count) carries alone.
      const singularOf = (k: string) => (k.endsWith(PLURAL_ONE) && zhKeys.includes(k.slice(0, -PLURAL_ONE.length)) && enKeys.includes(k.slice(0, -PLURAL_ONE.length)));
      expect(enKeys.filter((k) => !zhKeys.includes(k) && !singularOf(k)), `keys only in en-US/${ns}.json`).toEqual([]);
      expect(zhKeys.filter((k) => !enKeys.includes(k)), `keys only in zh-CN/${ns}.json`).toEqual([]);
      for (const tree of [zh, en]) {
        for (const key of keys(tree)) {
          const value = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], tree);
          expect(typeof value, `${ns}:${key} must be a string`).toBe('string');
        }
      }
    });
  }

  it('every plugin folder has a locale file in both languages', () => {
    const pluginsDir = join(__dirname, '..', '..', 'plugins');
    let ids: string[] = [];
    try {
      ids = readdirSync(pluginsDir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
    } catch {
      ids = []; // no plugins yet
    }
    for (const id of ids) for (const lng of LANGUAGES) expect(namespaces(lng), `locales/${lng}/${id}.json`).toContain(id);
  });
});
