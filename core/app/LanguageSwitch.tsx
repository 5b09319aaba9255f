import { Button, Menu, MenuItemRadio, MenuList, MenuPopover, MenuTrigger } from '@fluentui/react-components';
import { LocalLanguageRegular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { changeLanguage, isLng } from '../i18n/createI18n';
import { LANGUAGES } from '../plugin/registry';
import { useCore } from './context';

/** Language switch for every layout (and bare pages); the choice persists in localStorage. */
export function LanguageSwitch({ appearance = 'subtle' }: { appearance?: 'subtle' | 'transparent' | 'secondary' }) {
  const { i18n, bus, ensureLanguage } = useCore();
  const { t } = useTranslation('core');
  const current = isLng(i18n.language) ? i18n.language : 'zh-CN';
  return (
    <Menu
      checkedValues={{ lng: [current] }}
      onCheckedValueChange={(_, data) => {
        const next = data.checkedItems[0];
        if (isLng(next)) {
          void ensureLanguage(next)
            .then(() => changeLanguage(i18n, next))
            .then(() => bus.emit('locale:changed', { lng: next }));
        }
      }}
    >
      <MenuTrigger disableButtonEnhancement>
        <Button appearance={appearance} icon={<LocalLanguageRegular />} aria-label={t('lang.label')}>
          {t(`lang.${current}`)}
        </Button>
      </MenuTrigger>
      <MenuPopover>
        <MenuList>
          {LANGUAGES.map((lng) => (
            <MenuItemRadio key={lng} name="lng" value={lng}>
              {t(`lang.${lng}`)}
            </MenuItemRadio>
          ))}
        </MenuList>
      </MenuPopover>
    </Menu>
  );
}
