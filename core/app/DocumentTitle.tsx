import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { useBranding, useCore } from './context';
import { dataKeyT } from '../i18n/types';

/** Browser title `页面名｜品牌名` (full-width bar U+FF5C); the brand alone off registered routes. */
export function useDocumentTitle(): void {
  const { registry } = useCore();
  const { pathname } = useLocation();
  const { name } = useBranding();
  const { t, i18n } = useTranslation();
  const route = registry.matchRoute(pathname);
  // Until the page's namespace has arrived the title is the brand alone, never a raw key.
  const page = route && i18n.hasResourceBundle(i18n.language, route.pluginId) ? dataKeyT(t)(route.titleKey, { ns: route.pluginId }) : '';
  useEffect(() => {
    document.title = page ? `${page}\uFF5C${name}` : name;
  }, [page, name]);
}
