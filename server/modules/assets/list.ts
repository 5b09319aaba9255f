import { z } from 'zod';
import { type SelectQueryBuilder, sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { AssetsTable, DB } from '../../db/schema.ts';
import { type Page, type PagingQuery, pageOf, pagingQuery } from '../../http/paging.ts';
import type { AssetScope } from '../../policy/access-rule.ts';
import { ownerName } from '../../policy/owner.ts';
import { contains } from '../../http/ids.ts';
import { LIMITS, zPort, zTagList } from './fields.ts';
import { PROTOCOLS } from '../../../shared/protocols.ts';
import { assetForPage, PUBLIC_COLUMNS, tagsOf } from './store.ts';

/*
 * The asset list's filters and sort (contract §2.5), shared by GET /assets/paging, GET /assets/export and the
 * portal's lists (modules/access/portal.ts: the same code within the assets a user may open).
 * Every filter narrows through an index or a bounded scan; the port filter counts with the port (quirk 15).
 */

/** A query value the console may send empty: '' is "no filter". */
const blank = (v: unknown) => (v === '' ? undefined : v);

export const listFilters = {
  name: z.preprocess(blank, z.string().max(LIMITS.name, `at most ${LIMITS.name} characters`).optional()),
  protocol: z.preprocess(blank, z.enum(PROTOCOLS, { message: `expected one of: ${PROTOCOLS.join(', ')}` }).optional()),
  /** Comma list: every tag must be present. */
  tags: z.preprocess(blank, zTagList.optional()),
  ip: z.preprocess(blank, z.string().max(LIMITS.ip, `at most ${LIMITS.ip} characters`).optional()),
  port: z.preprocess(blank, zPort.optional()),
  active: z.preprocess(blank, z.enum(['true', 'false'], { message: 'expected true or false' }).optional()),
};

export const pagingAssets = pagingQuery.extend(listFilters);
/** The export: the list's filters and sort, no paging. */
export const exportAssets = pagingQuery.omit({ pageIndex: true, pageSize: true }).extend(listFilters);
/** The filters of a list query (the rest of the query is ignored). */
type Filters = Partial<Omit<z.output<typeof exportAssets>, 'order' | 'field'>>;

/** `field` values the list sorts by (the console sends `ip` for its "network" column); ties go by created, id. */
export const SORTS = { name: 'a.name', protocol: 'a.protocol', ip: 'a.ip', port: 'a.port', active: 'a.active', lastAccessTime: 'a.lastAccessTime', created: 'a.created' } as const;

/**
 * The assets matching the filters (`FROM assets AS a WHERE …`), or null when nothing can match (a tag no asset
 * carries). Tags: the intersection of each tag's `asset_tags` index range. `within`: only these asset ids (the
 * access rule's sub-query); absent = every asset. `walk`: test `within` as a condition on each row of the order's
 * index instead of looking its ids up one by one (wrapping the column keeps SQLite from seeking by it; any SQL
 * engine reads it the same).
 */
async function matching(db: Db, f: Filters, within?: AssetScope, walk = false) {
  let q = db.selectFrom('assets as a');
  if (within) q = walk ? q.where(sql<string>`coalesce(${sql.ref('a.id')}, '')`, 'in', within) : q.where('a.id', 'in', within);
  if (f.name) q = q.where(contains('a.name', f.name));
  if (f.protocol) q = q.where('a.protocol', '=', f.protocol);
  if (f.ip) q = q.where(contains('a.ip', f.ip));
  if (f.port !== undefined) q = q.where('a.port', '=', f.port);
  if (f.active) q = q.where('a.active', '=', f.active === 'true' ? 1 : 0);
  if (f.tags?.length) {
    const found = await db.selectFrom('tags').select('id').where('name', 'in', f.tags).execute();
    if (found.length < f.tags.length) return null;
    const carrying = (tagId: string) => db.selectFrom('assetTags').select('assetId').where('tagId', '=', tagId);
    const [first, ...rest] = found.map((t) => t.id);
    let ids = carrying(first!);
    for (const tagId of rest) ids = ids.intersect(carrying(tagId));
    q = q.where('a.id', 'in', ids);
  }
  return q;
}

type AssetsAsA = DB & { a: AssetsTable };
type SortColumn = (typeof SORTS)[keyof typeof SORTS];
type Sort = Page<SortColumn>;

export interface ListScope {
  /** Only these asset ids (modules/access/rule.ts `openableAssetIds`); absent = every asset. */
  within?: AssetScope;
  /** The `field` values accepted (default: every SORTS entry). */
  sorts?: Readonly<Partial<Record<string, SortColumn>>>;
}

/** The list's order: the sort column, then newest first, then id (a total order, so pages never overlap). */
const ordered = <O>(q: SelectQueryBuilder<AssetsAsA, 'a', O>, page: Sort) =>
  q
    .orderBy(page.sort, page.direction)
    .$if(page.sort !== 'a.created', (r) => r.orderBy('a.created', page.direction))
    .orderBy('a.id', page.direction);

/** What a list row shows: the public columns and the owner's nickname. */
const withOwner = (q: SelectQueryBuilder<AssetsAsA, 'a', object>) => q.leftJoin('users as ou', 'ou.id', 'a.owner').select([...PUBLIC_COLUMNS, ownerName]);

/** Matches up to this many are read with the page and counted from it: a selective filter costs one scan. */
const PROBE = 1000;
/**
 * A scoped list (`within`) with at most this many matches is sorted from its ids (each looked up); beyond, the
 * order's index is walked and each entry tested against the scope, which stops at the page instead of sorting
 * every match (docs/PERFORMANCE.md "Portal assets").
 */
const SORT_FROM_IDS = 2000;

/**
 * GET /assets/paging: a real page and the count of every match. The page's ids come from an index alone (a deep
 * offset skips index entries, not rows and joins), then only those rows are read.
 */
export async function assetPage(db: Db, query: PagingQuery & Filters, scope: ListScope = {}) {
  const page = pageOf(query, (scope.sorts ?? SORTS) as Readonly<Record<string, SortColumn>>, 'a.created');
  const q = await matching(db, query, scope.within);
  if (!q) return { total: 0, items: [] };
  const idsOf = async (from: NonNullable<typeof q>, limit: number, offset: number) =>
    (await ordered(from, page).select('a.id').limit(limit).offset(offset).execute()).map((r) => r.id);
  const count = async () => Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  let ids: string[];
  let total: number;
  if (scope.within) {
    // Counting from the scope's ids is cheap (an index seek each); its size then says how to find the page.
    total = await count();
    if (total === 0) return { total, items: [] };
    const from = total > SORT_FROM_IDS ? (await matching(db, query, scope.within, true))! : q;
    ids = await idsOf(from, page.limit, page.offset);
  } else if (page.offset + page.limit <= PROBE) {
    const probe = await idsOf(q, PROBE + 1, 0);
    ids = probe.slice(page.offset, page.offset + page.limit);
    total = probe.length <= PROBE ? probe.length : await count();
  } else {
    ids = await idsOf(q, page.limit, page.offset);
    total = await count();
  }
  if (ids.length === 0) return { total, items: [] };
  const rows = await withOwner(ordered(db.selectFrom('assets as a').where('a.id', 'in', ids), page)).execute();
  const tags = await tagsOf(db, ids);
  return { total, items: rows.map((r) => assetForPage(r, tags.get(r.id) ?? [])) };
}

/** Every match, in list order, with its tags (the export). */
export async function allMatching(db: Db, query: z.output<typeof exportAssets>) {
  const q = await matching(db, query);
  if (!q) return [];
  const rows = await withOwner(ordered(q, pageOf({ ...query, pageIndex: 1, pageSize: 1 }, SORTS, 'a.created'))).execute();
  const tags = await tagsOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({ ...r, tags: tags.get(r.id) ?? [] }));
}
