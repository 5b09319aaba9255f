import { useEffect, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { useBranding, useCore } from './context';
import { dataKeyT } from '../i18n/types';

// A title a page sets itself (a terminal titled by its host, as 1.3.9's): it wins over the route's while set.
let own: string | null = null;
const listeners = new Set<() => void>();
const setOwn = (title: string | null) => {
  own = title;
  for (const l of listeners) l();
};
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const current = () => own;

/**
 * Titles the browser tab with `title` exactly (no brand) while the calling page is mounted; `null` or '' leaves the
 * route's title. For full-window pages whose title is data, e.g. the terminal's host name.
 */
export function usePageTitle(title: string | null): void {
  useEffect(() => {
    if (!title) return;
    setOwn(title);
    return () => setOwn(null);
  }, [title]);
}

/** Browser title `页面名｜品牌名` (full-width bar U+FF5C); the brand alone off registered routes; a page's own title wins. */
export function useDocumentTitle(): void {
  const { registry } = useCore();
  const { pathname } = useLocation();
  const { name } = useBranding();
  const { t, i18n } = useTranslation();
  const pageOwn = useSyncExternalStore(subscribe, current, current);
  const route = registry.matchRoute(pathname);
  // Until the page's namespace has arrived the title is the brand alone, never a raw key.
  const page = route && i18n.hasResourceBundle(i18n.language, route.pluginId) ? dataKeyT(t)(route.titleKey, { ns: route.pluginId }) : '';
  useEffect(() => {
    document.title = pageOwn ?? (page ? `${page}\uFF5C${name}` : name);
  }, [page, name, pageOwn]);
}
