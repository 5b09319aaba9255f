import { dayjs } from './dayjs';
import type { UiTranslate } from './i18n';
import { useUiT } from './i18n';

const BYTE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'] as const;

/** Bytes as `1.50 GB` (1024 base, 2 decimals); `null`, `undefined`, `''` and 0 give `0 B`. */
export function formatBytes(bytes: number | string | null | undefined): string {
  const n = typeof bytes === 'string' ? Number(bytes) : bytes;
  if (n === null || n === undefined || !Number.isFinite(n) || n === 0) return '0 B';
  const sign = n < 0 ? '-' : '';
  const abs = Math.abs(n);
  const exp = Math.max(0, Math.min(BYTE_UNITS.length - 1, Math.floor(Math.log(abs) / Math.log(1024))));
  return `${sign}${(abs / 1024 ** exp).toFixed(2)} ${BYTE_UNITS[exp]}`;
}

const ZERO_DATE = '0001-01-01';
const SERVER_FORMAT = 'YYYY-MM-DD HH:mm:ss';
const SERVER_PATTERN = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

function isUnset(s: string | number | Date | null | undefined): s is null | undefined | '' {
  return s === null || s === undefined || s === '' || (typeof s === 'string' && s.startsWith(ZERO_DATE));
}

/** A server date (`YYYY-MM-DD HH:mm:ss`, server local time) shown as is; unset (`0001-01-01 00:00:00`, empty) → `-`. */
export function formatDateTime(s: string | number | Date | null | undefined): string {
  if (isUnset(s)) return '-';
  if (typeof s === 'string' && SERVER_PATTERN.test(s)) return s;
  const d = dayjs(s);
  return d.isValid() ? d.format(SERVER_FORMAT) : String(s);
}

/** Relative time ("3 分钟前" / "3 minutes ago") in dayjs' global locale; unset → `-`. */
export function fromNow(s: string | number | Date | null | undefined): string {
  if (isUnset(s)) return '-';
  const d = dayjs(s);
  return d.isValid() ? d.fromNow() : '-';
}

/**
 * Human duration between two dates, largest unit first, zero parts left out (`1天2小时3秒`, `1d 2h 3s`).
 * Years are calendar years (leap-year aware). An unset or unparsable end counts as now; an unset start gives `-`.
 */
export function formatDuration(
  start: string | number | Date | null | undefined,
  end: string | number | Date | null | undefined,
  t: UiTranslate,
): string {
  if (isUnset(start)) return '-';
  let from = dayjs(start);
  const to = isUnset(end) ? dayjs() : dayjs(end);
  if (!from.isValid() || !to.isValid()) return '-';
  const parts: string[] = [];
  for (const unit of ['year', 'day', 'hour', 'minute', 'second'] as const) {
    const n = to.diff(from, unit);
    if (n > 0) {
      parts.push(t(`ui.duration.${unit}`, { count: n }));
      from = from.add(n, unit);
    }
  }
  if (parts.length === 0) return t('ui.duration.second', { count: 0 });
  return parts.join(t('ui.duration.separator'));
}

/** `formatDuration` bound to the current language. */
export function useFormatDuration(): (
  start: string | number | Date | null | undefined,
  end: string | number | Date | null | undefined,
) => string {
  const t = useUiT();
  return (start, end) => formatDuration(start, end, t);
}
