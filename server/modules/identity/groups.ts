import { z } from 'zod';
import type { Db } from '../../db/index.ts';
import { fail } from '../../http/envelope.ts';
import { paged, pageOf, pagingQuery } from '../../http/paging.ts';
import { type Deps, type RouteDef, route } from '../../http/routes.ts';
import { sign, uuid } from '../../lib/ids.ts';
import { formatDate } from '../../lib/time.ts';
import { assertRemovalWidensNothing, assertWithinHold, type Terms } from '../../policy/delegation.ts';
import { stateAt } from '../../policy/access-rule.ts';
import { type Actor, actorOf } from '../../policy/containment.ts';
import { contains, idList, oneId, requireAll, zIdArray, zName } from '../../http/ids.ts';

const groupBody = z.object({ name: zName(64), members: zIdArray });

async function assertNameFree(trx: Db, name: string, exceptId?: string): Promise<void> {
  const other = await trx
    .selectFrom('userGroups')
    .select('id')
    .where('name', '=', name)
    .$if(exceptId !== undefined, (q) => q.where('id', '!=', exceptId!))
    .executeTakeFirst();
  if (other) throw fail(`用户组名称「${name}」已存在`);
}

/**
 * A member joining a group receives the group's grants (those not expired): the caller must be able to grant each of
 * them itself — open its asset, and hold it at least as broadly (access/delegation.ts `assertWithinHold`).
 */
async function assertMayHandOut(trx: Db, actor: Actor, userGroupId: string, now: number): Promise<void> {
  const grants = (await trx.selectFrom('authorised').select(['assetId', 'strategyId', 'validFrom', 'validUntil']).where('userGroupId', '=', userGroupId).execute()).filter(
    (g) => stateAt(g, now) !== 'expired',
  );
  if (grants.length === 0) return;
  await actor.mayGrantAssets(trx, [...new Set(grants.map((g) => g.assetId))]);
  const byTerms = new Map<string, { terms: Terms; assetIds: string[] }>();
  for (const g of grants) {
    const terms: Terms = { strategyId: g.strategyId, validFrom: g.validFrom, validUntil: g.validUntil };
    const key = JSON.stringify(terms);
    const entry = byTerms.get(key) ?? { terms, assetIds: [] };
    entry.assetIds.push(g.assetId);
    byTerms.set(key, entry);
  }
  for (const { terms, assetIds } of byTerms.values()) await assertWithinHold(trx, actor.id, assetIds, terms, now);
}

/**
 * Members leaving groups lose those groups' grants; another grant of theirs may then win. It must not be broader than
 * what the caller holds on that asset (access/delegation.ts `assertRemovalWidensNothing`).
 */
async function assertLeavingWidensNothing(trx: Db, actor: Actor, groupIds: readonly string[], leaving: readonly string[], now: number): Promise<void> {
  if (leaving.length === 0) return;
  const assets = await trx.selectFrom('authorised').select('assetId').distinct().where('userGroupId', 'in', groupIds).execute();
  const assetIds = assets.map((a) => a.assetId);
  const without = { groupIds: new Set(groupIds) };
  await assertRemovalWidensNothing(
    trx,
    actor.id,
    leaving.map((userId) => ({ userId, assetIds, without })),
    now,
  );
}

/**
 * Replaces a group's members. Joining or leaving a group changes what an account may reach, so every account added
 * or removed must be one the caller may act on (containment.ts; never itself), a member added receives only grants
 * the caller could give, and a member removed is not left with a broader grant deciding; members that stay are not
 * checked.
 */
async function setMembers(trx: Db, actor: Actor, userGroupId: string, members: readonly string[], now: number): Promise<string[]> {
  const before = (await trx.selectFrom('userGroupMembers').select('userId').where('userGroupId', '=', userGroupId).execute()).map((m) => m.userId);
  const removed = before.filter((m) => !members.includes(m));
  const changed = [...members.filter((m) => !before.includes(m)), ...removed];
  await actor.mayActOn(trx, changed, 'groups');
  if (changed.length > removed.length) await assertMayHandOut(trx, actor, userGroupId, now);
  await assertLeavingWidensNothing(trx, actor, [userGroupId], removed, now);
  await trx.deleteFrom('userGroupMembers').where('userGroupId', '=', userGroupId).execute();
  if (members.length) {
    await trx
      .insertInto('userGroupMembers')
      .values(members.map((userId) => ({ id: sign([userGroupId, userId]), userId, userGroupId })))
      .execute();
  }
  return changed;
}

