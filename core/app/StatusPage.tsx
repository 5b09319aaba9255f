import { Button, makeStyles, Text, tokens } from '@fluentui/react-components';
import { useLayoutEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useStore } from 'zustand';
import { useInMainLandmark } from '../layouts/MainLandmark';
import { useCore } from './context';
import { announceScreen } from '../../shared/first-screen.ts';
import { useLandingPath } from './landing';

const useStyles = makeStyles({
  root: {
    minHeight: '60vh',
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    justifyContent: 'center',
    gap: tokens.spacingVerticalL,
    padding: tokens.spacingHorizontalXXL,
  },
  code: { fontSize: '72px', lineHeight: '1', color: tokens.colorBrandForeground1 },
  actions: { display: 'flex', gap: tokens.spacingHorizontalM, flexWrap: 'wrap', justifyContent: 'center' },
});

/** Where the landing rule sends an account that may open no page at all: no page to offer. */
const DENIED = '/permission-denied';

/** The 403 and 404 pages: same body, different code and text. */
export function StatusPage({ status }: { status: 403 | 404 }) {
  const styles = useStyles();
  const { t } = useTranslation('core');
  const navigate = useNavigate();
  // Both buttons follow core's landing rule: the portal's home and the console's home (never a path named here).
  const portalHome = useLandingPath('user');
  const consoleHome = useLandingPath('admin');
  // Only what the account can reach: the console is not for portal (type `user`) accounts, whose every console
  // page is another 403; and the rule answers /permission-denied when no page at all is open.
  const type = useStore(useCore().session, (state) => state.user?.type);
  const reachable = (path: string) => path !== DENIED;
  const offerConsole = type !== 'user' && reachable(consoleHome);
  // Inside a layout the page is in its <main> already; on its own (/permission-denied, 404, a bare page) it is one.
  const Root = useInMainLandmark() ? 'section' : 'main';
  // Whatever index.html's first screen showed (the server's drawing of the page asked for), this is the page now.
  useLayoutEffect(() => void announceScreen(null), []);
  return (
    <Root className={styles.root} aria-labelledby="status-title">
      <Text id="status-title" as="h1" weight="bold" className={styles.code}>
        {status}
      </Text>
      <Text size={400}>{t(`status.${status}`)}</Text>
      <div className={styles.actions}>
        <Button appearance="primary" onClick={() => navigate(-1)}>
          {t('status.back')}
        </Button>
        {reachable(portalHome) ? (
          <Button appearance="primary" onClick={() => navigate(portalHome)}>
            {t('status.myAsset')}
          </Button>
        ) : null}
        {offerConsole ? (
          <Button appearance="primary" onClick={() => navigate(consoleHome)}>
            {t('status.adminHome')}
          </Button>
        ) : null}
      </div>
    </Root>
  );
}
