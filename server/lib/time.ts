/** The wire's date format is `YYYY-MM-DD HH:mm:ss` in server local time; an unset date is this exact string. */
export const ZERO_DATE = '0001-01-01 00:00:00';

const pad = (n: number) => String(n).padStart(2, '0');

/** Formats an epoch-ms timestamp (as stored) for the wire; null/undefined/0 → ZERO_DATE. */
export function formatDate(ms: number | null | undefined): string {
  if (!ms) return ZERO_DATE;
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

const WIRE_DATE = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/**
 * Parses a wire date to epoch ms. `''`, `null` and ZERO_DATE mean "unset" (null) — 1.3.9 rejected them (quirk 26).
 * Returns undefined when the text is not a valid date.
 */
export function parseDate(text: string | null | undefined): number | null | undefined {
  if (text === null || text === undefined || text === '' || text === ZERO_DATE) return null;
  const m = WIRE_DATE.exec(text);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  const date = new Date(y, mo - 1, d, h, mi, s);
  // Reject overflow such as 2026-02-31 that Date would roll into March.
  if (date.getFullYear() !== y || date.getMonth() !== mo - 1 || date.getDate() !== d || date.getHours() !== h) return undefined;
  return date.getTime();
}