export const groupRoutes = ({ db, clock, catalogue, events }: Deps): RouteDef[] => [
  route({
    method: 'GET',
    path: '/user-groups/paging',
    allow: 'granted',
    query: pagingQuery.extend({ name: z.string().max(64).optional() }),
    handler: async ({ query }) => {
      const page = pageOf(query, { name: 'name', created: 'created' }, 'created');
      let base = db.selectFrom('userGroups');
      if (query.name) base = base.where(contains('name', query.name));
      const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
      const rows = await base.selectAll().orderBy(page.sort, page.direction).orderBy('id', page.direction).limit(page.limit).offset(page.offset).execute();
      // Authorisation does not exist yet: no group has assets.
      return paged(
        total,
        rows.map((g) => ({ ...g, created: formatDate(g.created), assetCount: 0 })),
      );
    },
  }),

  route({
    method: 'GET',
    path: '/user-groups',
    allow: 'granted',
    handler: async () => (await db.selectFrom('userGroups').selectAll().orderBy('name').orderBy('id').execute()).map((g) => ({ ...g, created: formatDate(g.created), members: null })),
  }),

  route({
    method: 'GET',
    path: '/user-groups/:id',
    allow: 'granted',
    params: oneId,
    handler: async ({ params }) => {
      const group = await db.selectFrom('userGroups').selectAll().where('id', '=', params.id).executeTakeFirst();
      if (!group) throw fail(`用户组不存在：${params.id}`);
      const members = await db
        .selectFrom('userGroupMembers as m')
        .innerJoin('users as u', 'u.id', 'm.userId')
        .select(['u.id', 'u.nickname as name'])
        .where('m.userGroupId', '=', group.id)
        .orderBy('u.nickname')
        .orderBy('u.id')
        .execute();
      return { id: group.id, name: group.name, members, created: formatDate(group.created) };
    },
  }),

  route({
    method: 'POST',
    path: '/user-groups',
    allow: 'granted',
    body: groupBody,
    handler: async ({ body, principal }) => {
      const id = uuid();
      const created = clock.now();
      const actor = await actorOf(principal, catalogue, clock.now());
      await db.transaction().execute(async (trx) => {
        await assertNameFree(trx, body.name);
        await trx.insertInto('userGroups').values({ id, name: body.name, created }).execute();
        await setMembers(trx, actor, id, body.members, clock.now());
      });
      return { id, name: body.name, members: body.members, created: formatDate(created) };
    },
  }),

  route({
    method: 'PUT',
    path: '/user-groups/:id',
    allow: 'granted',
    params: oneId,
    body: groupBody,
    handler: async ({ params, body, principal }) => {
      const actor = await actorOf(principal, catalogue, clock.now());
      const changed = await db.transaction().execute(async (trx) => {
        const found = await trx.selectFrom('userGroups').select('id').where('id', '=', params.id).executeTakeFirst();
        if (!found) throw fail(`用户组不存在：${params.id}`);
        await assertNameFree(trx, body.name, params.id);
        await trx.updateTable('userGroups').set({ name: body.name }).where('id', '=', params.id).execute();
        return setMembers(trx, actor, params.id, body.members, clock.now());
      });
      // Who joined or left may reach other assets now: their running sessions ask the rule again.
      if (changed.length) await events.emit('access.changed', { userIds: changed });
      return null;
    },
  }),

  route({
    method: 'DELETE',
    path: '/user-groups/:id',
    allow: 'granted',
    params: idList,
    handler: async ({ params, principal }) => {
      const actor = await actorOf(principal, catalogue, clock.now());
      const left = await db.transaction().execute(async (trx) => {
        const found = await trx.selectFrom('userGroups').select('id').where('id', 'in', params.id).execute();
        requireAll('用户组', params.id, found.map((g) => g.id));
        // Deleting a group takes its members out of it: the same check as removing them one by one.
        const members = await trx.selectFrom('userGroupMembers').select('userId').distinct().where('userGroupId', 'in', params.id).execute();
        await actor.mayActOn(
          trx,
          members.map((m) => m.userId),
          'groups',
        );
        await assertLeavingWidensNothing(
          trx,
          actor,
          params.id,
          members.map((m) => m.userId),
          clock.now(),
        );
        await trx.deleteFrom('userGroupMembers').where('userGroupId', 'in', params.id).execute();
        await trx.deleteFrom('userGroups').where('id', 'in', params.id).execute();
        return members.map((m) => m.userId);
      });
      if (left.length) await events.emit('access.changed', { userIds: left });
      return null;
    },
  }),
];
