import type { Db } from '../../db/index.ts';
import { fail } from '../../http/envelope.ts';
import { paged, pageOf } from '../../http/paging.ts';
import { type Deps, defineModule, type RouteDef, route } from '../../http/routes.ts';
import { uuid } from '../../lib/ids.ts';
import { type Actor, actorOf } from '../../policy/containment.ts';
import { assertMayChangeOwner, ownerName, ownerQuery } from '../../policy/owner.ts';
import { idList, oneId, requireAll } from '../../http/ids.ts';
import { assertExists, COLUMNS, commandBody, commandPagingQuery, commandsMatching, MSG, SORTS, toWire } from './store.ts';
import { workerCommandRoutes } from './worker.ts';

/*
 * Dynamic commands, the admin side (contract §2.7, §3.6): saved snippets sent to a terminal as they are. Fixed 1.3.9
 * quirks: the `content` filter is honoured, real paging, method-correct gates. The user side (/worker/commands,
 * each caller's own) is worker.ts, on the same body and rows (store.ts).
 */

async function detail(db: Db, id: string) {
  const row = await db.selectFrom('commands as c').leftJoin('users as ou', 'ou.id', 'c.owner').select([...COLUMNS, ownerName]).where('c.id', '=', id).executeTakeFirst();
  if (!row) throw fail(MSG.notFound([id]));
  return toWire(row);
}

/**
 * A command is run by its owner from the terminal's snippets: rewriting or deleting another account's command acts
 * on that account, so the caller must be able to act on every owner (containment.ts; the super admin's commands are
 * its own). Owners deleted since are left out; the caller's own commands pass.
 */
async function assertMayTouch(trx: Db, actor: Actor, ids: readonly string[]): Promise<void> {
  const owners = await trx
    .selectFrom('commands as c')
    .innerJoin('users as u', 'u.id', 'c.owner')
    .select('u.id')
    .distinct()
    .where('c.id', 'in', ids)
    .where('u.id', '!=', actor.id)
    .execute();
  await actor.mayActOn(
    trx,
    owners.map((o) => o.id),
    'command',
  );
}

export default defineModule('commands', (deps) => [
  ...adminRoutes(deps),
  ...workerCommandRoutes(deps),
]);

function adminRoutes({ db, clock, catalogue }: Deps): RouteDef[] {
  return [
    route({
      method: 'GET',
      path: '/commands/paging',
      allow: 'granted',
      query: commandPagingQuery,
      handler: async ({ query }) => {
        const page = pageOf(query, SORTS, 'c.created');
        const base = commandsMatching(db, query);
        const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
        const rows = await base
          .leftJoin('users as ou', 'ou.id', 'c.owner')
          .select([...COLUMNS, ownerName])
          .orderBy(page.sort, page.direction)
          .orderBy('c.id', page.direction)
          .limit(page.limit)
          .offset(page.offset)
          .execute();
        return paged(total, rows.map(toWire));
      },
    }),

    route({
      method: 'GET',
      path: '/commands',
      allow: 'granted',
      handler: async () => (await db.selectFrom('commands as c').select(COLUMNS).orderBy('c.name').orderBy('c.id').execute()).map(toWire),
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
      body: commandBody,
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
      body: commandBody,
      handler: async ({ params, body, principal }) => {
        const actor = await actorOf(principal, catalogue, clock.now());
        await db.transaction().execute(async (trx) => {
          await assertExists(trx, params.id);
          await assertMayTouch(trx, actor, [params.id]);
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
      handler: async ({ params, principal }) => {
        const actor = await actorOf(principal, catalogue, clock.now());
        await db.transaction().execute(async (trx) => {
          const found = await trx.selectFrom('commands').select('id').where('id', 'in', params.id).execute();
          requireAll('动态指令', params.id, found.map((c) => c.id));
          await assertMayTouch(trx, actor, params.id);
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
      handler: async ({ params, query, principal }) => {
        const actor = await actorOf(principal, catalogue, clock.now());
        await db.transaction().execute(async (trx) => {
          await assertExists(trx, params.id);
          const { owner } = await trx.selectFrom('commands').select('owner').where('id', '=', params.id).executeTakeFirstOrThrow();
          // The command leaves one account's 我的指令 for another's: both must be accounts the caller may act on.
          await assertMayChangeOwner(trx, actor, owner, query.owner);
          await trx.updateTable('commands').set({ owner: query.owner }).where('id', '=', params.id).execute();
        });
        return '';
      },
    }),
  ];
}
