import { type Expression, type SqlBool, sql } from 'kysely';
import type { Db } from '../db/index.ts';
import { formatDate } from '../lib/time.ts';
import { SUPER_ADMIN_ID } from '../permissions/effective.ts';
import { type Strategy, strategiesById } from './strategies.ts';

/*
 * The access rule: the one place that answers "may user U open asset A, and with which strategy?".
 * The worker list, GET /account/assets, the explain answer and POST /sessions all ask here.
 *
 *   1. the super admin opens every asset, without restriction;
 *   2. the asset's owner opens it, without restriction;
 *   3. otherwise an authorisation must apply: one for U itself, or one for a group U is a member of, and it counts
 *      only inside its window (validFrom ≤ now < validUntil; an open side is no limit);
 *   4. when several apply, one wins and its strategy rules the session: a grant to U itself beats a grant to a
 *      group (the more specific decision), then the most recent (`created`), then the smaller id (so the answer
 *      never depends on row order). No strategy = no restriction (1.3.9).
 * Admin-type accounts other than the super admin follow the same rule (1.3.9 let any admin open any asset).
 * Everything is read per call (no cache): a change of membership or grant applies on the next request.
 */

export type GrantState = 'active' | 'pending' | 'expired';
export type Via = 'super-admin' | 'owner' | 'user' | 'group';

interface Window {
  validFrom: number | null;
  validUntil: number | null;
}

/** Where `now` falls in a grant's window: before it (pending), inside (active), at or after its end (expired). */
export function stateAt(w: Window, now: number): GrantState {
  if (w.validFrom !== null && now < w.validFrom) return 'pending';
  if (w.validUntil !== null && now >= w.validUntil) return 'expired';
  return 'active';
}

/** The SQL twin of `stateAt(…) === 'active'` for the authorised row aliased `t`. */
function activeAt(t: string, now: number): Expression<SqlBool> {
  const from = sql.ref(`${t}.validFrom`);
  const until = sql.ref(`${t}.validUntil`);
  return sql<SqlBool>`(${from} is null or ${from} <= ${now}) and (${until} is null or ${until} > ${now})`;
}

/** The SQL twin of `stateAt(…) !== 'expired'` (active now, or later) for the authorised row aliased `t`. */
function notExpiredAt(t: string, now: number): Expression<SqlBool> {
  const until = sql.ref(`${t}.validUntil`);
  return sql<SqlBool>`(${until} is null or ${until} > ${now})`;
}

/**
 * The ids (`assetId`) of the assets `userId` may open at `now`, as a sub-query for `a.id in (…)`: owned, granted
 * directly, granted through a group; each part an index range (assets_owner, authorised_user, group membership ×
 * authorised_group). null for the super admin: every asset, no filter to apply. `later` counts grants whose window
 * has not begun yet too: what the account will be able to open (containment compares that).
 */
export function openableAssetIds(db: Db, userId: string, now: number, { later = false } = {}) {
  if (userId === SUPER_ADMIN_ID) return null;
  const window = (t: string) => (later ? notExpiredAt(t, now) : activeAt(t, now));
  const owned = db.selectFrom('assets').select('id as assetId').where('owner', '=', userId);
  const direct = db.selectFrom('authorised as t').select('t.assetId').where('t.userId', '=', userId).where(window('t'));
  const viaGroups = db
    .selectFrom('userGroupMembers as m')
    .innerJoin('authorised as t', 't.userGroupId', 'm.userGroupId')
    .select('t.assetId')
    .where('m.userId', '=', userId)
    .where(window('t'));
  return owned.union(direct).union(viaGroups);
}

export type AssetScope = NonNullable<ReturnType<typeof openableAssetIds>>;

/** One authorisation touching a (user, asset) pair: to the user itself, or to a group the user is a member of. */
export interface Grant extends Window {
  id: string;
  kind: 'user' | 'group';
  userGroupId: string | null;
  userGroupName: string | null;
  strategyId: string | null;
  created: number;
  state: GrantState;
}

