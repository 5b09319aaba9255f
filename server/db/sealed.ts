import type { Kysely } from 'kysely';
import type { SecretBox } from '../lib/secret-box.ts';

/**
 * Every column holding a value sealed by the secret box. A module that stores a new kind of secret adds its
 * column here, so that key rotation (`resealSecrets`, run at every start) and the no-plain-secret test cover it.
 */
export interface SealedColumn {
  table: string;
  /** Primary-key column. */
  key: string;
  column: string;
  /** Plain values that mean "none" (e.g. '-' for TOTP off); null is always "none". */
  none?: readonly string[];
  /**
   * Only the rows where this column holds this value are sealed: a key/value table where one name is a secret
   * (asset_attributes: `name = 'socks-proxy-password'`).
   */
  where?: { column: string; equals: string };
}

export const SEALED_COLUMNS: readonly SealedColumn[] = [
  { table: 'users', key: 'id', column: 'totp_secret', none: ['-', ''] },
  { table: 'access_token', key: 'id', column: 'shown' },
  { table: 'credentials', key: 'id', column: 'password' },
  { table: 'credentials', key: 'id', column: 'private_key' },
  { table: 'credentials', key: 'id', column: 'passphrase' },
  { table: 'access_gateways', key: 'id', column: 'password' },
  { table: 'access_gateways', key: 'id', column: 'private_key' },
  { table: 'access_gateways', key: 'id', column: 'passphrase' },
  { table: 'assets', key: 'id', column: 'password' },
  { table: 'assets', key: 'id', column: 'private_key' },
  { table: 'assets', key: 'id', column: 'passphrase' },
  { table: 'asset_attributes', key: 'id', column: 'value', where: { column: 'name', equals: 'socks-proxy-password' } },
  { table: 'asset_attributes', key: 'id', column: 'value', where: { column: 'name', equals: 'client-key' } },
];

/** The stored (sealed) values of one sealed column, "none" values left out. */
// biome-ignore lint/suspicious/noExplicitAny: walks tables by name from SEALED_COLUMNS, below the typed schema.
export async function sealedValues(db: Kysely<any>, c: SealedColumn): Promise<{ key: string; value: string }[]> {
  let q = db.selectFrom(c.table).select([`${c.key} as key`, `${c.column} as value`]).where(c.column, 'is not', null);
  if (c.where) q = q.where(c.where.column, '=', c.where.equals);
  const rows: { key: string; value: string }[] = await q.execute();
  return rows.filter((r) => !c.none?.includes(r.value));
}

/**
 * Seals again, with the current key, every value sealed by an old key (JUMPGATE_SECRET_KEY_OLD). Fails the start
 * when a value is plain or sealed by a key that is not loaded: better than answering wrong codes later. One
 * transaction: a failure changes nothing. Returns how many values were resealed.
 */
// biome-ignore lint/suspicious/noExplicitAny: walks tables by name from SEALED_COLUMNS, below the typed schema.
export async function resealSecrets(db: Kysely<any>, box: SecretBox, columns: readonly SealedColumn[] = SEALED_COLUMNS): Promise<number> {
  let count = 0;
  await db.transaction().execute(async (trx) => {
    for (const c of columns) {
      for (const { key: k, value: v } of await sealedValues(trx, c)) {
        if (box.isCurrent(v)) continue;
        if (!box.isSealed(v)) throw new Error(`${c.table}.${c.column} of ${k} is not sealed by the secret box`);
        let plain: string;
        try {
          plain = box.decrypt(v);
        } catch (err) {
          throw new Error(`${c.table}.${c.column} of ${k}: ${(err as Error).message}`);
        }
        await trx.updateTable(c.table).set({ [c.column]: box.encrypt(plain) }).where(c.key, '=', k).execute();
        count++;
      }
    }
  });
  return count;
}
