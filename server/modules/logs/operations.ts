import { z } from 'zod';
import type { Db } from '../../db/index.ts';
import type { OperationAction } from '../../db/schema.ts';
import type { Deps } from '../../http/access.ts';
import { paged, pageOf, pagingQuery } from '../../http/paging.ts';
import { route } from '../../http/routes.ts';
import { formatDate } from '../../lib/time.ts';
import { contains } from '../../http/ids.ts';
import { zTimeBound } from './time-bound.ts';

/*
 * The operation log (issue 27): what happened to the audit trail and what was refused. The routes that delete audit
 * records (sessions, login log, file log) write an event in the transaction of their delete, so a delete is never
 * without its record; the routes that refuse a session (the access rule) or a file operation (the strategy) write
 * one with the reason. The log itself is read-only: GET /operation-logs/paging is its only route, and no key, role
 * or route deletes from it (retention included).
 */

export const OPERATION_ACTIONS = [
  'session-delete',
  'session-clear',
  'login-log-delete',
  'login-log-clear',
  'storage-log-delete',
  'storage-log-clear',
  'session-create',
  'file-upload',
  'file-download',
  'file-mkdir',
  'file-rm',
  'file-rename',
  'file-edit',
] as const satisfies readonly OperationAction[];

/**
 * Why an operation was refused (the console words each code): the strategy forbids it; the access rule no longer
 * lets the user in (a file operation in a session whose grant went); or the access rule's refusal of a new session —
 * no grant, a grant not yet or no longer valid, the account disabled, the asset gone.
 */
export const REFUSAL = {
  strategy: 'strategy',
  accessRevoked: 'access-revoked',
  noGrant: 'no-grant',
  grantPending: 'grant-pending',
  grantExpired: 'grant-expired',
  accountDisabled: 'account-disabled',
  assetMissing: 'asset-missing',
} as const;
export type RefusalReason = (typeof REFUSAL)[keyof typeof REFUSAL];

/** The most characters a target keeps (a batch names its records; a long list ends with how many more). */
export const MAX_TARGET = 2000;

export interface OperationEvent {
  /** The account acting (the principal's user). */
  user: { id: string; username: string };
  clientIp: string;
  action: OperationAction;
  target: string;
  count: number;
  result: 'success' | 'refused';
  reason?: RefusalReason;
}

/** Writes one event (pass the delete's transaction, so the event and the delete commit together). */
export async function recordOperation(db: Db, event: OperationEvent, now: number): Promise<void> {
  await db
    .insertInto('operationLogs')
    .values({
      userId: event.user.id,
      username: event.user.username,
      clientIp: event.clientIp,
      action: event.action,
      target: event.target.length > MAX_TARGET ? `${event.target.slice(0, MAX_TARGET - 1)}…` : event.target,
      count: event.count,
      result: event.result,
      reason: event.reason ?? '',
      created: now,
    })
    .execute();
}

/** Names the records of a batch, one by one, up to MAX_TARGET characters and then `… (+n)`. */
export function describeAll(items: readonly string[]): string {
  const out: string[] = [];
  let length = 0;
  for (const [i, item] of items.entries()) {
    const more = items.length - i;
    if (length + item.length + 2 > MAX_TARGET - 16) return `${out.join('; ')}; … (+${more})`;
    out.push(item);
    length += item.length + 2;
  }
  return out.join('; ');
}

export const operationLogQuery = pagingQuery.extend({
  username: z.string().max(64).optional(),
  clientIp: z.string().max(64).optional(),
  /** '' or absent = every action. */
  action: z.enum([...OPERATION_ACTIONS, '']).optional(),
  /** '' or absent = both. */
  result: z.enum(['success', 'refused', '']).optional(),
  /** created ≥ from. */
  from: zTimeBound,
  /** created ≤ to (a wire date includes its whole second). */
  to: zTimeBound,
});

export const operationLogRoutes = ({ db }: Deps) => [
  route({
    method: 'GET',
    path: '/operation-logs/paging',
    allow: 'granted',
    query: operationLogQuery,
    handler: async ({ query }) => {
      const page = pageOf(query, { created: 'created' }, 'created');
      let base = db.selectFrom('operationLogs');
      if (query.username) base = base.where(contains('username', query.username));
      if (query.clientIp) base = base.where(contains('clientIp', query.clientIp));
      if (query.action) base = base.where('action', '=', query.action);
      if (query.result) base = base.where('result', '=', query.result);
      if (query.from) base = base.where('created', '>=', query.from.ms);
      if (query.to) base = base.where('created', '<=', query.to.exact ? query.to.ms : query.to.ms + 999);
      const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
      const rows = await base.selectAll().orderBy(page.sort, page.direction).orderBy('id', page.direction).limit(page.limit).offset(page.offset).execute();
      return paged(
        total,
        rows.map((r) => ({
          id: String(r.id),
          userId: r.userId,
          username: r.username,
          clientIp: r.clientIp,
          action: r.action,
          target: r.target,
          count: Number(r.count),
          result: r.result,
          reason: r.reason,
          created: formatDate(r.created),
        })),
      );
    },
  }),
];
