import { z } from 'zod';
import type { Deps } from '../../http/access.ts';
import { paged, pageOf, pagingQuery } from '../../http/paging.ts';
import { route } from '../../http/routes.ts';
import type { Insertable } from 'kysely';
import type { LoginLog, LoginLogsTable } from '../../db/schema.ts';
import { uuid } from '../../lib/ids.ts';
import { type Lng, say } from '../../lib/i18n.ts';
import { formatDate } from '../../lib/time.ts';
import type { Db } from '../../db/index.ts';
import { fail } from '../../http/envelope.ts';
import { endLoginTokens } from '../../permissions/tokens.ts';
import { type Actor, actorOf } from '../../policy/containment.ts';
import { contains, idList, requireAll } from '../../http/ids.ts';
import { describeAll, recordOperation } from './operations.ts';
import { zTimeBound } from './time-bound.ts';

/*
 * The login log (contract §2.11, §3.10): every attempt /login records (modules/auth), failures with their reason.
 * Fixed 1.3.9 quirks: the routes need a token and a key like any other (quirk 1), `id` is the row's own id and never
 * a token, paging is real. Deleting a successful login's row ends that login (as 1.3.9), which only one who may act
 * on its account may do; clearing ends every login but the caller's own (1.3.9 signed the caller out too) and those of
 * accounts it may not act on. Each delete and clear is written to the operation log (operations.ts) in its transaction.
 */

/** Writes one login attempt to the login log (auth's logins: this module owns the table); resolves with its id. */
export async function recordLogin(db: Db, entry: Omit<Insertable<LoginLogsTable>, 'id'>): Promise<string> {
  const id = uuid();
  await db.insertInto('loginLogs').values({ id, ...entry }).execute();
  return id;
}

export const loginLogQuery = pagingQuery.extend({
  username: z.string().max(64).optional(),
  clientIp: z.string().max(64).optional(),
  /** '1' success, '0' failure; '' or absent = both. */
  state: z.enum(['1', '0', '']).optional(),
  /** loginTime ≥ from. */
  from: zTimeBound,
  /** loginTime ≤ to (a wire date includes its whole second). */
  to: zTimeBound,
});

/** §3.10; `remember` as a JSON boolean, an open login's logoutTime is the zero date; the reason in the caller's language. */
const toWire = (r: LoginLog, lng: Lng) => ({
  id: r.id,
  username: r.username,
  clientIp: r.clientIp,
  clientUserAgent: r.clientUserAgent,
  loginTime: formatDate(r.loginTime),
  logoutTime: formatDate(r.logoutTime),
  remember: r.remember === 1,
  state: r.state,
  reason: say(r.reason, lng),
});

/**
 * The login-log rows among `ids` whose login is still going (a token holds it) for an account the caller may not act
 * on (containment.ts): ending a login acts on its account. Map of row id → why not.
 */
async function protectedLogins(trx: Db, actor: Actor, ids?: readonly string[]): Promise<Map<string, string>> {
  let q = trx.selectFrom('tokens').select(['loginLogId', 'userId']).where('loginLogId', 'is not', null);
  if (ids) q = q.where('loginLogId', 'in', ids);
  const live = await q.execute();
  const why = await actor.refusals(trx, [...new Set(live.map((t) => t.userId))], 'logout');
  return new Map(live.flatMap((t) => (why.has(t.userId) && t.loginLogId ? [[t.loginLogId, why.get(t.userId)!] as const] : [])));
}

export const loginLogRoutes = ({ db, clock, catalogue }: Deps) => [
  route({
    method: 'GET',
    path: '/login-logs/paging',
    allow: 'granted',
    query: loginLogQuery,
    handler: async ({ query, lng }) => {
      const page = pageOf(query, { loginTime: 'loginTime' }, 'loginTime');
      let base = db.selectFrom('loginLogs');
      if (query.username) base = base.where(contains('username', query.username));
      if (query.clientIp) base = base.where(contains('clientIp', query.clientIp));
      if (query.state) base = base.where('state', '=', query.state);
      if (query.from) base = base.where('loginTime', '>=', query.from.ms);
      if (query.to) base = base.where('loginTime', '<=', query.to.exact ? query.to.ms : query.to.ms + 999);
      const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
      const rows = await base.selectAll().orderBy(page.sort, page.direction).orderBy('id', page.direction).limit(page.limit).offset(page.offset).execute();
      return paged(total, rows.map((r) => toWire(r, lng)));
    },
  }),

  route({
    method: 'DELETE',
    path: '/login-logs/:id',
    allow: 'granted',
    params: idList,
    handler: async ({ params, principal, req }) => {
      const actor = await actorOf(principal, catalogue, clock.now());
      await db.transaction().execute(async (trx) => {
        const found = await trx.selectFrom('loginLogs').select(['id', 'username', 'clientIp', 'loginTime']).where('id', 'in', params.id).execute();
        requireAll('登录日志', params.id, found.map((r) => r.id));
        const [refused] = (await protectedLogins(trx, actor, params.id)).values();
        if (refused) throw fail(refused);
        // A successful login's row is its login: the token goes with it (the caller's own too, if named).
        await endLoginTokens(trx, { loginLogIds: params.id }, clock.now());
        await trx.deleteFrom('loginLogs').where('id', 'in', params.id).execute();
        const target = describeAll(found.map((r) => `${r.username} ${r.clientIp} ${formatDate(r.loginTime)}`));
        await recordOperation(trx, { user: principal.user, clientIp: req.ip, action: 'login-log-delete', target, count: found.length, result: 'success' }, clock.now());
      });
      return null;
    },
  }),

  route({
    method: 'POST',
    path: '/login-logs/clear',
    allow: 'granted',
    handler: async ({ principal, req }) => {
      const actor = await actorOf(principal, catalogue, clock.now());
      await db.transaction().execute(async (trx) => {
        // The caller's current login (none for a personal access token) stays, row and token: clearing the log
        // should not sign its author out. Nor are the logins of accounts it may not act on ended (the super admin's,
        // a mightier admin's): those rows stay with their tokens.
        const own = principal.tokenId ? await trx.selectFrom('tokens').select('loginLogId').where('id', '=', principal.tokenId).executeTakeFirst() : undefined;
        const kept = [...(await protectedLogins(trx, actor)).keys(), ...(own?.loginLogId ? [own.loginLogId] : [])];
        let others = trx.selectFrom('tokens').select('loginLogId');
        if (principal.tokenId) others = others.where('id', '!=', principal.tokenId);
        const ended = (await others.execute()).map((t) => t.loginLogId).filter((id) => !kept.includes(id));
        await endLoginTokens(trx, { loginLogIds: ended }, clock.now());
        let rows = trx.deleteFrom('loginLogs');
        if (kept.length) rows = rows.where('id', 'not in', kept);
        const gone = Number((await rows.executeTakeFirst()).numDeletedRows);
        await recordOperation(trx, { user: principal.user, clientIp: req.ip, action: 'login-log-clear', target: '', count: gone, result: 'success' }, clock.now());
      });
      return null;
    },
  }),
];
