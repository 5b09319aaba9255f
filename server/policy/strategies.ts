import type { Db } from '../db/index.ts';
import { strategyOrFail, toWire } from '../modules/strategies/store.ts';

/*
 * The strategies an authorisation may carry (contract §3.14), as the access rule and the bind routes read them.
 * The table and its wire form belong to modules/strategies (store.ts).
 */

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
