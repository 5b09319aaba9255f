import { type Expression, type SqlBool, sql } from 'kysely';
import { z } from 'zod';
import { paged, pageOf, pagingQuery } from '../../http/paging.ts';
import { type Deps, type RouteDef, route } from '../../http/routes.ts';
import { formatDate } from '../../lib/time.ts';
import { openableAssetIds, stateAt, windowDate } from '../../policy/access-rule.ts';
import { strategiesById } from '../../policy/strategies.ts';
import { contains } from '../../http/ids.ts';
import { zOptionalId } from './store.ts';

/*
 * The three authorisation lists (contract §2.21, §3.19 + wire-12): real paging, and `total` counts the rows the
 * page walks (1.3.9 counted another table, quirk 15). Each item adds its window (`''` = open) and its `state` now.
 * The name filter is read under both names the 1.3.9 console and server disagree on (quirk 27).
 */

/** An optional choice among `values`; '' = none. */
const choice = <T extends string>(values: readonly [T, ...T[]]) =>
  z.preprocess((v) => (v === '' ? undefined : v), z.enum(values, { message: `expected one of: ${values.join(', ')}` }).optional());

/** The SQL twin of `stateAt(t, now) === state` for the authorised row aliased `t`. */
function stateIs(state: 'active' | 'pending' | 'expired', now: number): Expression<SqlBool> {
  const from = sql.ref('t.validFrom');
  const until = sql.ref('t.validUntil');
  const begun = sql`(${from} is null or ${from} <= ${now})`;
  if (state === 'pending') return sql<SqlBool>`not ${begun}`;
  const ended = sql`(${until} is not null and ${until} <= ${now})`;
  return state === 'expired' ? sql<SqlBool>`${begun} and ${ended}` : sql<SqlBool>`${begun} and not ${ended}`;
}

const text = z.preprocess((v) => (v === '' ? undefined : v), z.string().max(128, 'at most 128 characters').optional());

/** Every grant row's common wire fields. */
interface Row {
  id: string;
  strategyId: string | null;
  validFrom: number | null;
  validUntil: number | null;
  created: number;
}

