import { useCallback } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useStore } from 'zustand';
import { afterLoginPath, type LandingUser, landingPath, RETURN_PARAM } from '../navigation/landing';
import type { AccountKind } from '../plugin/types';
import { useCore } from './context';

/**
 * For the sign-in page: where a just signed-in account goes — the page it was sent away from (when it may open it),
 * else core's landing rule (its type's home, else its first menu page, else the personal centre).
 */
export function useLanding(): (user: LandingUser) => string {
  const { registry } = useCore();
  const [params] = useSearchParams();
  const returnTo = params.get(RETURN_PARAM);
  return useCallback((user: LandingUser) => afterLoginPath(registry, user, returnTo), [registry, returnTo]);
}

/** Internal: the landing path of the signed-in account (or of another account type, with its menus). */
export function useLandingPath(kind?: AccountKind): string {
  const { registry, session } = useCore();
  const user = useStore(session, (state) => state.user);
  return landingPath(registry, { type: user?.type ?? '', menus: user?.menus }, kind);
}
