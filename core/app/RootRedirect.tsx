import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { landingPath } from '../navigation/landing';
import type { SessionUser } from '../session/store';
import { useCore } from './context';
import { Landing } from './Landing';

/** `/`: refresh the user from /account/info, then go where core's landing rule says (core/navigation/landing.ts). */
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
        navigate(landingPath(registry, user), { replace: true });
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
