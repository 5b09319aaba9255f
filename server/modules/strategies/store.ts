import { z } from 'zod';
import type { Db } from '../../db/index.ts';
import type { StrategyFlags } from '../../db/schema.ts';
import { fail } from '../../http/envelope.ts';
import { FLAGS, MSG_STRATEGY_NOT_FOUND } from '../../policy/strategies.ts';
import { zName } from '../../http/ids.ts';

/* Strategies (contract §3.14): stored as 0/1 integers, JSON booleans on the wire. Shared by the routes and POST /sessions. */

export const MSG = {
  notFound: MSG_STRATEGY_NOT_FOUND,
  nameTaken: (name: string) => `授权策略名称「${name}」已存在`,
  inUse: (name: string, grants: number) => `授权策略「${name}」仍被 ${grants} 个授权使用，不能删除`,
};

/** A flag the body leaves out is off (1.3.9's default false), on create and on update alike. */
const flag = z.boolean().default(false);

export const strategyBody = z.object({
  name: zName(64),
  upload: flag,
  download: flag,
  delete: flag,
  rename: flag,
  edit: flag,
  createDir: flag,
  copy: flag,
  paste: flag,
});

export type StrategyBody = z.output<typeof strategyBody>;

/** The body's flags as stored. */
export const flagsOf = (body: StrategyBody): StrategyFlags =>
  Object.fromEntries(FLAGS.map((f) => [f, body[f] ? 1 : 0])) as unknown as StrategyFlags;


/** Names are unique (strategies_name): checked inside the writing transaction for a clear answer. */
export async function assertNameFree(trx: Db, name: string, exceptId?: string): Promise<void> {
  const other = await trx
    .selectFrom('strategies')
    .select('id')
    .where('name', '=', name)
    .$if(exceptId !== undefined, (q) => q.where('id', '!=', exceptId!))
    .executeTakeFirst();
  if (other) throw fail(MSG.nameTaken(name));
}
