import { z } from 'zod';
import { parseDate } from '../lib/time.ts';
import { badRequest } from './envelope.ts';

/** Validates one part of a request; the first problem becomes `400 "<field>: <what is wrong>"`. No schema → undefined. */
export function parseInput<S extends z.ZodType | undefined>(part: 'body' | 'query' | 'params', schema: S, value: unknown): unknown {
  if (!schema) return undefined;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue && issue.path.length > 0 ? issue.path.join('.') : part;
  throw badRequest(`${field}: ${issue?.message ?? 'invalid'}`);
}

/**
 * A wire date field (`YYYY-MM-DD HH:mm:ss`) → epoch ms, or null when `''`, `null`, absent or the zero date
 * (1.3.9 answered 400 to ''/null: quirk 26).
 */
export const zDate = z
  .union([z.string().max(32), z.null()])
  .optional()
  .transform((v, ctx) => {
    const ms = parseDate(v);
    if (ms === undefined) {
      ctx.addIssue({ code: 'custom', message: 'expected a date like 2026-01-31 23:59:59' });
      return z.NEVER;
    }
    return ms;
  });

/** A short non-empty text field (names, ids). */
export const zText = (max = 255) => z.string().max(max);
