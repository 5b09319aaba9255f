import type { Db } from '../../db/index.ts';
import { fail } from '../../http/envelope.ts';
import { LABELS, type Reference } from '../../policy/references.ts';

/* Whether assets still use a credential or a gateway that is about to be deleted: the assets table is this module's. */

/** Asset names shown per refused record; the count says how many there are in all. */
const NAMED = 10;

/**
 * Refuses (`-1`, one clause per record in use, naming its assets) to delete credentials or gateways that assets
 * still use: `授权凭证「prod」仍被 2 个资产使用，不能删除：db-1、web-1`. The asset names are in `data` too.
 */
export async function assertNotUsedByAssets(trx: Db, reference: Reference, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const uses = await trx
    .selectFrom('assets')
    .select(['name', `${reference} as ref`])
    .where(reference, 'in', ids)
    .orderBy('name')
    .execute();
  if (uses.length === 0) return;
  const records =
    reference === 'credentialId'
      ? await trx.selectFrom('credentials').select(['id', 'name']).where('id', 'in', ids).execute()
      : await trx.selectFrom('accessGateways').select(['id', 'name']).where('id', 'in', ids).execute();
  const nameOf = new Map(records.map((r) => [r.id, r.name]));
  const byRecord = new Map<string, string[]>();
  for (const u of uses) byRecord.set(u.ref!, [...(byRecord.get(u.ref!) ?? []), u.name]);
  const clauses = [...byRecord].map(([id, assets]) => {
    const named = assets.slice(0, NAMED).join('、') + (assets.length > NAMED ? ' 等' : '');
    return `${LABELS[reference]}「${nameOf.get(id) ?? id}」仍被 ${assets.length} 个资产使用，不能删除：${named}`;
  });
  throw fail(clauses.join('；'), Object.fromEntries(byRecord));
}