export const pagingRoutes = ({ db, clock }: Deps): RouteDef[] => {
  /** The common part of an item, with strategy names looked up once per page. */
  const itemsOf = async <R extends Row>(rows: R[]) => {
    const strategies = await strategiesById(db, [...new Set(rows.map((r) => r.strategyId).filter((id): id is string => id !== null))]);
    const now = clock.now();
    return rows.map(({ strategyId, validFrom, validUntil, created, ...rest }) => ({
      ...rest,
      strategyId: strategyId ?? '',
      strategyName: strategyId ? (strategies.get(strategyId)?.name ?? '') : '',
      created: formatDate(created),
      validFrom: windowDate(validFrom),
      validUntil: windowDate(validUntil),
      state: stateAt({ validFrom, validUntil }, now),
    }));
  };
  const GRANT_COLUMNS = ['t.id', 't.strategyId', 't.validFrom', 't.validUntil', 't.created'] as const;

  return [
    route({
      method: 'GET',
      path: '/authorised/paging',
      allow: 'granted',
      query: pagingQuery.extend({
        kind: choice(['user', 'group']),
        name: text,
        assetName: text,
        state: choice(['active', 'pending', 'expired']),
        assetId: zOptionalId,
      }),
      handler: async ({ query, principal }) => {
        const now = clock.now();
        const page = pageOf(query, { created: 'created', name: 'name', assetName: 'assetName', validUntil: 'validUntil' }, 'created');
        const who = sql<string>`coalesce(${sql.ref('u.nickname')}, ${sql.ref('g.name')})`;
        // Only the grants on assets the caller may open itself: the ones it could hand out or take back (containment).
        const within = openableAssetIds(db, principal.user.id, now);
        const base = db
          .selectFrom('authorised as t')
          .innerJoin('assets as a', 'a.id', 't.assetId')
          .leftJoin('users as u', 'u.id', 't.userId')
          .leftJoin('userGroups as g', 'g.id', 't.userGroupId')
          .$if(within !== null, (q) => q.where('t.assetId', 'in', within!))
          .$if(query.kind === 'user', (q) => q.where('t.userId', 'is not', null))
          .$if(query.kind === 'group', (q) => q.where('t.userGroupId', 'is not', null))
          .$if(query.assetId !== null, (q) => q.where('t.assetId', '=', query.assetId!))
          .$if(query.state !== undefined, (q) => q.where(stateIs(query.state!, now)))
          .$if(query.name !== undefined, (q) => q.where((eb) => eb.or([contains('u.nickname', query.name!), contains('g.name', query.name!)])))
          .$if(query.assetName !== undefined, (q) => q.where(contains('a.name', query.assetName!)));
        const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
        const sort = { created: sql.ref('t.created'), name: who, assetName: sql.ref('a.name'), validUntil: sql.ref('t.validUntil') }[page.sort];
        const rows = await base
          .select([...GRANT_COLUMNS, 't.userId', 't.userGroupId', 'u.nickname as userName', 'g.name as userGroupName', 't.assetId', 'a.name as assetName', 'a.protocol'])
          .orderBy(sort, page.direction)
          .orderBy('t.id', page.direction)
          .limit(page.limit)
          .offset(page.offset)
          .execute();
        return paged(
          n,
          await itemsOf(
            rows.map(({ userId, userGroupId, userName, userGroupName, ...r }) => ({
              ...r,
              kind: userId !== null ? ('user' as const) : ('group' as const),
              userId: userId ?? '',
              userName: userName ?? '',
              userGroupId: userGroupId ?? '',
              userGroupName: userGroupName ?? '',
            })),
          ),
        );
      },
    }),

    route({
      method: 'GET',
      path: '/authorised/users/paging',
      allow: 'granted',
      query: pagingQuery.extend({ assetId: zOptionalId, name: text, userName: text }),
      handler: async ({ query }) => {
        const page = pageOf(query, { created: 't.created', userName: 'u.nickname' }, 't.created');
        const name = query.name ?? query.userName;
        const base = db
          .selectFrom('authorised as t')
          .innerJoin('users as u', 'u.id', 't.userId')
          .$if(query.assetId !== null, (q) => q.where('t.assetId', '=', query.assetId!))
          .$if(name !== undefined, (q) => q.where(contains('u.nickname', name!)));
        const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
        const rows = await base
          .select([...GRANT_COLUMNS, 't.userId', 'u.nickname as userName'])
          .orderBy(page.sort, page.direction)
          .orderBy('t.id', page.direction)
          .limit(page.limit)
          .offset(page.offset)
          .execute();
        return paged(n, await itemsOf(rows.map((r) => ({ ...r, userId: r.userId ?? '' }))));
      },
    }),

    route({
      method: 'GET',
      path: '/authorised/user-groups/paging',
      allow: 'granted',
      query: pagingQuery.extend({ assetId: zOptionalId, name: text, userGroupName: text }),
      handler: async ({ query }) => {
        const page = pageOf(query, { created: 't.created', userGroupName: 'g.name' }, 't.created');
        const name = query.name ?? query.userGroupName;
        const base = db
          .selectFrom('authorised as t')
          .innerJoin('userGroups as g', 'g.id', 't.userGroupId')
          .$if(query.assetId !== null, (q) => q.where('t.assetId', '=', query.assetId!))
          .$if(name !== undefined, (q) => q.where(contains('g.name', name!)));
        const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
        const rows = await base
          .select([...GRANT_COLUMNS, 't.userGroupId', 'g.name as userGroupName'])
          .orderBy(page.sort, page.direction)
          .orderBy('t.id', page.direction)
          .limit(page.limit)
          .offset(page.offset)
          .execute();
        return paged(n, await itemsOf(rows.map((r) => ({ ...r, userGroupId: r.userGroupId ?? '' }))));
      },
    }),

    route({
      method: 'GET',
      path: '/authorised/assets/paging',
      allow: 'granted',
      query: pagingQuery.extend({ userId: zOptionalId, userGroupId: zOptionalId, name: text, assetName: text }),
      handler: async ({ query }) => {
        const page = pageOf(query, { created: 't.created', assetName: 'a.name', protocol: 'a.protocol' }, 't.created');
        const name = query.name ?? query.assetName;
        const base = db
          .selectFrom('authorised as t')
          .innerJoin('assets as a', 'a.id', 't.assetId')
          .$if(query.userId !== null, (q) => q.where('t.userId', '=', query.userId))
          .$if(query.userGroupId !== null, (q) => q.where('t.userGroupId', '=', query.userGroupId))
          .$if(name !== undefined, (q) => q.where(contains('a.name', name!)));
        const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
        const rows = await base
          .select([...GRANT_COLUMNS, 't.assetId', 'a.name as assetName', 'a.protocol'])
          .orderBy(page.sort, page.direction)
          .orderBy('t.id', page.direction)
          .limit(page.limit)
          .offset(page.offset)
          .execute();
        return paged(n, await itemsOf(rows));
      },
    }),
  ];
};
