import { type Expression, type SqlBool, sql } from 'kysely';
import { z } from 'zod';
import { fail } from './envelope.ts';

export const MAX_ID = 64;
/** Bulk `:id` lists (contract §1.8): a console page selection, far below this. */
export const MAX_IDS = 500;

/** A display name (user nickname, role, group): trimmed, required. */
export const zName = (max = 64) => z.string().trim().min(1, 'required').max(max, `at most ${max} characters`);

export const zId = z.string().min(1, 'required').max(MAX_ID, `at most ${MAX_ID} characters`);

/** `/:id` with one id. */
export const oneId = z.object({ id: zId });

/** `/:id` with `a,b,c` (trimmed, de-duplicated, 1…MAX_IDS ids of ≤ MAX_ID characters each). */
export const idList = z.object({
  id: z
    .string()
    .max(MAX_IDS * (MAX_ID + 1), 'too long')
    .transform((v) => [...new Set(v.split(',').map((s) => s.trim()))].filter(Boolean))
    .pipe(z.array(zId).min(1, 'at least one id').max(MAX_IDS, `at most ${MAX_IDS} ids`)),
});

/** A list of ids in a body (members, roles); null/absent = none; duplicates dropped. */
export const zIdArray = z
  .array(zId)
  .max(MAX_IDS, `at most ${MAX_IDS} ids`)
  .nullish()
  .transform((v) => [...new Set(v ?? [])]);

/** `column LIKE %text%` with the text's own % and _ taken literally (1.3.9 let them act as wildcards). */
export function contains(column: string, text: string): Expression<SqlBool> {
  const escaped = text.replace(/[\\%_]/g, (c) => `\\${c}`);
  return sql<SqlBool>`${sql.ref(column)} like ${`%${escaped}%`} escape '\\'`;
}

/** Throws the `-1` answer naming the ids that matched no record (all-or-nothing operations). */
export function requireAll(what: string, wanted: readonly string[], found: Iterable<string>): void {
  const have = new Set(found);
  const missing = wanted.filter((id) => !have.has(id));
  if (missing.length) throw fail(`${what}不存在：${missing.join(', ')}`, missing);
}
