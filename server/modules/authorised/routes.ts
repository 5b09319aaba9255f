import { z } from 'zod';
import { fail } from '../../http/envelope.ts';
import { type Deps, type RouteDef, route } from '../../http/routes.ts';
import type { Db } from '../../db/index.ts';
import { assertRemovalWidensNothing, type Removal } from '../../policy/delegation.ts';
import { explain } from '../../policy/access-rule.ts';
import { MSG as ASSET_MSG } from '../assets/index.ts';
import { actorOf } from '../../policy/containment.ts';
import { idList, MAX_IDS, zId } from '../../http/ids.ts';
import { assertAssetsExist, assertMayAuthorise, grant, grantFields, MAX_PAIRS, MSG, zIds, zOptionalId } from './store.ts';

/*
 * Binding and unbinding (contract §2.21 + wire-12): from the asset side (users, user groups) and from the user or
 * user-group side (assets). Every write checks that the ids exist, that the caller may open the assets it hands out
 * or takes back and may act on the accounts whose reach changes, and the window; all in one transaction,
 * all-or-nothing. Then the live sessions on those assets are checked against the rule again: a grant removed, or
 * replaced by a narrower one (another strategy, a window not begun yet), ends those it refuses (sessions/cuts.ts).
 */

/** The accounts an unbind changes (the user, every member of a group) and on which assets, without those rows. */
async function removalsOf(trx: Db, rows: readonly { id: string; userId: string | null; userGroupId: string | null; assetId: string }[]): Promise<Removal[]> {
  const without = { grantIds: new Set(rows.map((r) => r.id)) };
  const byUser = new Map<string, Set<string>>();
  const add = (userId: string, assetId: string) => byUser.set(userId, (byUser.get(userId) ?? new Set()).add(assetId));
  for (const r of rows) if (r.userId) add(r.userId, r.assetId);
  const groupRows = rows.filter((r) => r.userGroupId !== null);
  if (groupRows.length) {
    const members = await trx
      .selectFrom('userGroupMembers')
      .select(['userId', 'userGroupId'])
      .where(
        'userGroupId',
        'in',
        groupRows.map((r) => r.userGroupId!),
      )
      .execute();
    for (const r of groupRows) for (const m of members) if (m.userGroupId === r.userGroupId) add(m.userId, r.assetId);
  }
  return [...byUser].map(([userId, assetIds]) => ({ userId, assetIds: [...assetIds], without }));
}

const byUsers = z.object({ userIds: zIds, assetId: zId, ...grantFields });

/** 1.3.9 declares `UserGroupIds` (capital U) and its console sends `userGroupIds`: both are read. */
const byGroups = z.preprocess(
  (v) => (v && typeof v === 'object' && !('userGroupIds' in v) && 'UserGroupIds' in v ? { ...v, userGroupIds: (v as { UserGroupIds: unknown }).UserGroupIds } : v),
  z.object({ userGroupIds: zIds, assetId: zId, ...grantFields }),
);

const byAssets = z.object({ assetIds: zIds, userId: zOptionalId, userGroupId: zOptionalId, ...grantFields });

/** Optional subject lists of the bulk grant: absent, null or [] = none. */
const zSubjects = z
  .array(zId)
  .max(MAX_IDS, `at most ${MAX_IDS} ids`)
  .nullish()
  .transform((v) => [...new Set(v ?? [])]);

/** Several users and/or user groups × several assets, one set of terms (the authorisation page's 授权). */
const bulkBody = z
  .object({ userIds: zSubjects, userGroupIds: zSubjects, assetIds: zIds, ...grantFields })
  .refine((b) => b.userIds.length + b.userGroupIds.length > 0, { message: 'at least one user or user group', path: ['userIds'] })
  .refine((b) => (b.userIds.length + b.userGroupIds.length) * b.assetIds.length <= MAX_PAIRS, {
    message: `at most ${MAX_PAIRS} grants at once (subjects × assets)`,
    path: ['assetIds'],
  });

const selectedQuery = z.object({
  key: z.enum(['userId', 'userGroupId', 'assetId'], { message: 'expected one of: userId, userGroupId, assetId' }),
  userId: zOptionalId,
  userGroupId: zOptionalId,
  assetId: zOptionalId,
});

