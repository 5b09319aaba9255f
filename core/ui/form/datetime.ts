// The wire writes a moment as `YYYY-MM-DD HH:mm:ss` (server local time); an <input type="datetime-local"> reads and
// writes `YYYY-MM-DDTHH:mm[:ss]`. These convert between the two without touching the clock (no time zone shift).

/** A complete wire date-time, `YYYY-MM-DD HH:mm:ss`. */
export const WIRE_DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** A wire date-time as the value of a datetime-local input; '' for anything else (unset, malformed). */
export function toDateTimeLocal(wire: unknown): string {
  return typeof wire === 'string' && WIRE_DATE_TIME.test(wire) ? wire.replace(' ', 'T') : '';
}

/** A datetime-local input's value on the wire; seconds default to `00` (browsers leave them out at step 60). */
export function fromDateTimeLocal(local: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(:\d{2})?(\.\d+)?$/.exec(local);
  if (!m) return '';
  return `${m[1]} ${m[2]}${m[3] ?? ':00'}`;
}
