import { z } from 'zod';

const MAX_PAGE_SIZE = 1000;

/** Paging query of the contract; bad numbers are a 400, not a silent 0 as in 1.3.9. */
export const pagingQuery = z.object({
  pageIndex: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(10),
  order: z.string().max(16).optional(),
  field: z.string().max(64).optional(),
});

export type PagingQuery = z.output<typeof pagingQuery>;

export interface Page<C extends string> {
  limit: number;
  offset: number;
  /** A column from the endpoint's whitelist, never the raw `field` text (1.3.9 quirk 5). */
  sort: C;
  direction: 'asc' | 'desc';
}

/**
 * Turns the paging query into LIMIT/OFFSET/ORDER BY. `fields` maps the wire `field` values an endpoint accepts
 * to columns; anything else falls back to `fallback`. `order=ascend` → ASC, anything else → DESC.
 *
 *   const page = pageOf(query, { username: 'username', nickname: 'nickname' }, 'created');
 *   const items = await base.selectAll().orderBy(page.sort, page.direction).limit(page.limit).offset(page.offset).execute();
 */
export function pageOf<C extends string>(q: PagingQuery, fields: Readonly<Record<string, C>>, fallback: C): Page<C> {
  const sort = q.field !== undefined && Object.hasOwn(fields, q.field) ? fields[q.field]! : fallback;
  return { limit: q.pageSize, offset: (q.pageIndex - 1) * q.pageSize, sort, direction: q.order === 'ascend' ? 'asc' : 'desc' };
}

/** The paged answer: `items` is [] rather than null when empty. */
export const paged = <T>(total: number | string | bigint, items: T[]) => ({ total: Number(total), items });
