import { z } from 'zod';
import type { Db } from '../../db/index.ts';
import { fail } from '../../http/envelope.ts';
import { paged, pageOf, pagingQuery } from '../../http/paging.ts';
import { defineModule, route } from '../../http/routes.ts';
import { uuid } from '../../lib/ids.ts';
import { assertNotOwnStrategy, assertWithinHold } from '../../policy/delegation.ts';
import { stateAt } from '../../policy/access-rule.ts';
import { assertMayAuthorise } from '../authorised/index.ts';
import { type Actor, actorOf } from '../../policy/containment.ts';
import { contains, idList, oneId, requireAll } from '../../http/ids.ts';
import { FLAGS, strategyOrFail, toWire } from '../../policy/strategies.ts';
import { assertNameFree, flagsOf, MSG, strategyBody } from './store.ts';

/*
 * Strategies (contract §2.18): the file-transfer and clipboard flags a grant carries. Fixed 1.3.9 quirks: real
 * paging (quirk 14), an update can turn a flag off (quirk 19), method-correct gates (quirk 2), unique names.
 */

/**
 * A strategy that grants still carry is not deleted (the grants would silently lose their restriction):
 * `-1 授权策略「x」仍被 3 个授权使用，不能删除`, one clause per strategy in use, the counts by id in `data`.
 */
async function assertNotInUse(trx: Db, strategies: readonly { id: string; name: string }[]): Promise<void> {
  const uses = await trx
    .selectFrom('authorised')
    .select((eb) => ['strategyId', eb.fn.countAll<number>().as('grants')])
    .where(
      'strategyId',
      'in',
      strategies.map((s) => s.id),
    )
    .groupBy('strategyId')
    .execute();
  if (uses.length === 0) return;
  const nameOf = new Map(strategies.map((s) => [s.id, s.name]));
  throw fail(
    uses.map((u) => MSG.inUse(nameOf.get(u.strategyId!) ?? u.strategyId!, Number(u.grants))).join('；'),
    Object.fromEntries(uses.map((u) => [u.strategyId!, Number(u.grants)])),
  );
}

/**
 * A strategy's flags are the rights of every grant carrying it: changing them re-states those grants, so the editor
 * passes the checks a bind of them would (access/delegation.ts), in the write's transaction, after the update:
 *   - it is not restricted by the strategy itself (a grant to it or to a group of its, any window);
 *   - it may act on every account those grants reach (the user, every member of a group: containment.ts) and open
 *     every asset they are on;
 *   - when a flag is turned on, the strategy allows no more than the editor's own grant on each of those assets.
 * A rename alone changes no right and is not checked. Grants that have expired give nothing and are left out.
 */
async function assertMayRestate(trx: Db, actor: Actor, strategy: { id: string; name: string }, widened: boolean, now: number): Promise<void> {
  await assertNotOwnStrategy(trx, actor.id, [strategy]);
  const grants = (await trx.selectFrom('authorised').select(['assetId', 'userId', 'userGroupId', 'validFrom', 'validUntil']).where('strategyId', '=', strategy.id).execute()).filter(
    (g) => stateAt(g, now) !== 'expired',
  );
  if (grants.length === 0) return;
  const assetIds = [...new Set(grants.map((g) => g.assetId))];
  await actor.mayGrantAssets(trx, assetIds);
  await assertMayAuthorise(trx, actor, {
    userIds: [...new Set(grants.flatMap((g) => (g.userId ? [g.userId] : [])))],
    userGroupIds: [...new Set(grants.flatMap((g) => (g.userGroupId ? [g.userGroupId] : [])))],
  });
  if (widened) await assertWithinHold(trx, actor.id, assetIds, { strategyId: strategy.id, validFrom: null, validUntil: null }, now, { strategyOnly: true });
}

export default defineModule('strategies', ({ db, clock, events, catalogue }) => [
  route({
    method: 'GET',
    path: '/strategies',
    allow: 'granted',
    handler: async () => (await db.selectFrom('strategies').selectAll().orderBy('name').orderBy('id').execute()).map(toWire),
  }),

  route({
    method: 'GET',
    path: '/strategies/paging',
    allow: 'granted',
    query: pagingQuery.extend({ name: z.string().max(64).optional() }),
    handler: async ({ query }) => {
      const page = pageOf(query, { name: 'name', created: 'created' }, 'created');
      let base = db.selectFrom('strategies');
      if (query.name) base = base.where(contains('name', query.name));
      const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
      const rows = await base.selectAll().orderBy(page.sort, page.direction).orderBy('id', page.direction).limit(page.limit).offset(page.offset).execute();
      return paged(total, rows.map(toWire));
    },
  }),

  route({
    method: 'GET',
    path: '/strategies/:id',
    allow: 'granted',
    params: oneId,
    handler: async ({ params }) => toWire(await strategyOrFail(db, params.id)),
  }),

  route({
    method: 'POST',
    path: '/strategies',
    allow: 'granted',
    body: strategyBody,
    handler: async ({ body }) => {
      const id = uuid();
      await db.transaction().execute(async (trx) => {
        await assertNameFree(trx, body.name);
        await trx.insertInto('strategies').values({ id, name: body.name, ...flagsOf(body), created: clock.now() }).execute();
      });
      return { id };
    },
  }),

  route({
    method: 'PUT',
    path: '/strategies/:id',
    allow: 'granted',
    params: oneId,
    body: strategyBody,
    handler: async ({ params, body, principal }) => {
      const now = clock.now();
      const actor = await actorOf(principal, catalogue, now);
      await db.transaction().execute(async (trx) => {
        const before = await strategyOrFail(trx, params.id);
        await assertNameFree(trx, body.name, params.id);
        const flags = flagsOf(body);
        await trx.updateTable('strategies').set({ name: body.name, ...flags }).where('id', '=', params.id).execute();
        // Checked after the write, in its transaction: the hold comparison reads the new flags; a refusal rolls back.
        if (FLAGS.some((f) => flags[f] !== before[f])) await assertMayRestate(trx, actor, before, FLAGS.some((f) => flags[f] === 1 && before[f] === 0), now);
      });
      // Running sessions take the new flags (their rows; file operations read the rule's current answer anyway).
      await events.emit('access.changed', {});
      return '';
    },
  }),

  route({
    method: 'DELETE',
    path: '/strategies/:id',
    allow: 'granted',
    params: idList,
    handler: async ({ params, principal }) => {
      await db.transaction().execute(async (trx) => {
        const found = await trx.selectFrom('strategies').select(['id', 'name']).where('id', 'in', params.id).execute();
        requireAll('授权策略', params.id, found.map((s) => s.id));
        // In use is refused below anyway; a strategy on the caller's own grant says why it is the caller's to keep.
        await assertNotOwnStrategy(trx, principal.user.id, found);
        await assertNotInUse(trx, found);
        await trx.deleteFrom('strategies').where('id', 'in', params.id).execute();
      });
      return null;
    },
  }),
]);
