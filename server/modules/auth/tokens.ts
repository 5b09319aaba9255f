import type { Db } from '../../db/index.ts';
import { longToken, sha256 } from '../../lib/ids.ts';

/** Login-token lifetimes (sliding) as in 1.3.9. */
export const TOKEN_TTL_MS = 2 * 60 * 60 * 1000;
export const REMEMBER_TTL_MS = 14 * 24 * 60 * 60 * 1000;
/** A request within this long of the last refresh does not write: keeps auth a single read. */
export const SLIDE_AFTER_MS = 60 * 1000;

export const ttlOf = (remember: boolean | number) => (remember ? REMEMBER_TTL_MS : TOKEN_TTL_MS);

export const ACCESS_TOKEN_PREFIX = 'forever-';

/** Creates a login token; only its SHA-256 is stored. */
export async function issueLoginToken(db: Db, userId: string, remember: boolean, loginLogId: string, now: number): Promise<string> {
  const token = longToken();
  await db
    .insertInto('tokens')
    .values({ id: sha256(token), userId, loginLogId, remember: remember ? 1 : 0, created: now, expiresAt: now + ttlOf(remember), refreshedAt: now })
    .execute();
  return token;
}

/**
 * Ends login tokens (logout, expiry, password change): stamps their login logs' logoutTime, deletes them,
 * and marks their users offline when none of their tokens remains alive. `db` may be a transaction.
 */
export async function endLoginTokens(db: Db, where: { tokenId: string } | { userId: string }, now: number): Promise<void> {
  // Joins the caller's transaction when given one (deleting users ends their tokens in the same transaction).
  const atomically = (fn: (trx: Db) => Promise<void>) => (db.isTransaction ? fn(db) : db.transaction().execute(fn));
  await atomically(async (trx) => {
    const rows = await trx
      .selectFrom('tokens')
      .select(['id', 'userId', 'loginLogId'])
      .$if('tokenId' in where, (q) => q.where('id', '=', (where as { tokenId: string }).tokenId))
      .$if('userId' in where, (q) => q.where('userId', '=', (where as { userId: string }).userId))
      .execute();
    if (rows.length === 0) return;
    await trx
      .updateTable('loginLogs')
      .set({ logoutTime: now })
      .where(
        'id',
        'in',
        rows.map((r) => r.loginLogId),
      )
      .where('logoutTime', 'is', null)
      .execute();
    await trx
      .deleteFrom('tokens')
      .where(
        'id',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
    for (const userId of new Set(rows.map((r) => r.userId))) {
      const alive = await trx.selectFrom('tokens').select('id').where('userId', '=', userId).where('expiresAt', '>', now).executeTakeFirst();
      if (!alive) await trx.updateTable('users').set({ online: 0 }).where('id', '=', userId).execute();
    }
  });
}
