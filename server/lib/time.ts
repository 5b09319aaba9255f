/** The wire's date format is `YYYY-MM-DD HH:mm:ss` in server local time; an unset date is this exact string. */
export const ZERO_DATE = '0001-01-01 00:00:00';

const pad = (n: number) => String(n).padStart(2, '0');

/** Formats an epoch-ms timestamp (as stored) for the wire; null/undefined/0 → ZERO_DATE. */
export function formatDate(ms: number | null | undefined): string {
  if (!ms) return ZERO_DATE;
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}
