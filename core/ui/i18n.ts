import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { dataKeyT } from '../i18n/types';

/** A translator as the kit needs it: a key of the `core` namespace plus interpolation values. */
export type UiTranslate = (key: string, values?: Record<string, unknown>) => string;

/** `t` for the kit's own strings (`core` namespace, keys under `ui.`). Interpolated values are never HTML-escaped: React escapes. */
export function useUiT(): UiTranslate {
  const { t } = useTranslation('core');
  return useMemo<UiTranslate>(
    () => (key, values) => dataKeyT(t)(key, { ...values, interpolation: { escapeValue: false } }),
    [t],
  );
}
