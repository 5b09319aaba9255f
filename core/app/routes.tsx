import { useLayoutEffect, useMemo, useRef } from 'react';
import { type Location, Navigate, Outlet, type RouteObject, useLocation, useNavigate, useRoutes } from 'react-router-dom';
import { LOGIN_PATH, loginPathFrom } from '../navigation/landing';
import type { PluginRegistry } from '../plugin/registry';
import type { PageLayout } from '../plugin/types';
import { useCore, useSession } from './context';
import { useDocumentTitle } from './DocumentTitle';
import { layoutLoaders, layoutNamespaces, loadedLayout } from './layouts';
import { ChunkLoader } from './OnDemand';
import { LazyStatusPage, PluginPage } from './PluginPage';
import { RootRedirect } from './RootRedirect';

/**
 * Every route: the document title, and no page but the login without a token (spec §4). A visit that starts without
 * one remembers where it was going (`/login?from=…`); signing out (here or in another tab) just ends on the login.
 * A token without its user loads the user first (SessionUserGate).
 */
function RouteRoot() {
  useDocumentTitle();
  const signedIn = useSession((state) => Boolean(state.token));
  const userKnown = useSession((state) => state.user !== null);
  const { pathname, search } = useLocation();
  const hadSession = useRef(signedIn);
  if (signedIn) hadSession.current = true;
  if (!signedIn && pathname !== LOGIN_PATH) {
    return <Navigate to={hadSession.current ? LOGIN_PATH : loginPathFrom(pathname + search)} replace />;
  }
  if (signedIn && !userKnown && pathname !== LOGIN_PATH) return <UserLoader />;
  return <Outlet />;
}

/** A token without its stored user is rare (another console signed in): the code that loads the user comes on demand. */
function UserLoader() {
  const load = () => import('./SessionUserGate').then((m) => m.SessionUserGate);
  return <ChunkLoader what="session user" load={load} inline={false} />;
}

function LayoutHost({ layout }: { layout: Exclude<PageLayout, 'bare'> }) {
  const { registry, ensureNamespaces, namespacesLoaded } = useCore();
  // The menu's icons and the layout's namespaces come with the layout.
  const namespaces = layoutNamespaces(registry.plugins.map((plugin) => plugin.id));
  const load = () => Promise.all([layoutLoaders[layout](), ensureNamespaces(namespaces), registry.loadIcons()]).then(([Layout]) => Layout);
  // All of it already here (the first render waits for the early start's loads, core/app/main-app.tsx; or an earlier
  // page of this layout): rendered in this pass, not after a placeholder pass.
  const Layout = loadedLayout(layout);
  const ready = Layout && registry.iconsLoaded() && namespacesLoaded(namespaces) ? Layout : undefined;
  return <ChunkLoader what={`${layout} layout`} load={load} ready={ready} inline={false} />;
}

/** The whole route tree, from the registry. Permission is checked per route at render (403), unknown paths 404. */
function buildRoutes(registry: PluginRegistry): RouteObject[] {
  const routesFor = (layout: PageLayout): RouteObject[] =>
    registry.routes
      .filter((route) => route.layout === layout)
      .map((route) => ({ path: route.path, element: <PluginPage route={route} /> }));
  return [
    {
      element: <RouteRoot />,
      children: [
        { path: '/', element: <RootRedirect /> },
        { path: '/permission-denied', element: <LazyStatusPage status={403} /> },
        { element: <LayoutHost layout="admin" />, children: routesFor('admin') },
        { element: <LayoutHost layout="user" />, children: routesFor('user') },
        ...routesFor('bare'),
        { path: '*', element: <LazyStatusPage status={404} /> },
      ],
    },
  ];
}

/** The console's routes for a declarative router (HashRouter / MemoryRouter): the data router costs ~16 KB gzip more. */
export function AppRoutes({ registry }: { registry: PluginRegistry }) {
  const routes = useMemo(() => buildRoutes(registry), [registry]);
  return useRoutes(routes);
}

/** Navigation from outside React (API redirects, tests): filled in by <RouterBridge> once the router is mounted. */
export interface RouterHandle {
  navigate(to: string): void;
  location: Location | null;
}

/** The API client's redirects: a 401 (expired token) goes to the login page remembering the page it came from. */
export function apiRedirect(router: RouterHandle): (path: '/login' | '/permission-denied') => void {
  return (path) => {
    const here = router.location;
    router.navigate(path === LOGIN_PATH && here ? loginPathFrom(here.pathname + here.search) : path);
  };
}

export function createRouterHandle(): RouterHandle & { attach(navigate: (to: string) => void): void } {
  let navigateImpl: ((to: string) => void) | null = null;
  let pending: string | null = null;
  return {
    location: null,
    navigate(to) {
      if (navigateImpl) navigateImpl(to);
      else pending = to;
    },
    attach(navigate) {
      navigateImpl = navigate;
      if (pending !== null) {
        const to = pending;
        pending = null;
        navigate(to);
      }
    },
  };
}

export function RouterBridge({ handle }: { handle: ReturnType<typeof createRouterHandle> }) {
  const navigate = useNavigate();
  const location = useLocation();
  useLayoutEffect(() => {
    handle.location = location;
  }, [handle, location]);
  useLayoutEffect(() => {
    handle.attach((to) => void navigate(to));
  }, [handle, navigate]);
  return null;
}
