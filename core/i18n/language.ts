import type { Lng } from '../plugin/types';

// The stored language, apart from i18next: the entry's early start (core/app/early.ts) reads it before any library.

export const DEFAULT_LNG: Lng = 'zh-CN';
export const LNG_STORAGE_KEY = 'jumpgate.lng';

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
