import type { Db } from '../../db/index.ts';
import { fail } from '../../http/envelope.ts';
import type { Actor } from '../identity/containment.ts';

/*
 * Assets point at a credential (accountType credential) and at an access gateway. Those tables belong to other
 * modules (migration 006, no foreign keys from assets): the asset routes check that what they point at exists, and
 * the credential and gateway deletes ask here whether assets still use what they would delete.
 */

/** Asset names shown per refused record; the count says how many there are in all. */
const NAMED = 10;

type Reference = 'credentialId' | 'accessGatewayId';

const LABELS: Readonly<Record<Reference, string>> = { credentialId: '授权凭证', accessGatewayId: '接入网关' };

/** `-1 <what>不存在：<id>` when the asset body points at a credential or gateway that does not exist. */
export async function assertReferences(trx: Db, refs: { credentialId: string | null; accessGatewayId: string | null }): Promise<void> {
  if (refs.credentialId !== null) {
    const found = await trx.selectFrom('credentials').select('id').where('id', '=', refs.credentialId).executeTakeFirst();
    if (!found) throw fail(`${LABELS.credentialId}不存在：${refs.credentialId}`);
  }
  if (refs.accessGatewayId !== null) {
    const found = await trx.selectFrom('accessGateways').select('id').where('id', '=', refs.accessGatewayId).executeTakeFirst();
    if (!found) throw fail(`${LABELS.accessGatewayId}不存在：${refs.accessGatewayId}`);
  }
}

/**
 * An asset that logs in with a credential sends its secret to the asset's address, so pointing an asset at a
 * credential (a new asset, a copy, another credential, or a new address) is using the credential: allowed to its
 * owner, and to whoever may act on that owner (containment.ts) — not to anyone who merely sees the credential list.
 */
export async function assertMayUseCredential(trx: Db, actor: Actor, credentialId: string): Promise<void> {
  const credential = await trx.selectFrom('credentials').select(['name', 'owner']).where('id', '=', credentialId).executeTakeFirst();
  if (!credential) throw fail(`${LABELS.credentialId}不存在：${credentialId}`);
  if (credential.owner === actor.id) return;
  const owner = await trx.selectFrom('users').select('id').where('id', '=', credential.owner).executeTakeFirst();
  if (!owner) throw fail(`${LABELS.credentialId}「${credential.name}」的所有者已不存在：请先更改它的所有者`);
  await actor.mayActOn(trx, [owner.id], 'credential');
}

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
