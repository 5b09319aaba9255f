import { z } from 'zod';
import type { Db } from '../../db/index.ts';
import { fail } from '../../http/envelope.ts';
import { zDate } from '../../http/validation.ts';
import { sign } from '../../lib/ids.ts';
import { assertNoSilentWidening, assertWithinHold } from '../../policy/delegation.ts';
import { assertStrategyExists } from '../../policy/strategies.ts';
import type { Actor } from '../../policy/containment.ts';
import { MAX_IDS, requireAll, zId } from '../../http/ids.ts';

/* Writing authorisations (contract §2.21): the checks every bind and unbind makes, in the route's transaction. */

export const MSG = {
  oneSubject: '授权对象必须是一个用户或一个用户组（二者选其一）',
  window: '授权结束时间必须晚于开始时间',
  notFound: (id: string) => `授权不存在：${id}`,
};

/** The most (asset, subject) pairs one bulk grant writes: a page's selection is far below; a bound on the work. */
export const MAX_PAIRS = 5000;

/** A non-empty list of ids in a body (duplicates dropped). */
export const zIds = z
  .array(zId)
  .min(1, 'at least one id')
  .max(MAX_IDS, `at most ${MAX_IDS} ids`)
  .transform((v) => [...new Set(v)]);

/** An optional id: '', '-', null or absent = none. */
export const zOptionalId = z
  .string()
  .max(64, 'at most 64 characters')
  .nullish()
  .transform((v) => (v && v !== '-' ? v : null));

/** What every bind body carries besides its subjects and assets. */
export const grantFields = {
  strategyId: zOptionalId,
  commandFilterId: zOptionalId,
  validFrom: zDate,
  validUntil: zDate,
};

export interface GrantTerms {
  strategyId: string | null;
  commandFilterId: string | null;
  validFrom: number | null;
  validUntil: number | null;
}

/** One (asset, subject) pair to grant; exactly one of userId / userGroupId. */
export interface Pair {
  assetId: string;
  userId: string | null;
  userGroupId: string | null;
}

/** 1.3.9's deterministic id: re-authorising the same pair replaces the row. */
export const grantId = (p: Pair) => sign([p.assetId, p.userId ?? '', p.userGroupId ?? '']);

export async function assertAssetsExist(trx: Db, ids: readonly string[]): Promise<void> {
  const found = await trx.selectFrom('assets').select('id').where('id', 'in', ids).execute();
  requireAll('资产', ids, found.map((a) => a.id));
}

/**
 * Granting to a subject, or taking a grant away, changes what accounts may reach: the caller must be able to act on
 * the user (containment.ts), or on every member of the group. Unknown users or groups are a -1 naming them.
 */
export async function assertMayAuthorise(trx: Db, actor: Actor, subject: { userIds?: readonly string[]; userGroupIds?: readonly string[] }): Promise<void> {
  if (subject.userIds?.length) await actor.mayActOn(trx, subject.userIds, 'authorise');
  const groupIds = subject.userGroupIds ?? [];
  if (groupIds.length) {
    const found = await trx.selectFrom('userGroups').select('id').where('id', 'in', groupIds).execute();
    requireAll('用户组', groupIds, found.map((g) => g.id));
    const members = await trx.selectFrom('userGroupMembers').select('userId').distinct().where('userGroupId', 'in', groupIds).execute();
    await actor.mayActOn(
      trx,
      members.map((m) => m.userId),
      'authorise',
    );
  }
}

/**
 * Writes the grants (replacing those of the same pairs) after checking the terms: the window, the strategy, and that
 * delegation never widens (access/delegation.ts): the terms are within what `giverId` holds on each asset, and no
 * grant replaced is stricter than the new one.
 */
export async function grant(trx: Db, pairs: readonly Pair[], terms: GrantTerms, now: number, giverId: string): Promise<void> {
  if (terms.validFrom !== null && terms.validUntil !== null && terms.validUntil <= terms.validFrom) throw fail(MSG.window);
  if (terms.strategyId) await assertStrategyExists(trx, terms.strategyId);
  const { strategyId, commandFilterId, validFrom, validUntil } = terms; // terms may be a whole body: take only these
  const kept = { strategyId, validFrom, validUntil };
  await assertWithinHold(trx, giverId, [...new Set(pairs.map((p) => p.assetId))], kept, now);
  const keyed = pairs.map((p) => ({ id: grantId(p), ...p }));
  await assertNoSilentWidening(trx, keyed, kept, now);
  const rows = keyed.map((p) => ({ ...p, strategyId, commandFilterId, validFrom, validUntil, created: now }));
  for (let i = 0; i < rows.length; i += 200) {
    const chunk = rows.slice(i, i + 200);
    await trx
      .deleteFrom('authorised')
      .where(
        'id',
        'in',
        chunk.map((r) => r.id),
      )
      .execute();
    await trx.insertInto('authorised').values(chunk).execute();
  }
}
