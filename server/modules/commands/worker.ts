import { fail } from '../../http/envelope.ts';
import { paged, pageOf } from '../../http/paging.ts';
import { type Deps, type RouteDef, route } from '../../http/routes.ts';
import { uuid } from '../../lib/ids.ts';
import { idList, oneId, requireAll } from '../../http/ids.ts';
import { assertExists, COLUMNS, commandBody, commandPagingQuery, commandsMatching, MSG, SORTS, toWire } from './store.ts';

/*
 * "My commands" (contract §2.8): any signed-in user's own dynamic commands. Every lookup is scoped to the caller, so
 * another user's command answers exactly as an unknown one (`动态指令不存在：<id>`): no oracle of what exists. Fixed
 * 1.3.9 quirk 31: a comma delete checks every id, and one id that is not the caller's refuses the whole delete.
 */

export const workerCommandRoutes = ({ db, clock }: Deps): RouteDef[] => [
  route({
    method: 'GET',
    path: '/worker/commands/paging',
    allow: 'authenticated',
    query: commandPagingQuery,
    handler: async ({ query, principal }) => {
      const page = pageOf(query, SORTS, 'c.created');
      const base = commandsMatching(db, query, principal.user.id);
      const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
      const rows = await base.select(COLUMNS).orderBy(page.sort, page.direction).orderBy('c.id', page.direction).limit(page.limit).offset(page.offset).execute();
      // `ownerName` is '' as in 1.3.9: the owner is the caller.
      return paged(
        total,
        rows.map((c) => ({ ...toWire(c), ownerName: '' })),
      );
    },
  }),

  route({
    method: 'GET',
    path: '/worker/commands',
    allow: 'authenticated',
    handler: async ({ principal }) =>
      (await db.selectFrom('commands as c').select(COLUMNS).where('c.owner', '=', principal.user.id).orderBy('c.name').orderBy('c.id').execute()).map(toWire),
  }),

  route({
    method: 'GET',
    path: '/worker/commands/:id',
    allow: 'authenticated',
    params: oneId,
    handler: async ({ params, principal }) => {
      const row = await db.selectFrom('commands as c').select(COLUMNS).where('c.id', '=', params.id).where('c.owner', '=', principal.user.id).executeTakeFirst();
      if (!row) throw fail(MSG.notFound([params.id]));
      return toWire(row);
    },
  }),

  route({
    method: 'POST',
    path: '/worker/commands',
    allow: 'authenticated',
    body: commandBody,
    handler: async ({ body, principal }) => {
      const row = { id: uuid(), name: body.name, content: body.content, owner: principal.user.id, created: clock.now() };
      await db.insertInto('commands').values(row).execute();
      return toWire(row);
    },
  }),

  route({
    method: 'PUT',
    path: '/worker/commands/:id',
    allow: 'authenticated',
    params: oneId,
    body: commandBody,
    handler: async ({ params, body, principal }) => {
      await db.transaction().execute(async (trx) => {
        await assertExists(trx, params.id, principal.user.id);
        await trx.updateTable('commands').set({ name: body.name, content: body.content }).where('id', '=', params.id).where('owner', '=', principal.user.id).execute();
      });
      return null;
    },
  }),

  route({
    method: 'DELETE',
    path: '/worker/commands/:id',
    allow: 'authenticated',
    params: idList,
    handler: async ({ params, principal }) => {
      await db.transaction().execute(async (trx) => {
        const mine = await trx.selectFrom('commands').select('id').where('id', 'in', params.id).where('owner', '=', principal.user.id).execute();
        requireAll('动态指令', params.id, mine.map((c) => c.id));
        await trx.deleteFrom('commands').where('id', 'in', params.id).where('owner', '=', principal.user.id).execute();
      });
      return null;
    },
  }),
];
