import { type ComponentType, useLayoutEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { useStore } from 'zustand';
import { LOGIN_PATH, mayOpenRoute } from '../navigation/landing';
import type { ResolvedRoute } from '../plugin/types';
import { useCore, useSwitchLanguage } from './context';
import { announceScreen } from '../../shared/first-screen.ts';
import { isLng } from '../i18n/language';
import { ChunkLoader } from './OnDemand';
import { PageBoundary } from './PageBoundary';

/** The 403 and 404 pages, an on-demand chunk like any page: most sessions never see them. */
export function LazyStatusPage({ status }: { status: 403 | 404 }) {
  const load = () => import('./StatusPage').then((m) => () => <m.StatusPage status={status} />);
  return <ChunkLoader key={status} what={`${status} page`} load={load} inline />;
}

/**
 * A registered route: 403 when the user may not open it, else the lazily loaded page inside an error boundary
 * (a new location starts it afresh).
 */
export function PluginPage({ route }: { route: ResolvedRoute }) {
  const { session, registry, ensureNamespaces, namespacesLoaded } = useCore();
  const { pathname } = useLocation();
  const allowed = useStore(session, (state) => mayOpenRoute(route, (key) => state.hasMenu(key)));
  if (!allowed) return <LazyStatusPage status={403} />;
  // Full-window pages (terminal, monitor, playback) use the UI kit's dialogs and tables, whose strings the layouts
  // bring for their pages; the login screen does not, and keeps them out of its first visit.
  const namespaces = route.layout === 'bare' && route.path !== LOGIN_PATH ? [route.pluginId, 'kit'] : [route.pluginId];
  const pageOf = (module: object): ComponentType => {
    const Page = (module as Record<string, ComponentType>)[route.page] as ComponentType;
    return () => (
      <>
        <Page />
        <FirstScreenHandOver path={route.path} />
      </>
    );
  };
  const load = () => Promise.all([registry.loadPlugin(route.pluginId), ensureNamespaces(namespaces)]).then(([module]) => pageOf(module));
  // Chunk and strings already here (the early start fetched them while the layout loaded): the page renders in the
  // layout's pass instead of a placeholder pass first.
  const loaded = registry.loadedPlugin(route.pluginId);
  const ready = loaded && namespacesLoaded(namespaces) ? pageOf(loaded) : undefined;
  return (
    <PageBoundary key={pathname}>
      <ChunkLoader
        key={route.path}
        what={`plugin "${route.pluginId}" page "${route.page}"`}
        load={load}
        onFail={() => registry.forgetLoad(route.pluginId)}
        ready={ready}
        inline={route.layout !== 'bare'}
      />
    </PageBoundary>
  );
}

/**
 * Rendered after the page, so its layout effect runs once the page's DOM is in the document, before the browser
 * paints: index.html's prerendered first screen (if it still shows) hands its typed values, focus and queued submit
 * to this page, or simply goes when it showed another one (shared/first-screen.ts). A language chosen on the
 * static page is applied here.
 */
function FirstScreenHandOver({ path }: { path: string }) {
  const { i18n, bus } = useCore();
  const switchLanguage = useSwitchLanguage();
  useLayoutEffect(() => {
    const { adopted, language } = announceScreen(path);
    if (adopted && isLng(language) && language !== i18n.language) {
      // Its files did not arrive: the page stays in the language it has, and says why.
      switchLanguage(language).catch(() => bus.emit('notify', { intent: 'error', message: i18n.t('lang.failed', { ns: 'core' }) }));
    }
  }, [path, i18n, bus, switchLanguage]);
  return null;
}
