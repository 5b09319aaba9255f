import { z } from 'zod';
import type { Db } from '../../db/index.ts';
import type { Strategy, StrategyFlags } from '../../db/schema.ts';
import { fail } from '../../http/envelope.ts';
import { formatDate } from '../../lib/time.ts';
import { zName } from '../../http/ids.ts';

/* Strategies (contract §3.14): stored as 0/1 integers, JSON booleans on the wire. Shared by the routes and POST /sessions. */

export const FLAGS = ['upload', 'download', 'delete', 'rename', 'edit', 'createDir', 'copy', 'paste'] as const satisfies readonly (keyof StrategyFlags)[];

export const MSG = {
  notFound: (ids: readonly string[]) => `授权策略不存在：${ids.join(', ')}`,
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

/** The wire form: `{id, name, …8 boolean flags, created}`. */
export const toWire = (s: Strategy) => ({
  id: s.id,
  name: s.name,
  ...(Object.fromEntries(FLAGS.map((f) => [f, s[f] === 1])) as Record<(typeof FLAGS)[number], boolean>),
  created: formatDate(s.created),
});

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

export async function strategyOrFail(db: Db, id: string): Promise<Strategy> {
  const row = await db.selectFrom('strategies').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw fail(MSG.notFound([id]));
  return row;
}
