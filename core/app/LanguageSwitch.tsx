import { Button, makeStyles, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { isLng } from '../i18n/createI18n';
import { LANGUAGES } from '../plugin/registry';
import type { Lng } from '../plugin/types';
import { useCore, useSwitchLanguage } from './context';

const useStyles = makeStyles({
  // A bare fieldset: the native group for the buttons, without the browser's frame.
  root: { display: 'inline-flex', alignItems: 'center', gap: tokens.spacingHorizontalXXS, border: 'none', margin: 0, padding: 0, minWidth: 0 },
});

/**
 * Language switch for every layout (and bare pages); the choice persists in localStorage.
 * One plain Fluent Button per language (aria-pressed marks the current one) in a labelled group: Button is on
 * the login screen anyway, so this adds no Fluent code there (Select ~4 KB gzip, ToggleButton's styles ~3 KB).
 */
export function LanguageSwitch() {
  const styles = useStyles();
  const { i18n, bus } = useCore();
  const switchLanguage = useSwitchLanguage();
  const { t } = useTranslation('core');
  const current = isLng(i18n.language) ? i18n.language : 'zh-CN';
  const choose = (next: Lng) => {
    if (next === current) return;
    // The new language's files did not arrive (offline, a deploy since): it is not applied, and the user is told.
    switchLanguage(next).catch(() => bus.emit('notify', { intent: 'error', message: t('lang.failed') }));
  };
  return (
    <fieldset aria-label={t('lang.label')} className={styles.root}>
      {LANGUAGES.map((lng) => (
        // Each label is the language's own name, so it is marked with that language for screen readers.
        <Button
          key={lng}
          lang={lng}
          size="small"
          appearance={lng === current ? 'outline' : 'subtle'}
          aria-pressed={lng === current}
          onClick={() => choose(lng)}
        >
          {t(`lang.${lng}`)}
        </Button>
      ))}
    </fieldset>
  );
}
