// The wire writes a moment as `YYYY-MM-DD HH:mm:ss` (server local time). The kit's date-time field edits it as two
// texts, a date and a time, in that same order whatever the browser's locale (a native picker shows mm/dd/yyyy in an
// English browser). These convert between the two without touching the clock (no time zone shift).

/** A complete wire date-time, `YYYY-MM-DD HH:mm:ss`. */
export const WIRE_DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

const pad = (n: number) => String(n).padStart(2, '0');

/** A wire date-time split into its date and time texts; both '' for anything else (unset, malformed). */
export function splitDateTime(wire: unknown): { date: string; time: string } {
  if (typeof wire !== 'string' || !WIRE_DATE_TIME.test(wire)) return { date: '', time: '' };
  const [date = '', time = ''] = wire.split(' ');
  return { date, time };
}

/** A typed date (`2026-1-5` or `2026-01-05`) as `YYYY-MM-DD` if it is a day of the calendar, else undefined. */
export function parseDate(text: string): string | undefined {
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text.trim());
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const day = new Date(y, mo - 1, d);
  if (day.getFullYear() !== y || day.getMonth() !== mo - 1 || day.getDate() !== d) return undefined;
  return `${m[1]}-${pad(mo)}-${pad(d)}`;
}

/** A typed time (`9:05`, `09:05`, `09:05:30`) as `HH:mm:ss`, else undefined. */
export function parseTime(text: string): string | undefined {
  const m = /^(\d{1,2}):(\d{1,2})(?::(\d{1,2}))?$/.exec(text.trim());
  if (!m) return undefined;
  const [h, mi, s] = [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
  if (h > 23 || mi > 59 || s > 59) return undefined;
  return `${pad(h)}:${pad(mi)}:${pad(s)}`;
}

/**
 * The field's value for a typed date and time: '' when both are empty, the wire date-time when both read (an empty
 * time is `defaultTime`), else the texts as typed joined by `T` — never a wire value, so the form says it is invalid.
 */
export function joinDateTime(date: string, time: string, defaultTime = '00:00:00'): string {
  if (date.trim() === '' && time.trim() === '') return '';
  const d = parseDate(date);
  const t = time.trim() === '' ? defaultTime : parseTime(time);
  return d && t ? `${d} ${t}` : `${date.trim()}T${time.trim()}`;
}

/** A day of the local calendar as `YYYY-MM-DD`. */
export function formatDay(day: Date): string {
  return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
}