export const bindRoutes = ({ db, clock, catalogue, events }: Deps): RouteDef[] => [
  route({
    method: 'POST',
    path: '/authorised/users',
    allow: 'granted',
    body: byUsers,
    handler: async ({ body, principal }) => {
      const actor = await actorOf(principal, catalogue, clock.now());
      await db.transaction().execute(async (trx) => {
        await assertAssetsExist(trx, [body.assetId]);
        await actor.mayGrantAssets(trx, [body.assetId]);
        await assertMayAuthorise(trx, actor, { userIds: body.userIds });
        const pairs = body.userIds.map((userId) => ({ assetId: body.assetId, userId, userGroupId: null }));
        await grant(trx, pairs, body, clock.now(), actor.id);
      });
      await events.emit('access.changed', { assetIds: [body.assetId] });
      return null;
    },
  }),

  route({
    method: 'POST',
    path: '/authorised/user-groups',
    allow: 'granted',
    body: byGroups,
    handler: async ({ body, principal }) => {
      const actor = await actorOf(principal, catalogue, clock.now());
      await db.transaction().execute(async (trx) => {
        await assertAssetsExist(trx, [body.assetId]);
        await actor.mayGrantAssets(trx, [body.assetId]);
        await assertMayAuthorise(trx, actor, { userGroupIds: body.userGroupIds });
        const pairs = body.userGroupIds.map((userGroupId) => ({ assetId: body.assetId, userId: null, userGroupId }));
        await grant(trx, pairs, body, clock.now(), actor.id);
      });
      await events.emit('access.changed', { assetIds: [body.assetId] });
      return null;
    },
  }),

  route({
    method: 'POST',
    path: '/authorised/assets',
    allow: 'granted',
    body: byAssets,
    handler: async ({ body, principal }) => {
      const { userId, userGroupId } = body;
      if ((userId === null) === (userGroupId === null)) throw fail(MSG.oneSubject);
      const actor = await actorOf(principal, catalogue, clock.now());
      await db.transaction().execute(async (trx) => {
        await assertAssetsExist(trx, body.assetIds);
        await actor.mayGrantAssets(trx, body.assetIds);
        await assertMayAuthorise(trx, actor, userId ? { userIds: [userId] } : { userGroupIds: [userGroupId!] });
        const pairs = body.assetIds.map((assetId) => ({ assetId, userId, userGroupId }));
        await grant(trx, pairs, body, clock.now(), actor.id);
      });
      await events.emit('access.changed', { assetIds: body.assetIds });
      return null;
    },
  }),

  route({
    method: 'POST',
    path: '/authorised/bulk',
    allow: 'granted',
    body: bulkBody,
    handler: async ({ body, principal }) => {
      const { userIds, userGroupIds, assetIds } = body;
      const actor = await actorOf(principal, catalogue, clock.now());
      await db.transaction().execute(async (trx) => {
        await assertAssetsExist(trx, assetIds);
        await actor.mayGrantAssets(trx, assetIds);
        await assertMayAuthorise(trx, actor, { userIds, userGroupIds });
        const pairs = assetIds.flatMap((assetId) => [
          ...userIds.map((userId) => ({ assetId, userId, userGroupId: null })),
          ...userGroupIds.map((userGroupId) => ({ assetId, userId: null, userGroupId })),
        ]);
        await grant(trx, pairs, body, clock.now(), actor.id);
      });
      await events.emit('access.changed', { assetIds });
      return { granted: (userIds.length + userGroupIds.length) * assetIds.length };
    },
  }),

  route({
    method: 'DELETE',
    path: '/authorised/:id',
    allow: 'granted',
    // One id (1.3.9) or a comma list (the authorisation page's selection): all-or-nothing.
    params: idList,
    handler: async ({ params, principal }) => {
      const actor = await actorOf(principal, catalogue, clock.now());
      const assetIds = await db.transaction().execute(async (trx) => {
        const rows = await trx.selectFrom('authorised').select(['id', 'userId', 'userGroupId', 'assetId']).where('id', 'in', params.id).execute();
        const missing = params.id.filter((id) => !rows.some((r) => r.id === id));
        if (missing.length) throw fail(MSG.notFound(missing.join(', ')), missing);
        const assets = [...new Set(rows.map((r) => r.assetId))];
        await actor.mayGrantAssets(trx, assets);
        await assertMayAuthorise(trx, actor, {
          userIds: rows.flatMap((r) => (r.userId ? [r.userId] : [])),
          userGroupIds: rows.flatMap((r) => (r.userGroupId ? [r.userGroupId] : [])),
        });
        await assertRemovalWidensNothing(trx, actor.id, await removalsOf(trx, rows), clock.now());
        await trx.deleteFrom('authorised').where('id', 'in', params.id).execute();
        return assets;
      });
      await events.emit('access.changed', { assetIds });
      return '';
    },
  }),

  route({
    method: 'GET',
    path: '/authorised/selected',
    allow: 'granted',
    query: selectedQuery,
    handler: async ({ query }) => {
      const rows = await db
        .selectFrom('authorised')
        .select(`${query.key} as value`)
        .distinct()
        .where(query.key, 'is not', null)
        .$if(query.userId !== null, (q) => q.where('userId', '=', query.userId))
        .$if(query.userGroupId !== null, (q) => q.where('userGroupId', '=', query.userGroupId))
        .$if(query.assetId !== null, (q) => q.where('assetId', '=', query.assetId!))
        .execute();
      return rows.map((r) => r.value).filter((v): v is string => v !== null);
    },
  }),

  route({
    method: 'GET',
    path: '/authorised/explain',
    allow: 'granted',
    query: z.object({ userId: zId, assetId: zId }),
    handler: async ({ query }) => {
      const user = await db.selectFrom('users').select('id').where('id', '=', query.userId).executeTakeFirst();
      if (!user) throw fail(`用户不存在：${query.userId}`, [query.userId]);
      const asset = await db.selectFrom('assets').select('id').where('id', '=', query.assetId).executeTakeFirst();
      if (!asset) throw fail(ASSET_MSG.notFound([query.assetId]), [query.assetId]);
      return explain(db, query.userId, query.assetId, clock.now());
    },
  }),
];
