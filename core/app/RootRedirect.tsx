import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import type { SessionUser } from '../session/store';
import { useCore } from './context';
import { Landing } from './Landing';

export function homePathFor(user: Pick<SessionUser, 'type'>): string {
  return user.type === 'user' ? '/my-asset' : '/dashboard';
}

/** `/`: refresh the user from /account/info, then send users to /my-asset and admins to /dashboard. */
export function RootRedirect() {
  const { api, session } = useCore();
  const navigate = useNavigate();
  useEffect(() => {
    let live = true;
    api.get<SessionUser>('/account/info').then(
      (info) => {
        if (!live) return;
        const user = { ...info, menus: Array.isArray(info.menus) ? info.menus : [] };
        session.getState().setUser(user);
        navigate(homePathFor(user), { replace: true });
      },
      () => {
        // 401 already redirected to /login; other errors were toasted. Stay on the placeholder.
      },
    );
    return () => {
      live = false;
    };
  }, [api, session, navigate]);
  return <Landing />;
}