/** Every grant touching the pair, whatever its window (the explain answer shows why the others do not count). */
export async function grantsTouching(db: Db, userId: string, assetId: string, now: number): Promise<Grant[]> {
  const rows = await db
    .selectFrom('authorised as t')
    .leftJoin('userGroups as g', 'g.id', 't.userGroupId')
    .select(['t.id', 't.userId', 't.userGroupId', 'g.name as userGroupName', 't.strategyId', 't.validFrom', 't.validUntil', 't.created'])
    .where('t.assetId', '=', assetId)
    .where((eb) =>
      eb.or([
        eb('t.userId', '=', userId),
        eb('t.userGroupId', 'in', eb.selectFrom('userGroupMembers as m').select('m.userGroupId').where('m.userId', '=', userId)),
      ]),
    )
    .execute();
  return rows.map((r) => ({
    id: r.id,
    kind: r.userId !== null ? 'user' : 'group',
    userGroupId: r.userGroupId,
    userGroupName: r.userGroupName,
    strategyId: r.strategyId,
    validFrom: r.validFrom,
    validUntil: r.validUntil,
    created: r.created,
    state: stateAt(r, now),
  }));
}

/** The winning grant among those that count (rule 4 above), or null when none is active. */
export function winner(grants: readonly Grant[]): Grant | null {
  const rank = (g: Grant) => (g.kind === 'user' ? 0 : 1);
  const active = grants.filter((g) => g.state === 'active');
  active.sort((a, b) => rank(a) - rank(b) || b.created - a.created || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return active[0] ?? null;
}

export interface Decision {
  allowed: boolean;
  via: Via | null;
  /** The grant that lets the user in (null for the super admin, the owner, or a refusal). */
  grant: Grant | null;
  /** The strategy of that grant; null = no restriction. */
  strategyId: string | null;
  /** Every grant touching the pair (listed for the super admin and the owner too, though their way in needs none). */
  grants: Grant[];
}

const REFUSED: Decision = { allowed: false, via: null, grant: null, strategyId: null, grants: [] };

/** May `userId` open `assetId` at `now`, and under which strategy? An unknown asset or user is a refusal. */
export async function decide(db: Db, userId: string, assetId: string, now: number): Promise<Decision> {
  const asset = await db.selectFrom('assets').select('owner').where('id', '=', assetId).executeTakeFirst();
  if (!asset) return REFUSED;
  const grants = await grantsTouching(db, userId, assetId, now);
  if (userId === SUPER_ADMIN_ID) return { ...REFUSED, allowed: true, via: 'super-admin', grants };
  if (asset.owner === userId) return { ...REFUSED, allowed: true, via: 'owner', grants };
  const grant = winner(grants);
  if (!grant) return { ...REFUSED, grants };
  return { allowed: true, via: grant.kind, grant, strategyId: grant.strategyId, grants };
}

/** `GET /authorised/explain`: the decision and every grant touching the pair, each with its state and whether it wins. */
export async function explain(db: Db, userId: string, assetId: string, now: number) {
  const d = await decide(db, userId, assetId, now);
  const strategies = await strategiesById(db, [...new Set(d.grants.map((g) => g.strategyId).filter((id): id is string => id !== null))]);
  const strategy: Strategy | null = d.strategyId ? (strategies.get(d.strategyId) ?? null) : null;
  return {
    allowed: d.allowed,
    strategy,
    via: d.via,
    grants: d.grants.map((g) => ({
      id: g.id,
      kind: g.kind,
      ...(g.kind === 'group' ? { userGroupId: g.userGroupId ?? '', userGroupName: g.userGroupName ?? '' } : {}),
      strategyId: g.strategyId ?? '',
      strategyName: g.strategyId ? (strategies.get(g.strategyId)?.name ?? '') : '',
      validFrom: windowDate(g.validFrom),
      validUntil: windowDate(g.validUntil),
      state: g.state,
      wins: d.grant?.id === g.id,
    })),
  };
}

/** A window side on the wire: '' when open (wire-12), else the wire date. */
export const windowDate = (ms: number | null): string => (ms === null ? '' : formatDate(ms));
