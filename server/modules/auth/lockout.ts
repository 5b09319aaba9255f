import type { Db } from '../../db/index.ts';
import type { Clock } from '../../lib/clock.ts';
import { usernameKey } from '../../lib/username.ts';
import { text } from '../../lib/i18n.ts';

/** Failures are forgotten, and a lock lifts, this long after a scope's last failure. */
export const LOCK_MS = 5 * 60 * 1000;

/**
 * What is counted, and how many failures lock it (for LOCK_MS after the last one):
 *  - `pair`: one address guessing one username — 5, as 1.3.9 (which locked after four: quirk 18);
 *  - `user`: one username from any address — 10: bounds guessing spread over many addresses, at the price that
 *    someone can lock an account out for 5 minutes at a time (it cannot be guessed meanwhile either);
 *  - `addr`: one address, any usernames — 50: bounds spraying many usernames (so junk usernames cannot grow the
 *    table without bound) while an office behind one NAT address can still log in at 9:00.
 */
export const LIMITS = { pair: 5, user: 10, addr: 50 } as const;
type Kind = keyof typeof LIMITS;

export const LOCKED_MESSAGE = text('登录失败次数过多，请等待5分钟后再试', 'Too many failed logins. Wait 5 minutes and try again.');

/** An attempt being checked: its counts are already taken; say how it ended. */
export interface Reservation {
  /** Wrong password or code: the reservation stays counted. Returns the pair's failure count (the wire's `data`). */
  failed(): Promise<number>;
  /** Right password, not logged in (TOTP code still needed, account disabled): the reservation is given back. */
  release(): Promise<void>;
  /** Logged in (or password changed): the username's counters start again; the address gives its one back. */
  succeeded(): Promise<void>;
}

/**
 * Login lock-out in the database (table login_attempts), so it holds under parallel guesses, survives a restart and
 * is shared by every process on the database. An attempt is counted BEFORE its password is compared: 50 guesses sent
 * at once reserve 5 pair slots and the other 45 are refused without hashing anything. Rows expire with their window
 * and are deleted then; nothing is ever evicted early, so filling the table with junk cannot lift a lock.
 */
export class Lockout {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  private scopes(ip: string, username: string): Record<Kind, string> {
    const user = usernameKey(username);
    return { pair: `pair:${ip} ${user}`, user: `user:${user}`, addr: `addr:${ip}` };
  }

  /** Counts one attempt in every scope, or refuses (null) without counting when any scope is locked. */
  async reserve(ip: string, username: string): Promise<Reservation | null> {
    const scopes = this.scopes(ip, username);
    const keys = Object.values(scopes);
    const now = this.clock.now();
    // One transaction: SQLite runs it alone, so two parallel attempts cannot both take the last slot.
    const reserved = await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('loginAttempts').where('expiresAt', '<=', now).execute();
      const rows = await trx.selectFrom('loginAttempts').select(['scope', 'failures']).where('scope', 'in', keys).execute();
      const count = new Map(rows.map((r) => [r.scope, r.failures]));
      for (const kind of Object.keys(LIMITS) as Kind[]) if ((count.get(scopes[kind]) ?? 0) >= LIMITS[kind]) return false;
      for (const scope of keys) {
        await trx
          .insertInto('loginAttempts')
          .values({ scope, failures: 1, lastAt: now, expiresAt: now + LOCK_MS })
          .onConflict((oc) => oc.column('scope').doUpdateSet((eb) => ({ failures: eb('loginAttempts.failures', '+', 1), lastAt: now, expiresAt: now + LOCK_MS })))
          .execute();
      }
      return true;
    });
    if (!reserved) return null;

    let settled = false;
    const settle = () => {
      if (settled) throw new Error('login reservation settled twice');
      settled = true;
    };
    const giveBack = (trx: Db, scope: string) =>
      trx
        .updateTable('loginAttempts')
        .set((eb) => ({ failures: eb('failures', '-', 1) }))
        .where('scope', '=', scope)
        .where('failures', '>', 0)
        .execute();

    return {
      failed: async () => {
        settle();
        const at = this.clock.now();
        await this.db
          .updateTable('loginAttempts')
          .set({ lastAt: at, expiresAt: at + LOCK_MS })
          .where('scope', 'in', keys)
          .execute();
        const pair = await this.db.selectFrom('loginAttempts').select('failures').where('scope', '=', scopes.pair).executeTakeFirst();
        return pair?.failures ?? 1;
      },
      release: async () => {
        settle();
        await this.db.transaction().execute(async (trx) => {
          for (const scope of keys) await giveBack(trx, scope);
        });
      },
      succeeded: async () => {
        settle();
        await this.db.transaction().execute(async (trx) => {
          await trx.deleteFrom('loginAttempts').where('scope', 'in', [scopes.pair, scopes.user]).execute();
          await giveBack(trx, scopes.addr);
        });
      },
    };
  }
}
