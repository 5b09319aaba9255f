import { Button, makeStyles, tokens, typographyStyles } from '@fluentui/react-components';
import { ArrowClockwiseRegular } from '@fluentui/react-icons/svg/arrow-clockwise';
import { ErrorCircleRegular } from '@fluentui/react-icons/svg/error-circle';
import { useLayoutEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useCore } from './context';
import { announceScreen } from '../../shared/first-screen.ts';

/** The frame of a failure in the page area (a chunk that did not load, a page that threw: PageFailure). */
export const useFailureStyles = makeStyles({
  root: {
    minHeight: '320px',
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    justifyContent: 'center',
    gap: tokens.spacingVerticalM,
    padding: tokens.spacingHorizontalXXL,
  },
  icon: { fontSize: '48px', color: tokens.colorPaletteRedForeground1 },
  // Fluent's type ramp on plain elements: this is in the entry, and <Text> would add its component (~1.7 KB gzip).
  title: { ...typographyStyles.subtitle1, margin: 0 },
  text: { ...typographyStyles.body1, margin: 0 },
});

/**
 * Failure of an on-demand chunk: the generic error with a retry (failed or timed out), or, when a deploy replaced
 * the build this page came from (`newVersion`), the offer to reload the page: a retry would only fail again.
 */
export function ChunkError({ onRetry, newVersion = false }: { onRetry: () => void; newVersion?: boolean }) {
  const styles = useFailureStyles();
  const { t } = useTranslation('core');
  const { reloadPage } = useCore();
  // Whatever index.html's static first screen showed, this failure is what the visitor must see now.
  useLayoutEffect(() => void announceScreen(null), []);
  return (
    <div className={styles.root} role="alert">
      <ErrorCircleRegular className={styles.icon} aria-hidden />
      <p className={styles.title}>{t(newVersion ? 'error.chunk.newVersionTitle' : 'error.chunk.title')}</p>
      <p className={styles.text}>{t(newVersion ? 'error.chunk.newVersionDescription' : 'error.chunk.description')}</p>
      {newVersion ? (
        <Button appearance="primary" icon={<ArrowClockwiseRegular />} onClick={reloadPage}>
          {t('error.chunk.reload')}
        </Button>
      ) : (
        <Button appearance="primary" icon={<ArrowClockwiseRegular />} onClick={onRetry}>
          {t('error.chunk.retry')}
        </Button>
      )}
    </div>
  );
}
