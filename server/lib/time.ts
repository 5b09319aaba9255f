/** The wire's date format is `YYYY-MM-DD HH:mm:ss` in server local time; an unset date is this exact string. */
export const ZERO_DATE = '0001-01-01 00:00:00';

const pad = (n: number) => String(n).padStart(2, '0');

/** Formats an epoch-ms timestamp (as stored) for the wire; null/undefined/0 → ZERO_DATE. */
export function formatDate(ms: number | null | undefined): string {
  if (!ms) return ZERO_DATE;
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** `HH:mm:ss` in server local time: the monitoring series' time labels (contract §1.9). */
export function formatClockTime(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** `YYYY-MM-DD` in server local time: the date counters' days. */
export function formatDay(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

const WIRE_DATE = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/**
 * Reads a wire date (`YYYY-MM-DD HH:mm:ss`, server local time) as epoch ms; '' and ZERO_DATE → null (unset).
 * Returns undefined when the text is not such a date, or names a day that does not exist (2026-02-30).
 */
export function parseDate(text: string): number | null | undefined {
  if (text === '' || text === ZERO_DATE) return null;
  const m = WIRE_DATE.exec(text);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  const date = new Date(y, mo - 1, d, h, mi, s);
  const same = date.getFullYear() === y && date.getMonth() === mo - 1 && date.getDate() === d && date.getHours() === h && date.getMinutes() === mi && date.getSeconds() === s;
  return same ? date.getTime() : undefined;
}
