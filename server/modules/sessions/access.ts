import type { Db } from '../../db/index.ts';
import type { Protocol } from '../../db/schema.ts';
import { decide, grantsTouching } from '../../policy/access-rule.ts';
import { REFUSAL, type RefusalReason } from '../logs/index.ts';
import type { StrategyFlags } from '../../db/schema.ts';
import { grantedFlags, NO_FLAGS } from './flags.ts';

/*
 * What a user may do on an asset right now: the access rule's decision with the flags of its strategy. POST /sessions
 * asks it to open a session; the attach, every file operation and the live-session checks (cuts.ts) ask it again, so
 * a grant removed, an account disabled or a strategy narrowed applies to sessions already open (audit H2 C2, C3).
 */

export interface SessionAccess {
  /** The flags the applied strategy grants (what a session offers for files is the relay's to say: flags.ts). */
  flags: StrategyFlags;
  strategyId: string | null;
  asset: { protocol: Protocol; ip: string; port: number; accessGatewayId: string | null };
}

/**
 * The access rule for (userId, assetId) at `now` and the flags it grants; null when refused: no grant, the asset or
 * the account gone, or the account disabled (its token dies with it, its sessions too).
 */
export async function sessionAccess(db: Db, userId: string, assetId: string, now: number): Promise<SessionAccess | null> {
  const user = await db.selectFrom('users').select('status').where('id', '=', userId).executeTakeFirst();
  if (user?.status !== 'enabled') return null;
  const decision = await decide(db, userId, assetId, now);
  if (!decision.allowed) return null;
  const asset = await db.selectFrom('assets').select(['protocol', 'ip', 'port', 'accessGatewayId']).where('id', '=', assetId).executeTakeFirst();
  if (!asset) return null; // deleted between the two reads
  const strategy = decision.strategyId ? await db.selectFrom('strategies').selectAll().where('id', '=', decision.strategyId).executeTakeFirst() : null;
  // A grant naming a strategy that is gone (deletes are refused while grants use one; an old import might not have
  // been) was meant to restrict: it grants no flag rather than all.
  const applied = decision.strategyId ? (strategy ?? NO_FLAGS) : null;
  return { flags: grantedFlags(applied), strategyId: decision.strategyId, asset };
}

/**
 * Why the access rule refuses (userId, assetId) at `now`, for the operation log: the account disabled or gone, the
 * asset gone, a grant whose window has not begun or has ended, or no grant at all.
 */
export async function refusalReason(db: Db, userId: string, assetId: string, now: number): Promise<RefusalReason> {
  const user = await db.selectFrom('users').select('status').where('id', '=', userId).executeTakeFirst();
  if (user?.status !== 'enabled') return REFUSAL.accountDisabled;
  const asset = await db.selectFrom('assets').select('id').where('id', '=', assetId).executeTakeFirst();
  if (!asset) return REFUSAL.assetMissing;
  const grants = await grantsTouching(db, userId, assetId, now);
  if (grants.some((g) => g.state === 'pending')) return REFUSAL.grantPending;
  if (grants.some((g) => g.state === 'expired')) return REFUSAL.grantExpired;
  return REFUSAL.noGrant;
}
