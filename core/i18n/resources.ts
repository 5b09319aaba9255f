import type { ResourceBundle } from '../plugin/registry';
import type { Lng, LocaleResources } from '../plugin/types';

// Namespaces are the file names under locales/<lng>/ (core or a plugin id). Lazy: production loads
// only the current language at start (the other one on switch), so the entry does not carry both.
const loaders = import.meta.glob<LocaleResources>('../../locales/*/*.json', { import: 'default' });

export async function loadLocaleFiles(languages: readonly Lng[] = ['zh-CN', 'en-US']): Promise<ResourceBundle> {
  const bundle: ResourceBundle = { 'zh-CN': {}, 'en-US': {} };
  await Promise.all(
    Object.entries(loaders).map(async ([file, load]) => {
      const match = file.match(/locales\/(zh-CN|en-US)\/([^/]+)\.json$/);
      const lng = match?.[1] as Lng | undefined;
      if (!lng || !match?.[2] || !languages.includes(lng)) return;
      bundle[lng][match[2]] = await load();
    }),
  );
  return bundle;
}
