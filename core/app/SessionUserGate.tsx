import { Button } from '@fluentui/react-components';
import { ArrowClockwiseRegular } from '@fluentui/react-icons/svg/arrow-clockwise';
import { ErrorCircleRegular } from '@fluentui/react-icons/svg/error-circle';
import { type ReactNode, useCallback, useEffect, useLayoutEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import type { SessionUser } from '../session/store';
import { useFailureStyles } from './ChunkError';
import { useCore } from './context';
import { announceScreen } from './firstScreen';
import { Landing } from './Landing';

/**
 * A token without its user (stored by another console, or the `user` entry lost or corrupt): every page's gate reads
 * the user's type and menus, so the user is fetched (`/account/info`) before any route renders, instead of a 403 on a
 * page the account may well open. A 401 goes to the login (the API client); another failure says so, with a retry.
 */
export function SessionUserGate({ children }: { children: ReactNode }) {
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
  if (known) return <>{children}</>;
  return failed ? <UserLoadFailed onRetry={load} /> : <Landing />;
}

function UserLoadFailed({ onRetry }: { onRetry: () => void }) {
  const styles = useFailureStyles();
  const { t } = useTranslation('core');
  // Whatever index.html's first screen showed, this is what the visitor must see now.
  useLayoutEffect(() => void announceScreen(null), []);
  return (
    <main className={styles.root} role="alert">
      <ErrorCircleRegular className={styles.icon} aria-hidden />
      <h1 className={styles.title}>{t('error.user.title')}</h1>
      <p className={styles.text}>{t('error.user.description')}</p>
      <Button appearance="primary" icon={<ArrowClockwiseRegular />} onClick={onRetry}>
        {t('error.user.retry')}
      </Button>
    </main>
  );
}
