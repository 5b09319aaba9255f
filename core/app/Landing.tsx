import { makeStyles, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';

const useStyles = makeStyles({
  root: {
    minHeight: '100vh',
    width: '100%',
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    justifyContent: 'center',
    gap: tokens.spacingVerticalM,
    backgroundColor: tokens.colorNeutralBackground1,
  },
  inline: { minHeight: '320px' },
  text: { fontWeight: tokens.fontWeightSemibold },
});

/** Full-screen placeholder while the application or a plugin chunk loads (text only, as in 1.3.9: no spinner code in the entry). */
export function Landing({ inline = false }: { inline?: boolean }) {
  const styles = useStyles();
  const { t } = useTranslation('core');
  return (
    <div className={inline ? `${styles.root} ${styles.inline}` : styles.root} role="status" aria-live="polite">
      <span className={styles.text}>{t('app.loading')}</span>
    </div>
  );
}
