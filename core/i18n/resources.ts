import type { ResourceBundle } from '../plugin/registry';
import type { LocaleResources } from '../plugin/types';

// Namespaces are the file names under locales/<lng>/ (core or a plugin id).
const files = import.meta.glob<LocaleResources>('../../locales/*/*.json', { eager: true, import: 'default' });

export function loadLocaleFiles(): ResourceBundle {
  const bundle: ResourceBundle = { 'zh-CN': {}, 'en-US': {} };
  for (const [file, resources] of Object.entries(files)) {
    const match = file.match(/locales\/(zh-CN|en-US)\/([^/]+)\.json$/);
    if (match?.[1] && match[2]) bundle[match[1] as keyof ResourceBundle][match[2]] = resources;
  }
  return bundle;
}
