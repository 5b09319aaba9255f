import { makeStyles, Select, tokens } from '@fluentui/react-components';
import { LocalLanguageRegular } from '@fluentui/react-icons';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { changeLanguage, isLng } from '../i18n/createI18n';
import { LANGUAGES } from '../plugin/registry';
import { useCore } from './context';

const useStyles = makeStyles({
  root: { display: 'inline-flex', alignItems: 'center', gap: tokens.spacingHorizontalXS },
  icon: { fontSize: '20px', color: tokens.colorNeutralForeground2 },
});

/**
 * Language switch for every layout (and bare pages); the choice persists in localStorage.
 * A native-backed Fluent Select: no popover/positioning code, so the login screen stays light.
 */
export function LanguageSwitch() {
  const styles = useStyles();
  const { i18n, bus, ensureLanguage } = useCore();
  const { t } = useTranslation('core');
  const id = useId();
  const current = isLng(i18n.language) ? i18n.language : 'zh-CN';
  return (
    <span className={styles.root}>
      <LocalLanguageRegular className={styles.icon} aria-hidden />
      <Select
        id={id}
        appearance="filled-lighter"
        size="small"
        aria-label={t('lang.label')}
        value={current}
        onChange={(_, data) => {
          const next = data.value;
          if (!isLng(next)) return;
          void ensureLanguage(next)
            .then(() => changeLanguage(i18n, next))
            .then(() => bus.emit('locale:changed', { lng: next }));
        }}
      >
        {LANGUAGES.map((lng) => (
          <option key={lng} value={lng}>
            {t(`lang.${lng}`)}
          </option>
        ))}
      </Select>
    </span>
  );
}
