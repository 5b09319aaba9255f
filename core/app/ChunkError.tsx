import { Button, makeStyles, tokens, typographyStyles } from '@fluentui/react-components';
import { ArrowClockwiseRegular } from '@fluentui/react-icons/svg/arrow-clockwise';
import { ErrorCircleRegular } from '@fluentui/react-icons/svg/error-circle';
import { useTranslation } from 'react-i18next';

const useStyles = makeStyles({
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

/** Generic failure of an on-demand chunk (failed or timed out), with a retry. */
export function ChunkError({ onRetry }: { onRetry: () => void }) {
  const styles = useStyles();
  const { t } = useTranslation('core');
  return (
    <div className={styles.root} role="alert">
      <ErrorCircleRegular className={styles.icon} aria-hidden />
      <p className={styles.title}>{t('error.chunk.title')}</p>
      <p className={styles.text}>{t('error.chunk.description')}</p>
      <Button appearance="primary" icon={<ArrowClockwiseRegular />} onClick={onRetry}>
        {t('error.chunk.retry')}
      </Button>
    </div>
  );
}
