import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { dataKeyT } from '../i18n/types';

/** A translator as the kit needs it: a key of the `core` namespace plus interpolation values. */
export type UiTranslate = (key: string, values?: Record<string, unknown>) => string;

/**
 * `t` for the kit's own strings (`kit` namespace, keys under `ui.`). They are not in `core`, which the login screen
 * fetches at start: the layouts load `kit` with the plugins' namespaces (LayoutHost), before any kit piece renders.
 * Interpolated values are never HTML-escaped: React escapes.
 */
export function useUiT(): UiTranslate {
  const { t } = useTranslation('kit');
  return useMemo<UiTranslate>(
    () => (key, values) => dataKeyT(t)(key, { ...values, interpolation: { escapeValue: false } }),
    [t],
  );
}
