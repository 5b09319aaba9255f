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

/** A wire date in a body (`YYYY-MM-DD HH:mm:ss`) → epoch ms; absent, null, '' and the zero date → null (unset). */
export const zDate = z
  .string()
  .max(32, 'expected YYYY-MM-DD HH:mm:ss')
  .nullish()
  .transform((v, ctx) => {
    const ms = parseDate(v ?? '');
    if (ms === undefined) {
      ctx.addIssue({ code: 'custom', message: 'expected YYYY-MM-DD HH:mm:ss' });
      return z.NEVER;
    }
    return ms;
  });
