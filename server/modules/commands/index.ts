import { z } from 'zod';
import type { Db } from '../../db/index.ts';
import { fail } from '../../http/envelope.ts';
import { paged, pageOf, pagingQuery } from '../../http/paging.ts';
import { defineModule, route } from '../../http/routes.ts';
import { uuid } from '../../lib/ids.ts';
import { formatDate } from '../../lib/time.ts';
import { assertUserExists, ownerName, ownerQuery } from '../identity/owner.ts';
import { contains, idList, oneId, requireAll, zName } from '../identity/shared.ts';

/*
 * Dynamic commands, the admin side (contract §2.7, §3.6): saved snippets sent to a terminal as they are. Fixed 1.3.9
 * quirks: the `content` filter is honoured, real paging, method-correct gates. The user side (/worker/commands)
 * belongs to the worker issue.
 */

const MAX_CONTENT = 64 * 1024;

const body = z.object({
  name: zName(128),
  // Sent to a terminal as typed: not trimmed, but blank is no command.
  content: z
    .string()
    .max(MAX_CONTENT, `at most ${MAX_CONTENT} characters`)
    .refine((v) => v.trim() !== '', 'required'),
});

const COLUMNS = ['c.id', 'c.name', 'c.content', 'c.owner', 'c.created'] as const;

async function assertExists(trx: Db, id: string): Promise<void> {
  const found = await trx.selectFrom('commands').select('id').where('id', '=', id).executeTakeFirst();
  if (!found) throw fail(`动态指令不存在：${id}`);
}

async function detail(db: Db, id: string) {
  const row = await db.selectFrom('commands as c').leftJoin('users as ou', 'ou.id', 'c.owner').select([...COLUMNS, ownerName]).where('c.id', '=', id).executeTakeFirst();
  if (!row) throw fail(`动态指令不存在：${id}`);
  return { ...row, created: formatDate(row.created) };
}

export default defineModule('commands', ({ db, clock }) => [
  route({
    method: 'GET',
    path: '/commands/paging',
    allow: 'granted',
    query: pagingQuery.extend({ name: z.string().max(128).optional(), content: z.string().max(1024).optional() }),
    handler: async ({ query }) => {
      const page = pageOf(query, { name: 'c.name', created: 'c.created' }, 'c.created');
      let base = db.selectFrom('commands as c');
      if (query.name) base = base.where(contains('c.name', query.name));
      if (query.content) base = base.where(contains('c.content', query.content));
      const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
      const rows = await base
        .leftJoin('users as ou', 'ou.id', 'c.owner')
        .select([...COLUMNS, ownerName])
        .orderBy(page.sort, page.direction)
        .orderBy('c.id', page.direction)
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      return paged(
        total,
        rows.map((c) => ({ ...c, created: formatDate(c.created) })),
      );
    },
  }),

  route({
    method: 'GET',
    path: '/commands',
    allow: 'granted',
    handler: async () => {
      const rows = await db.selectFrom('commands as c').select(COLUMNS).orderBy('c.name').orderBy('c.id').execute();
      return rows.map((c) => ({ ...c, created: formatDate(c.created) }));
    },
  }),

  route({
    method: 'GET',
    path: '/commands/:id',
    allow: 'granted',
    params: oneId,
    handler: ({ params }) => detail(db, params.id),
  }),

  route({
    method: 'POST',
    path: '/commands',
    allow: 'granted',
    body,
    handler: async ({ body, principal }) => {
      const id = uuid();
      await db.insertInto('commands').values({ id, name: body.name, content: body.content, owner: principal.user.id, created: clock.now() }).execute();
      return detail(db, id);
    },
  }),

  route({
    method: 'PUT',
    path: '/commands/:id',
    allow: 'granted',
    params: oneId,
    body,
    handler: async ({ params, body }) => {
      await db.transaction().execute(async (trx) => {
        await assertExists(trx, params.id);
        await trx.updateTable('commands').set({ name: body.name, content: body.content }).where('id', '=', params.id).execute();
      });
      return null;
    },
  }),

  route({
    method: 'DELETE',
    path: '/commands/:id',
    allow: 'granted',
    params: idList,
    handler: async ({ params }) => {
      await db.transaction().execute(async (trx) => {
        const found = await trx.selectFrom('commands').select('id').where('id', 'in', params.id).execute();
        requireAll('动态指令', params.id, found.map((c) => c.id));
        await trx.deleteFrom('commands').where('id', 'in', params.id).execute();
      });
      return null;
    },
  }),

  route({
    method: 'POST',
    path: '/commands/:id/change-owner',
    allow: 'granted',
    params: oneId,
    query: ownerQuery,
    handler: async ({ params, query }) => {
      await db.transaction().execute(async (trx) => {
        await assertExists(trx, params.id);
        await assertUserExists(trx, query.owner);
        await trx.updateTable('commands').set({ owner: query.owner }).where('id', '=', params.id).execute();
      });
      return '';
    },
  }),
]);
