// dayjs with the console's locale. Imported only by modules that format dates, so dayjs stays out of the entry;
// the locale follows the active i18next language from the moment this module is first loaded.
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import relativeTime from 'dayjs/plugin/relativeTime';
import { onActiveLanguage } from '../i18n/createI18n';
import type { Lng } from '../plugin/types';

const DAYJS_LOCALE: Record<Lng, string> = { 'zh-CN': 'zh-cn', 'en-US': 'en' };

dayjs.extend(relativeTime);
onActiveLanguage((lng) => {
  dayjs.locale(DAYJS_LOCALE[lng]);
});

export { dayjs };
