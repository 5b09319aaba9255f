import { z } from 'zod';
import { both, say } from '../lib/i18n.ts';
import { parseDate } from '../lib/time.ts';
import { badRequest } from './envelope.ts';

// zod's own wording of the problems a schema does not word itself, per language (a schema's message wins).
const ZOD_ZH = z.locales.zhCN().localeError;
const ZOD_EN = z.locales.en().localeError;

/**
 * Validates one part of a request; the first problem becomes `400 "<field>: <what is wrong>"`, said in both languages
 * (the envelope picks the caller's): zod's own messages in its zh-CN or English wording, a schema's message as
 * declared (translated when declared with `text`, lib/i18n.ts). No schema → undefined.
 */
export function parseInput<S extends z.ZodType | undefined>(part: 'body' | 'query' | 'params', schema: S, value: unknown): unknown {
  if (!schema) return undefined;
  const result = schema.safeParse(value, { error: ZOD_ZH });
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue && issue.path.length > 0 ? issue.path.join('.') : part;
  // Only on failure: the same input again, for zod's English wording of the same first problem.
  const en = schema.safeParse(value, { error: ZOD_EN }).error?.issues[0]?.message;
  const zh = issue?.message ?? 'invalid';
  throw badRequest(both(`${field}: ${zh}`, `${field}: ${say(en ?? zh, 'en-US')}`));
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
