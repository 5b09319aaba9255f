import { z } from 'zod';
import type { Db } from '../../db/index.ts';
import { fail } from '../../http/envelope.ts';
import { pagingQuery } from '../../http/paging.ts';
import { formatDate } from '../../lib/time.ts';
import { contains, zName } from '../../http/ids.ts';

/*
 * What the admin commands (/commands) and the user's own (/worker/commands) share: the body, the columns, the list
 * filters and the messages. The worker side passes an owner to every lookup, so it never sees another user's rows.
 */

const MAX_CONTENT = 64 * 1024;

export const commandBody = z.object({
  name: zName(128),
  // Sent to a terminal as typed: not trimmed, but blank is no command.
  content: z
    .string()
    .max(MAX_CONTENT, `at most ${MAX_CONTENT} characters`)
    .refine((v) => v.trim() !== '', 'required'),
});

export const commandPagingQuery = pagingQuery.extend({ name: z.string().max(128).optional(), content: z.string().max(1024).optional() });

/** The wire `field` values the lists sort by (default created). */
export const SORTS = { name: 'c.name', created: 'c.created' } as const;

export const COLUMNS = ['c.id', 'c.name', 'c.content', 'c.owner', 'c.created'] as const;

export const MSG = { notFound: (ids: readonly string[]) => `动态指令不存在：${ids.join(', ')}` };

/** `commands as c` narrowed by the list's name and content filters (LIKE, escaped), and to one owner when given. */
export function commandsMatching(db: Db, query: { name?: string; content?: string }, owner?: string) {
  let base = db.selectFrom('commands as c');
  if (owner !== undefined) base = base.where('c.owner', '=', owner);
  if (query.name) base = base.where(contains('c.name', query.name));
  if (query.content) base = base.where(contains('c.content', query.content));
  return base;
}

export const toWire = <T extends { created: number }>(c: T) => ({ ...c, created: formatDate(c.created) });

/** Fails as "not found" unless the command exists (and, given an owner, is that user's: the same answer, no oracle). */
export async function assertExists(trx: Db, id: string, owner?: string): Promise<void> {
  const found = await trx
    .selectFrom('commands')
    .select('id')
    .where('id', '=', id)
    .$if(owner !== undefined, (q) => q.where('owner', '=', owner!))
    .executeTakeFirst();
  if (!found) throw fail(MSG.notFound([id]));
}
