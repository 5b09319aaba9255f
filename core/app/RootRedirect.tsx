import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { buildAdminMenu, buildUserBar } from '../navigation/menu';
import type { PluginRegistry } from '../plugin/registry';
import type { SessionUser } from '../session/store';
import { useCore } from './context';
import { Landing } from './Landing';

/**
 * Where `/` sends a user: /my-asset for type user, /dashboard for admins (spec §2). With a registry, a landing page
 * that is not registered (not built yet) gives way to the first page of the user's own menu, so nobody lands on a 404.
 */
export function homePathFor(user: Pick<SessionUser, 'type'> & Partial<Pick<SessionUser, 'menus'>>, registry?: PluginRegistry): string {
  const preferred = user.type === 'user' ? '/my-asset' : '/dashboard';
  if (!registry || registry.matchRoute(preferred)) return preferred;
  const menus = user.menus ?? [];
  const first = user.type === 'user' ? buildUserBar(registry, menus)[0] : firstPage(buildAdminMenu(registry, menus));
  return first?.path ?? preferred;
}

function firstPage(entries: ReturnType<typeof buildAdminMenu>): { path: string } | undefined {
  const entry = entries[0];
  if (!entry) return undefined;
  return entry.type === 'item' ? entry.page : entry.children[0];
}

/** `/`: refresh the user from /account/info, then send users to /my-asset and admins to /dashboard. */
export function RootRedirect() {
  const { api, session, registry } = useCore();
  const navigate = useNavigate();
  useEffect(() => {
    let live = true;
    api.get<SessionUser>('/account/info').then(
      (info) => {
        if (!live) return;
        const user = { ...info, menus: Array.isArray(info.menus) ? info.menus : [] };
        session.getState().setUser(user);
        navigate(homePathFor(user, registry), { replace: true });
      },
      () => {
        // 401 already redirected to /login; other errors were toasted. Stay on the placeholder.
      },
    );
    return () => {
      live = false;
    };
  }, [api, session, registry, navigate]);
  return <Landing />;
}
