import type { Db } from '../db/index.ts';
import type { Strategy as StrategyRow, StrategyFlags } from '../db/schema.ts';
import { fail } from '../http/envelope.ts';
import { formatDate } from '../lib/time.ts';

/*
 * The strategies an authorisation may carry (contract §3.14), as the access rule, delegation, the bind routes and
 * live sessions read them: stored as 0/1 integers, JSON booleans on the wire. modules/strategies writes them.
 */

export const FLAGS = ['upload', 'download', 'delete', 'rename', 'edit', 'createDir', 'copy', 'paste'] as const satisfies readonly (keyof StrategyFlags)[];

export const MSG_STRATEGY_NOT_FOUND = (ids: readonly string[]) => `授权策略不存在：${ids.join(', ')}`;

/** The wire form: `{id, name, …8 boolean flags, created}`. */
export const toWire = (s: StrategyRow) => ({
  id: s.id,
  name: s.name,
  ...(Object.fromEntries(FLAGS.map((f) => [f, s[f] === 1])) as Record<(typeof FLAGS)[number], boolean>),
  created: formatDate(s.created),
});

export async function strategyOrFail(db: Db, id: string): Promise<StrategyRow> {
  const row = await db.selectFrom('strategies').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw fail(MSG_STRATEGY_NOT_FOUND([id]));
  return row;
}

export type Strategy = ReturnType<typeof toWire>;

/** The strategies with these ids (unknown ids are absent from the map). */
export async function strategiesById(db: Db, ids: readonly string[]): Promise<Map<string, Strategy>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('strategies').selectAll().where('id', 'in', ids).execute();
  return new Map(rows.map((s) => [s.id, toWire(s)]));
}

/** Throws -1 naming the strategy when it does not exist (`授权策略不存在：<id>`). */
export async function assertStrategyExists(db: Db, id: string): Promise<void> {
  await strategyOrFail(db, id);
}
