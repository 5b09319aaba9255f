import { Button, makeStyles, Text, tokens } from '@fluentui/react-components';
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
});

/** Generic failure of an on-demand chunk (failed or timed out), with a retry. */
export function ChunkError({ onRetry }: { onRetry: () => void }) {
  const styles = useStyles();
  const { t } = useTranslation('core');
  return (
    <div className={styles.root} role="alert">
      <ErrorCircleRegular className={styles.icon} aria-hidden />
      <Text size={500} weight="semibold">
        {t('error.chunk.title')}
      </Text>
      <Text>{t('error.chunk.description')}</Text>
      <Button appearance="primary" icon={<ArrowClockwiseRegular />} onClick={onRetry}>
        {t('error.chunk.retry')}
      </Button>
    </div>
  );
}
