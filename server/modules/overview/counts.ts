import { sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { Protocol } from '../../db/schema.ts';
import { formatDay } from '../../lib/time.ts';
import { PROTOCOLS } from '../../../shared/protocols.ts';

/*
 * The dashboard's numbers (contract §2.14). Every one is an index range or an index-only count (migration 011), never
 * a walk over the rows: with 1 000 000 login-log rows, the date counter costs what the rows of the days asked for
 * cost (docs/PERFORMANCE.md "Overview").
 */

const count = async (q: Promise<{ n: number | string | bigint } | undefined>) => Number((await q)?.n ?? 0);

/**
 * `{totalUser, onlineUser, totalAsset, activeAsset, offlineSession, failLoginCount}` (1.3.9's six), and ours for the
 * console's getting-started checklist: `totalCredential`, `totalAuthorised` (grants) and `totalSession` (sessions that
 * reached their host, live or ended).
 */
export async function counters(db: Db, now: number) {
  const [totalUser, onlineUser, totalAsset, activeAsset, offlineSession, failLoginCount, totalCredential, totalAuthorised, totalSession] = await Promise.all([
    count(db.selectFrom('users').select((eb) => eb.fn.countAll().as('n')).executeTakeFirst()),
    // Signed in = holding a login token that has not expired (users.online is only updated when a token ends).
    count(
      db
        .selectFrom('tokens')
        .select((eb) => eb.fn.count('userId').distinct().as('n'))
        .where('expiresAt', '>', now)
        .executeTakeFirst(),
    ),
    count(db.selectFrom('assets').select((eb) => eb.fn.countAll().as('n')).executeTakeFirst()),
    count(
      db
        .selectFrom('assets')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('active', '=', 1)
        .executeTakeFirst(),
    ),
    count(
      db
        .selectFrom('sessions')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('status', '=', 'disconnected')
        .executeTakeFirst(),
    ),
    count(
      db
        .selectFrom('loginLogs')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('state', '=', '0')
        .executeTakeFirst(),
    ),
    count(db.selectFrom('credentials').select((eb) => eb.fn.countAll().as('n')).executeTakeFirst()),
    count(db.selectFrom('authorised').select((eb) => eb.fn.countAll().as('n')).executeTakeFirst()),
    count(
      db
        .selectFrom('sessions')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('status', 'in', ['connected', 'disconnected'])
        .executeTakeFirst(),
    ),
  ]);
  return { totalUser, onlineUser, totalAsset, activeAsset, offlineSession, failLoginCount, totalCredential, totalAuthorised, totalSession };
}


/** Assets by protocol, `all` = their sum. */
export async function assetsByProtocol(db: Db): Promise<Record<Protocol | 'all', number>> {
  const rows = await db
    .selectFrom('assets')
    .select((eb) => ['protocol', eb.fn.countAll().as('n')])
    .groupBy('protocol')
    .execute();
  const by = new Map(rows.map((r) => [r.protocol, Number(r.n)]));
  const out = Object.fromEntries(PROTOCOLS.map((p) => [p, by.get(p) ?? 0])) as Record<Protocol | 'all', number>;
  out.all = PROTOCOLS.reduce((sum, p) => sum + out[p], 0);
  return out;
}

export const DATE_COUNTER_DAYS = { week: 7, month: 30 } as const;

/** The wire's series names (1.3.9's three, and ours: sessions opened). */
export const SERIES = { logins: '登录次数', users: '活跃用户', assets: '活跃资产', sessions: '会话次数' } as const;

/**
 * Local midnights: `days` days ending today (today included), then tomorrow's midnight: `days + 1` bounds. Built
 * from calendar dates, not by adding 24 h, so a day across a daylight-saving change has its true length.
 */
export function dayBounds(now: number, days: number): number[] {
  const d = new Date(now);
  const out: number[] = [];
  for (let i = days - 1; i >= -1; i--) out.push(new Date(d.getFullYear(), d.getMonth(), d.getDate() - i).getTime());
  return out;
}

/** A day's index as a constant column, so that each branch of the UNION says which day it counts. */
const dayNo = (i: number) => sql<number>`${sql.lit(i)}`.as('day');

export interface DateCount {
  date: string;
  value: number;
  type: (typeof SERIES)[keyof typeof SERIES];
}

/** Per day, oldest first, today included: successful logins, distinct users who logged in, distinct assets used, sessions. */
export async function dateCounter(db: Db, now: number, days: number): Promise<DateCount[]> {
  const bounds = dayBounds(now, days);
  const each = Array.from({ length: days }, (_, i) => ({ i, from: bounds[i]!, to: bounds[i + 1]! }));
  // One statement per table: a UNION ALL of one aggregate per day, each over its own index range. Measured against one
  // range grouped by a CASE over the bounds (75 000 logins in the month): half the time, the CASE being evaluated per
  // row; and no SQL date function, so it runs on PostgreSQL too.
  const loginDays = each.map(({ i, from, to }) =>
    db
      .selectFrom('loginLogs')
      .select((eb) => [dayNo(i), eb.fn.countAll().as('logins'), eb.fn.count('username').distinct().as('users')])
      .where('state', '=', '1')
      .where('loginTime', '>=', from)
      .where('loginTime', '<', to),
  );
  const sessionDays = each.map(({ i, from, to }) =>
    db
      .selectFrom('sessions')
      .select((eb) => [dayNo(i), eb.fn.countAll().as('sessions'), eb.fn.count('assetId').distinct().as('assets')])
      .where('connectedTime', '>=', from)
      .where('connectedTime', '<', to),
  );
  const [logins, sessions] = await Promise.all([loginDays.reduce((all, q) => all.unionAll(q)).execute(), sessionDays.reduce((all, q) => all.unionAll(q)).execute()]);
  const loginsOf = new Map(logins.map((r) => [Number(r.day), r]));
  const sessionsOf = new Map(sessions.map((r) => [Number(r.day), r]));
  const out: DateCount[] = [];
  for (let i = 0; i < days; i++) {
    const date = formatDay(bounds[i]!);
    const l = loginsOf.get(i);
    const s = sessionsOf.get(i);
    out.push(
      { date, value: Number(l?.logins ?? 0), type: SERIES.logins },
      { date, value: Number(l?.users ?? 0), type: SERIES.users },
      { date, value: Number(s?.assets ?? 0), type: SERIES.assets },
      { date, value: Number(s?.sessions ?? 0), type: SERIES.sessions },
    );
  }
  return out;
}
