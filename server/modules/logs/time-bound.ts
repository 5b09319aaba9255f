import { z } from 'zod';
import { parseDate } from '../../lib/time.ts';

/**
 * A time bound: a wire date (`YYYY-MM-DD HH:mm:ss`, server local time) or epoch milliseconds; '' = no bound.
 * `exact` is false for a wire date, whose second covers 1000 ms.
 */
export const zTimeBound = z
  .string()
  .max(32)
  .transform((text, ctx) => {
    const t = text.trim();
    if (t === '') return undefined;
    if (/^\d{1,15}$/.test(t)) return { ms: Number(t), exact: true };
    const ms = parseDate(t);
    if (ms == null) {
      ctx.addIssue({ code: 'custom', message: 'expected YYYY-MM-DD HH:mm:ss or epoch milliseconds' });
      return z.NEVER;
    }
    return { ms, exact: false };
  })
  .optional();
