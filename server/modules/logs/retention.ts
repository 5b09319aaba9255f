import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/index.ts';
import type { Clock } from '../../lib/clock.ts';
import type { TimerHandle, Timers } from '../../lib/timers.ts';

/*
 * Login-log retention: the property `login-log-saved-limit` (days; '', '-', 0 or not a number = keep for ever, as
 * 1.3.9's settings offer "永久") bounds the table. Rows older than that go at start and once a day. A row whose login
 * still holds a live token stays (a remembered login that keeps being used slides for ever): retention never signs
 * anybody out.
 */

export const LOGIN_LOG_LIMIT_PROPERTY = 'login-log-saved-limit';
export const PURGE_EVERY_MS = 24 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Days to keep, or null = for ever. */
export function keepDays(value: string | undefined): number | null {
  const text = value?.trim() ?? '';
  if (!/^\d{1,6}$/.test(text)) return null;
  const days = Number(text);
  return days > 0 ? days : null;
}

/** Deletes the login-log rows past the limit; returns how many went. */
export async function purgeLoginLogs(db: Db, now: number): Promise<number> {
  const prop = await db.selectFrom('properties').select('value').where('name', '=', LOGIN_LOG_LIMIT_PROPERTY).executeTakeFirst();
  const days = keepDays(prop?.value);
  if (days === null) return 0;
  const res = await db
    .deleteFrom('loginLogs')
    .where('loginTime', '<', now - days * DAY_MS)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('tokens').select('tokens.id').whereRef('tokens.loginLogId', '=', 'loginLogs.id'))))
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

export interface Retention {
  /** Purges now and schedules the next purge a day later. */
  start(): Promise<void>;
  stop(): void;
}

export function createRetention(opts: { db: Db; clock: Clock; timers: Timers; log?: FastifyBaseLogger }): Retention {
  const { db, clock, timers, log } = opts;
  let timer: TimerHandle | undefined;
  let stopped = false;

  const run = async () => {
    try {
      const n = await purgeLoginLogs(db, clock.now());
      if (n) log?.info({ deleted: n }, 'login logs past their retention deleted');
    } catch (error) {
      log?.error({ err: error }, 'login-log retention failed');
    }
  };
  const schedule = () => {
    if (stopped) return;
    timer = timers.setTimeout(() => {
      timer = undefined;
      void run().then(schedule);
    }, PURGE_EVERY_MS);
    timer.unref();
  };

  return {
    async start() {
      await run();
      schedule();
    },
    stop() {
      stopped = true;
      if (timer) timers.clearTimeout(timer);
      timer = undefined;
    },
  };
}
