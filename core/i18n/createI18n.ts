import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { ResourceBundle } from '../plugin/registry';
import type { Lng } from '../plugin/types';

export const DEFAULT_LNG: Lng = 'zh-CN';
const LNG_STORAGE_KEY = 'jumpgate.lng';

// The language last set on an instance, for code outside React (dayjs' locale, core/ui/dayjs.ts). Kept here
// rather than importing dayjs so the entry does not carry dayjs: only chunks that format dates load it.
let activeLng: Lng = DEFAULT_LNG;
const languageListeners = new Set<(lng: Lng) => void>();

function setActiveLanguage(lng: Lng): void {
  activeLng = lng;
  for (const listener of languageListeners) listener(lng);
}

/** Calls `listener` now with the active language and on every change; returns the unsubscribe. */
export function onActiveLanguage(listener: (lng: Lng) => void): () => void {
  languageListeners.add(listener);
  listener(activeLng);
  return () => languageListeners.delete(listener);
}

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
    // Namespaces arrive on demand (core/i18n/resources.ts): a component re-renders when one it reads is added.
    react: { useSuspense: false, bindI18nStore: 'added' },
  });
  setActiveLanguage(lng);
  instance.on('languageChanged', (next) => {
    if (isLng(next)) setActiveLanguage(next);
  });
  return instance;
}

/** Switches language and remembers it (dayjs follows through onActiveLanguage). */
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
