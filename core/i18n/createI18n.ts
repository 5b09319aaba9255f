import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { ResourceBundle } from '../plugin/registry';
import type { Lng } from '../plugin/types';

export const DEFAULT_LNG: Lng = 'zh-CN';
export const LNG_STORAGE_KEY = 'jumpgate.lng';
const DAYJS_LOCALE: Record<Lng, string> = { 'zh-CN': 'zh-cn', 'en-US': 'en' };

export function isLng(value: unknown): value is Lng {
  return value === 'zh-CN' || value === 'en-US';
}

export function storedLanguage(): Lng {
  try {
    const value = window.localStorage.getItem(LNG_STORAGE_KEY);
    return isLng(value) ? value : DEFAULT_LNG;
  } catch {
    return DEFAULT_LNG;
  }
}

/** A fresh, synchronously initialised instance (no global): production and tests build their own. */
export function createI18n(resources: ResourceBundle, lng: Lng = DEFAULT_LNG): I18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    lng,
    fallbackLng: DEFAULT_LNG,
    supportedLngs: ['zh-CN', 'en-US'],
    resources,
    ns: Object.keys(resources[DEFAULT_LNG]),
    defaultNS: 'core',
    initAsync: false,
    interpolation: { escapeValue: false }, // React escapes
    react: { useSuspense: false },
  });
  dayjs.locale(DAYJS_LOCALE[lng]);
  instance.on('languageChanged', (next) => {
    if (isLng(next)) dayjs.locale(DAYJS_LOCALE[next]);
  });
  return instance;
}

/** Switches language, remembers it and moves dayjs along. */
export async function changeLanguage(instance: I18n, lng: Lng, persist = true): Promise<void> {
  await instance.changeLanguage(lng);
  if (persist) {
    try {
      window.localStorage.setItem(LNG_STORAGE_KEY, lng);
    } catch {
      // storage may be unavailable (private mode); the switch still applies
    }
  }
}
