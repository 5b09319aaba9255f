import type { ResourceBundle } from '../plugin/registry';
import type { Lng, LocaleResources } from '../plugin/types';

// Namespaces are the file names under locales/<lng>/ (core or a plugin id). Each file is its own small chunk:
// production starts with the current language's `core` only and fetches a plugin's namespace with its first
// page (or all of them with a layout's menu), so the start does not grow with every plugin added.
const loaders = import.meta.glob<LocaleResources>('../../locales/*/*.json', { import: 'default' });

function parse(file: string): { lng: Lng; ns: string } | null {
  const match = file.match(/locales\/(zh-CN|en-US)\/([^/?]+)\.json(?:\?.*)?$/);
  return match?.[1] && match[2] ? { lng: match[1] as Lng, ns: match[2] } : null;
}

/** Locale files of `languages`, limited to `namespaces` when given (a namespace without a file is skipped). */
export async function loadLocaleFiles(
  languages: readonly Lng[] = ['zh-CN', 'en-US'],
  namespaces?: readonly string[],
): Promise<ResourceBundle> {
  const bundle: ResourceBundle = { 'zh-CN': {}, 'en-US': {} };
  await Promise.all(
    Object.entries(loaders).map(async ([file, load]) => {
      const found = parse(file);
      if (!found || !languages.includes(found.lng)) return;
      if (namespaces && !namespaces.includes(found.ns)) return;
      bundle[found.lng][found.ns] = await load();
    }),
  );
  return bundle;
}

// One module per language with every namespace: a layout's first screen needs them all (its menu names every
// plugin's pages), and one request beats ~14 on HTTP/1.1's six connections.
const bundleLoaders: Record<Lng, () => Promise<Record<string, string>>> = {
  'zh-CN': () => import('./bundles/zh-CN').then((m) => m.default),
  'en-US': () => import('./bundles/en-US').then((m) => m.default),
};

/** Every namespace's file of `lng`, by namespace, in one request. */
export async function loadLocaleBundle(lng: Lng): Promise<Record<string, LocaleResources>> {
  const files = await bundleLoaders[lng]();
  const byNamespace: Record<string, LocaleResources> = {};
  for (const [file, text] of Object.entries(files)) {
    const found = parse(file);
    if (found?.lng === lng) byNamespace[found.ns] = JSON.parse(text) as LocaleResources;
  }
  return byNamespace;
}
