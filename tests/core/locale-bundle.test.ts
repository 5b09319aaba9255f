// A layout's first screen fetches its language's namespaces as one bundle (core/i18n/bundles): it must hold exactly
// what the per-file chunks hold, for every namespace, in both languages.
import { describe, expect, it } from 'vitest';
import { loadLocaleBundle, loadLocaleFiles } from '../../core/i18n/resources';

describe('locale bundle', () => {
  it('holds every namespace of its language, equal to the per-file locales', async () => {
    const files = await loadLocaleFiles();
    for (const lng of ['zh-CN', 'en-US'] as const) {
      const bundle = await loadLocaleBundle(lng);
      expect(Object.keys(bundle).sort(), lng).toEqual(Object.keys(files[lng]).sort());
      expect(bundle, lng).toEqual(files[lng]);
    }
  });
});
