import { useCallback, useEffect, useState } from 'react';
import { useStore } from 'zustand';
import type { SessionUser } from '../session/store';
import { ChunkError } from './ChunkError';
import { useCore } from './context';
import { Landing } from './Landing';

/**
 * A token without its user (stored by another console, or the `user` entry lost or corrupt): every page's gate reads
 * the user's type and menus, so the user is fetched (`/account/info`) before any route renders, instead of a 403 on a
 * page the account may well open. A 401 goes to the login (the API client); another failure is a page that did not
 * load, with a retry (ChunkError, which also lets index.html's drawing go).
 * Shown by core/app/routes.tsx (on demand) while the session has no user: once set, the routes render instead.
 */
export function SessionUserGate() {
  const { api, session } = useCore();
  const known = useStore(session, (state) => state.user !== null);
  const [failed, setFailed] = useState(false);
  /** Asks for the user; answers a function that drops a late answer (the gate left the tree). */
  const load = useCallback(() => {
    let live = true;
    setFailed(false);
    api.get<SessionUser>('/account/info').then(
      (info) => {
        if (live) session.getState().setUser({ ...info, menus: Array.isArray(info.menus) ? info.menus.map(String) : [] });
      },
      () => {
        if (live) setFailed(true);
      },
    );
    return () => {
      live = false;
    };
  }, [api, session]);
  useEffect(() => (known ? undefined : load()), [known, load]);
  if (known) return null;
  return failed ? <ChunkError onRetry={load} /> : <Landing />;
}
