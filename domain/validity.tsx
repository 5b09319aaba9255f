import { useMemo } from 'react';
import { type FormField, type FormSection, type FormValues, StatusBadge, type StatusTone } from '@/core';
import { useDomainT } from './i18n';

// A validity window: a record (a grant…) counts from `from` until `until`, each a wire date-time
// (`YYYY-MM-DD HH:mm:ss`) or '' for a side left open.

/** Where now stands against a validity window: inside it, before it starts, or after it ended. */
export type ValidityState = 'active' | 'pending' | 'expired';

const TONE: Record<ValidityState, StatusTone> = { active: 'success', pending: 'warning', expired: 'default' };

export interface ValidityBadgeProps {
  state: ValidityState;
}

/** 生效中 / 未生效 / 已过期 as a coloured badge. */
export function ValidityBadge({ state }: ValidityBadgeProps) {
  const t = useDomainT();
  return <StatusBadge tone={TONE[state] ?? 'default'}>{t(`ui.validity.state.${state}`)}</StatusBadge>;
}

export interface ValidityWindowProps {
  /** '' (or absent) = open at the start. */
  from?: string;
  /** '' (or absent) = open at the end. */
  until?: string;
}

/** A validity window in words: `a ~ b`, `a 起`, `至 b`, or 长期有效 when both sides are open. */
export function ValidityWindow({ from = '', until = '' }: ValidityWindowProps) {
  const t = useDomainT();
  if (from && until) return <>{t('ui.validity.between', { from, until })}</>;
  if (from) return <>{t('ui.validity.from', { from })}</>;
  if (until) return <>{t('ui.validity.until', { until })}</>;
  return <>{t('ui.validity.always')}</>;
}

export interface ValidityFieldsOptions<Values extends FormValues> {
  /** The form's field names for the two sides (e.g. `validFrom`, `validUntil`). */
  from: keyof Values & string;
  until: keyof Values & string;
  /** Section title; default 有效期. */
  title?: string;
}

/**
 * The two optional `datetime` fields of a validity window, as a form section: either may stay empty (open), and when
 * both are set the end must come after the start. Both sides are wire strings, so they compare as text.
 */
export function useValidityFields<Values extends FormValues>({ from, until, title }: ValidityFieldsOptions<Values>): FormSection<Values> {
  const t = useDomainT();
  return useMemo(() => {
    const fromLabel = t('ui.validity.validFrom');
    const untilLabel = t('ui.validity.validUntil');
    const fields: FormField<Values>[] = [
      { name: from, label: fromLabel, type: 'datetime', hint: t('ui.validity.openStart') },
      {
        name: until,
        label: untilLabel,
        type: 'datetime',
        hint: t('ui.validity.openEnd'),
        validate: (value, values) => {
          const start = values[from];
          return typeof value === 'string' && typeof start === 'string' && start !== '' && value <= start
            ? t('ui.validity.untilAfterFrom', { from: fromLabel, until: untilLabel })
            : undefined;
        },
      },
    ];
    return { section: title ?? t('ui.validity.title'), fields };
  }, [t, from, until, title]);
}
