import type { Db } from '../db/index.ts';
import { fail } from '../http/envelope.ts';
import { both } from '../lib/i18n.ts';
import type { Actor } from './containment.ts';
import { SUPER_ADMIN_ID } from '../permissions/effective.ts';
import { actsAsOwner } from './owner.ts';

/*
 * Assets point at a credential (accountType credential) and at an access gateway. Those tables belong to other
 * modules (migration 006, no foreign keys from assets): the asset routes check here that what they point at exists,
 * and that the caller may use the credential. Whether assets still use what a delete would remove is the assets
 * module's to say (modules/assets/usage.ts, asked through http/events.ts).
 */


export type Reference = 'credentialId' | 'accessGatewayId';

export const LABELS: Readonly<Record<Reference, string>> = { credentialId: '授权凭证', accessGatewayId: '接入网关' };

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
 * Using a secret is a right of its own (issue 28, rule 3). An asset that logs in with a credential sends its secret to
 * the asset's address, so pointing an asset at a credential (a new asset, a copy, another credential, a new address)
 * is using the credential: allowed to its owner and to the super admin only. Holding the same menu keys as the owner,
 * or being able to manage the owner's account, is not enough; there is no share: an owner who wants another admin to
 * use a credential hands it over (change owner) or has that admin create its own.
 * `-1 不能使用授权凭证「<name>」：只有它的所有者或超级管理员可以把它用于资产`.
 */
export async function assertMayUseCredential(trx: Db, actor: Pick<Actor, 'id'>, credentialId: string): Promise<void> {
  const credential = await trx.selectFrom('credentials').select(['name', 'owner']).where('id', '=', credentialId).executeTakeFirst();
  if (!credential) throw fail(`${LABELS.credentialId}不存在：${credentialId}`);
  if (actsAsOwner(actor.id, credential.owner)) return;
  throw fail(both(`不能使用授权凭证「${credential.name}」：只有它的所有者或超级管理员可以把它用于资产`, `Cannot use the credential “${credential.name}”: only its owner or the super admin may attach it to an asset`));
}

/** Whether `actor` may use the credential (assertMayUseCredential's rule, without the answer). */
export async function mayUseCredential(trx: Db, actor: Pick<Actor, 'id'>, credentialId: string): Promise<boolean> {
  if (actor.id === SUPER_ADMIN_ID) return true;
  const credential = await trx.selectFrom('credentials').select('owner').where('id', '=', credentialId).executeTakeFirst();
  return credential?.owner === actor.id;
}
