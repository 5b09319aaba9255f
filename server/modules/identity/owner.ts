import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../db/index.ts';
import { fail } from '../../http/envelope.ts';
import { zId } from './shared.ts';

/*
 * Records owned by a user (credentials, commands, gateways, assets) keep the user's id in `owner`; the wire adds
 * `ownerName`, the owner's nickname ('' once that user is deleted: the record stays).
 */

/** `POST /x/:id/change-owner?owner=<userId>` (contract §1.8: the new owner travels in the query). */
export const ownerQuery = z.object({ owner: zId });

/** Select `ownerName` from a query that left-joins `users as ou` on the owner. */
export const ownerName = sql<string>`coalesce(ou.nickname, '')`.as('ownerName');

/** A change-owner target must be an existing user (1.3.9 stored any string). */
export async function assertUserExists(db: Db, id: string): Promise<void> {
  const user = await db.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst();
  if (!user) throw fail(`用户不存在：${id}`);
}
