import type { Db } from '../db/index.ts';
import { longToken, sha256, uuid } from '../lib/ids.ts';
import type { SecretBox } from '../lib/secret-box.ts';

/** Login-token lifetimes (sliding) as in 1.3.9. */
export const TOKEN_TTL_MS = 2 * 60 * 60 * 1000;
export const REMEMBER_TTL_MS = 14 * 24 * 60 * 60 * 1000;
/** A request within this long of the last refresh does not write: keeps auth a single read. */
export const SLIDE_AFTER_MS = 60 * 1000;

export const ttlOf = (remember: boolean | number) => (remember ? REMEMBER_TTL_MS : TOKEN_TTL_MS);

export const ACCESS_TOKEN_PREFIX = 'forever-';

/** Runs `fn` in the caller's transaction when `db` is one, else in a new one. */
const atomically = (db: Db, fn: (trx: Db) => Promise<void>) => (db.isTransaction ? fn(db) : db.transaction().execute(fn));

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
 * Ends login tokens (logout, expiry, password change, a login-log row deleted): stamps their login logs' logoutTime, deletes them,
 * and marks their users offline when none of their tokens remains alive. `db` may be a transaction.
 */
export async function endLoginTokens(db: Db, where: { tokenId: string } | { userId: string } | { loginLogIds: readonly string[] }, now: number): Promise<void> {
  if ('loginLogIds' in where && where.loginLogIds.length === 0) return;
  // Joins the caller's transaction when given one (deleting users ends their tokens in the same transaction).
  await atomically(db, async (trx) => {
    const rows = await trx
      .selectFrom('tokens')
      .select(['id', 'userId', 'loginLogId'])
      .$if('tokenId' in where, (q) => q.where('id', '=', (where as { tokenId: string }).tokenId))
      .$if('userId' in where, (q) => q.where('userId', '=', (where as { userId: string }).userId))
      .$if('loginLogIds' in where, (q) => q.where('loginLogId', 'in', (where as { loginLogIds: readonly string[] }).loginLogIds))
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

/** How long after its creation GET /account/access-token may show a token in full (once). */
export const SHOW_ACCESS_TOKEN_MS = 5 * 60 * 1000;

/** `forever-…a1b2`: enough to tell tokens apart, nothing to use. */
export const accessTokenHint = (token: string): string => `${ACCESS_TOKEN_PREFIX}…${token.slice(-4)}`;

/**
 * Creates the user's personal access token, replacing any previous one. Stored: its SHA-256, its hint and, until
 * GET shows it once, the token sealed by the secret box. Returns the token.
 */
export async function issueAccessToken(db: Db, box: SecretBox, userId: string, now: number): Promise<string> {
  const token = ACCESS_TOKEN_PREFIX + uuid();
  await atomically(db, async (trx) => {
    await trx.deleteFrom('accessToken').where('userId', '=', userId).execute();
    await trx.insertInto('accessToken').values({ id: uuid(), userId, tokenHash: sha256(token), hint: accessTokenHint(token), shown: box.encrypt(token), created: now }).execute();
  });
  return token;
}

/** Ends every token of an account: its login tokens and its personal access token (password change, disable, delete). */
export async function endAllTokens(db: Db, userId: string, now: number): Promise<void> {
  await atomically(db, async (trx) => {
    await endLoginTokens(trx, { userId }, now);
    await trx.deleteFrom('accessToken').where('userId', '=', userId).execute();
  });
}

/**
 * The user's access token for GET /account/access-token: in full on the first read within SHOW_ACCESS_TOKEN_MS of
 * its creation (the 1.3.9 console creates with POST, then reads with GET), else its hint. Shown copies past their
 * time are dropped, everyone's, on the way.
 */
export async function readAccessToken(db: Db, box: SecretBox, userId: string, now: number): Promise<{ id: string; userId: string; token: string; created: number } | undefined> {
  await db.updateTable('accessToken').set({ shown: null }).where('shown', 'is not', null).where('created', '<=', now - SHOW_ACCESS_TOKEN_MS).execute();
  const row = await db.selectFrom('accessToken').select(['id', 'userId', 'hint', 'shown', 'created']).where('userId', '=', userId).executeTakeFirst();
  if (!row) return undefined;
  let token = row.hint;
  if (row.shown !== null) {
    // Taking the copy and clearing it is one conditional write: two parallel reads cannot both see the token.
    const taken = await db.updateTable('accessToken').set({ shown: null }).where('id', '=', row.id).where('shown', '=', row.shown).executeTakeFirst();
    if (taken.numUpdatedRows === 1n) token = box.decrypt(row.shown);
  }
  return { id: row.id, userId: row.userId, token, created: row.created };
}
