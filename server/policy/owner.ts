import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../db/index.ts';
import { fail } from '../http/envelope.ts';
import { text } from '../lib/i18n.ts';
import { SUPER_ADMIN_ID } from '../permissions/effective.ts';
import type { Actor } from './containment.ts';
import { zId } from '../http/ids.ts';

/*
 * Records owned by a user (credentials, commands, gateways, assets) keep the user's id in `owner`; the wire adds
 * `ownerName`, the owner's nickname ('' once that user is deleted: the record stays).
 */

export const MSG_SELF_OWNER = text('不能把其他账户的记录转给您自己：只有超级管理员可以', 'You cannot take over another account’s record: only the super admin may');

/**
 * Whether `actorId` may do with a record's secrets what its owner may (send them to a new destination, trust a new
 * host key, attach or copy them): the record's owner and the super admin only (docs/SERVER.md "Using a secret").
 */
export const actsAsOwner = (actorId: string, owner: string | null): boolean => actorId === SUPER_ADMIN_ID || owner === actorId;

/** `POST /x/:id/change-owner?owner=<userId>` (contract §1.8: the new owner travels in the query). */
export const ownerQuery = z.object({ owner: zId });

/** Select `ownerName` from a query that left-joins `users as ou` on the owner. */
export const ownerName = sql<string>`coalesce(ou.nickname, '')`.as('ownerName');

/** A change-owner target must be an existing user (1.3.9 stored any string). */
export async function assertUserExists(db: Db, id: string): Promise<void> {
  const user = await db.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst();
  if (!user) throw fail(`用户不存在：${id}`);
}

/**
 * A change of owner acts on both accounts (containment.ts): the one that loses the record and the one that gains it;
 * an owner opens its assets without grants and uses its credentials in assets, so the new owner must not be one the
 * caller may not act on, nor the old one an account it could not manage. A deleted previous owner is left out. Nobody
 * but the super admin makes itself the owner of another's record.
 */
export async function assertMayChangeOwner(trx: Db, actor: Actor, previous: string, next: string): Promise<void> {
  await assertUserExists(trx, next);
  // An owner uses its record without a grant (opens its assets unrestricted, uses its credentials): taking another's
  // record is handing oneself more, which only the super admin may (delegation never widens).
  if (next === actor.id && previous !== actor.id && actor.id !== SUPER_ADMIN_ID) throw fail(MSG_SELF_OWNER);
  const ids = [...new Set([previous, next])];
  const existing = await trx.selectFrom('users').select('id').where('id', 'in', ids).execute();
  await actor.mayActOn(
    trx,
    existing.map((u) => u.id),
    'owner',
  );
}
