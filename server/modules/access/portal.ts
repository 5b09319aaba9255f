import type { Db } from '../../db/index.ts';
import { paged, pagingQuery } from '../../http/paging.ts';
import { type Deps, type RouteDef, route } from '../../http/routes.ts';
import { assetPage, listFilters, SORTS } from '../assets/index.ts';
import { userProbeReason } from '../../policy/user-reason.ts';
import { openableAssetIds } from '../../policy/access-rule.ts';

/*
 * The portal: the assets the caller may open (the access rule), for every account type (`allow: 'authenticated'`).
 * GET /account/assets answers exactly as GET /worker/assets/paging (1.3.9's console calls it; 1.3.9 never routed it).
 * The address is hidden, as 1.3.9: `ip` '' and `port` 0; so is who owns the asset, and the reachability test's
 * message is one of a few fixed reasons (policy/user-reason.ts), never the probe's text that names the address.
 * Filtering or sorting by address would leak it back, so only name, protocol and tags filter, and the sort omits ip and port.
 */

const { ip: _ip, port: _port, ...PORTAL_SORTS } = SORTS;
const portalQuery = pagingQuery.extend({ name: listFilters.name, protocol: listFilters.protocol, tags: listFilters.tags });

export const portalRoutes = ({ db, clock }: Deps): RouteDef[] => {
  const list = route({
    method: 'GET',
    path: '/worker/assets/paging',
    allow: 'authenticated',
    query: portalQuery,
    handler: async ({ query, principal, lng }) => {
      const within = openableAssetIds(db, principal.user.id, clock.now()) ?? undefined;
      const { total, items } = await assetPage(db, query, { within, sorts: PORTAL_SORTS });
      return paged(
        total,
        // The last reachability test's message names the address (`connect ECONNREFUSED <ip>:<port>`): a fixed reason.
        items.map((a) => ({ ...a, ip: '', port: 0, owner: '', ownerName: '', activeMessage: userProbeReason(a.active, a.activeMessage, lng) })),
      );
    },
  });
  return [
    list,
    { ...list, path: '/account/assets' },
    route({
      method: 'GET',
      path: '/worker/assets/tags',
      allow: 'authenticated',
      handler: ({ principal }) => tagsOpenableBy(db, principal.user.id, clock.now()),
    }),
  ];
};

/** The tags carried by the assets `userId` may open, sorted. */
async function tagsOpenableBy(db: Db, userId: string, now: number): Promise<string[]> {
  const within = openableAssetIds(db, userId, now);
  const rows = await db
    .selectFrom('tags as t')
    .select('t.name')
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('assetTags as at')
          .select('at.assetId')
          .whereRef('at.tagId', '=', 't.id')
          .$if(within !== null, (q) => q.where('at.assetId', 'in', within!)),
      ),
    )
    .orderBy('t.name')
    .execute();
  return rows.map((r) => r.name);
}
