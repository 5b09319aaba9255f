// The page area after a page threw (core/app/PageBoundary.tsx): an on-demand chunk, as most sessions never need it.
import { Button, makeStyles, tokens, typographyStyles } from '@fluentui/react-components';
import { ArrowClockwiseRegular } from '@fluentui/react-icons/svg/arrow-clockwise';
import { ArrowLeftRegular } from '@fluentui/react-icons/svg/arrow-left';
import { ErrorCircleRegular } from '@fluentui/react-icons/svg/error-circle';
import { useEffect, useLayoutEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { ChunkError, useFailureStyles } from './ChunkError';
import { isChunkLoadError, newVersionDeployed } from './deploy';
import { announceScreen } from '../../shared/first-screen.ts';

const useStyles = makeStyles({
  detail: {
    ...typographyStyles.caption1,
    margin: 0,
    maxWidth: '640px',
    overflowWrap: 'anywhere',
    fontFamily: tokens.fontFamilyMonospace,
    color: tokens.colorNeutralForeground3,
  },
  actions: { display: 'flex', gap: tokens.spacingHorizontalM },
});

/** What a page that threw shows in the page area: what failed, retry (render the page again) and back. */
export function PageFailure({ error, onRetry }: { error: Error; onRetry: () => void }) {
  const styles = { ...useFailureStyles(), ...useStyles() };
  const { t } = useTranslation('core');
  const navigate = useNavigate();
  const location = useLocation();
  // A lazy import inside the page that failed because a deploy replaced its chunk: offer the reload instead.
  const [newVersion, setNewVersion] = useState(false);
  // Whatever index.html's static first screen showed, this failure is what the visitor must see now.
  useLayoutEffect(() => void announceScreen(null), []);
  useEffect(() => {
    let live = true;
    if (isChunkLoadError(error)) void newVersionDeployed().then((yes) => live && setNewVersion(yes));
    return () => {
      live = false;
    };
  }, [error]);
  if (newVersion) return <ChunkError onRetry={onRetry} newVersion />;
  // Opened directly (first history entry): back goes to the console's root, which lands by core's rule.
  const back = () => (location.key === 'default' ? navigate('/') : navigate(-1));
  return (
    <div className={styles.root} role="alert" data-testid="core.page-error">
      <ErrorCircleRegular className={styles.icon} aria-hidden />
      <p className={styles.title}>{t('error.page.title')}</p>
      <p className={styles.text}>{t('error.page.description')}</p>
      <p className={styles.detail}>{error.message || error.name}</p>
      <div className={styles.actions}>
        <Button appearance="primary" icon={<ArrowClockwiseRegular />} onClick={onRetry}>
          {t('error.page.retry')}
        </Button>
        <Button icon={<ArrowLeftRegular />} onClick={back}>
          {t('error.page.back')}
        </Button>
      </div>
    </div>
  );
}
