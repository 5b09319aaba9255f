import type { Db } from '../db/index.ts';
import type { Strategy as StrategyRow } from '../db/schema.ts';
import { fail } from '../http/envelope.ts';
import { both, type Localized, text } from '../lib/i18n.ts';
import { formatDate } from '../lib/time.ts';
import { SUPER_ADMIN_ID } from '../permissions/effective.ts';
import { FLAGS } from './strategies.ts';
import { type Grant, stateAt, winner } from './access-rule.ts';

/*
 * Delegation never widens (docs/SERVER.md "Security model"): nobody but the super admin changes what applies to
 * itself, and a grant handed to another is never broader than what the giver holds on that asset.
 *
 *   - What an account holds on an asset is the access rule's answer now (rule.ts): the super admin and the owner hold
 *     it without restriction and for ever; anyone else holds the terms of the grant that wins for it now (its
 *     strategy and its window). A pending or expired grant holds nothing.
 *   - Terms B are broader than terms A when B lets its holder do something A does not:
 *       strategy: no strategy is broader than any strategy (a flag added later is on without one), and a strategy
 *                 is broader than another when it allows a flag the other does not;
 *       window:   B ends later than A, or never while A ends; B begins earlier than A (only a window that has not
 *                 begun has a start that matters: a start in the past is now).
 *   - A new grant must not be broader than the giver's own hold (only its strategy and its end can be: the hold is
 *     active, so it has begun).
 *   - A grant replaced by a new one for the same pair (same asset and subject, same id) must not be the stricter of
 *     the two, whoever gives it: a stricter grant is taken away explicitly (unbind), never silently replaced. An
 *     expired grant gives nothing and may be renewed with any terms the giver may give.
 */

/** A grant's terms: its strategy (null = none: no restriction) and its window (null = open on that side). */
export interface Terms {
  strategyId: string | null;
  validFrom: number | null;
  validUntil: number | null;
}

/** What an owner holds: no strategy, no window. Handing ownership over is handing this out. */
export const UNRESTRICTED: Terms = { strategyId: null, validFrom: null, validUntil: null };

type Flag = (typeof FLAGS)[number];

export const MSG = {
  selfGroups: text('不能调整您自己的用户组成员身份：只有超级管理员可以', 'You cannot change your own group memberships: only the super admin may'),
  selfGrants: text('不能调整授予您自己或您所在用户组的资产授权：只有超级管理员可以', 'You cannot change grants to yourself or to a group you are in: only the super admin may'),
  selfStrategy: (name: string) =>
    both(`不能修改授权策略「${name}」：它限制着授予您自己或您所在用户组的授权`, `You cannot change the strategy “${name}”: it restricts a grant to you or to a group you are in`),
};

/** Flag names as the strategy form shows them (the refusals name them). */
const FLAG_NAMES: Record<Flag, { zh: string; en: string }> = {
  upload: { zh: '上传', en: 'upload' },
  download: { zh: '下载', en: 'download' },
  delete: { zh: '删除', en: 'delete' },
  rename: { zh: '重命名', en: 'rename' },
  edit: { zh: '编辑', en: 'edit' },
  createDir: { zh: '创建文件夹', en: 'create folder' },
  copy: { zh: '复制', en: 'copy' },
  paste: { zh: '粘贴', en: 'paste' },
};

/** The strategies with these ids (unknown ids are absent). */
async function strategyRows(db: Db, ids: Iterable<string | null>): Promise<Map<string, StrategyRow>> {
  const wanted = [...new Set([...ids].filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db.selectFrom('strategies').selectAll().where('id', 'in', wanted).execute();
  return new Map(rows.map((s) => [s.id, s]));
}

/** The flags a strategy allows; a strategy that no longer exists allows nothing (the strict reading). */
const allowed = (s: StrategyRow | undefined): Set<Flag> => new Set(s ? FLAGS.filter((f) => s[f] === 1) : []);

/** A strategy's name for a message ('' when none). */
const nameOf = (strategies: Map<string, StrategyRow>, id: string | null) => (id ? (strategies.get(id)?.name ?? id) : '');

/** Whose terms a refusal compares against: the giver's own grant, or the grant a re-grant would replace. */
export interface Whose {
  zh: string;
  en: string;
}

export const YOUR_GRANT: Whose = { zh: '您的授权', en: 'your grant' };
export const EXISTING_GRANT: Whose = { zh: '现有授权', en: 'the existing grant' };

/**
 * Why `next` is broader than `held` (`who`'s terms), in both languages, or null when it is not. `now` places a start
 * in the past at now. `strategies` holds every strategy either names.
 */
export function broader(next: Terms, held: Terms, strategies: Map<string, StrategyRow>, now: number, who: Whose): Localized | null {
  const reasons: Localized[] = [];
  if (held.strategyId !== null) {
    const name = nameOf(strategies, held.strategyId);
    if (next.strategyId === null) {
      reasons.push(both(`${who.zh}受授权策略「${name}」限制，新授权不能没有授权策略`, `${who.en} is restricted by the strategy “${name}”: the new grant cannot go without one`));
    } else {
      const limit = allowed(strategies.get(held.strategyId));
      const extra = [...allowed(strategies.get(next.strategyId))].filter((f) => !limit.has(f));
      if (extra.length) {
        const nextName = nameOf(strategies, next.strategyId);
        reasons.push(
          both(
            `新授权的授权策略「${nextName}」允许${who.zh}的授权策略「${name}」不允许的操作（${extra.map((f) => FLAG_NAMES[f].zh).join('、')}）`,
            `the new grant's strategy “${nextName}” allows what the strategy “${name}” of ${who.en} does not (${extra.map((f) => FLAG_NAMES[f].en).join(', ')})`,
          ),
        );
      }
    }
  }
  if (held.validUntil !== null && (next.validUntil === null || next.validUntil > held.validUntil)) {
    const end = formatDate(held.validUntil);
    reasons.push(both(`${who.zh}有效期至 ${end}，新授权须在此之前结束`, `${who.en} ends at ${end}: the new grant must end by then`));
  }
  const start = (t: Terms) => Math.max(t.validFrom ?? now, now);
  if (held.validFrom !== null && start(next) < start(held)) {
    const begin = formatDate(held.validFrom);
    reasons.push(both(`${who.zh}自 ${begin} 起生效，新授权不能更早开始`, `${who.en} begins at ${begin}: the new grant cannot begin earlier`));
  }
  if (reasons.length === 0) return null;
  return both(reasons.map((r) => r.zh).join('；'), reasons.map((r) => r.en).join('; '));
}

const CHUNK = 400;

/** Grants to leave out, as if removed: by id, or every grant of these groups (a member leaving them). */
export interface Without {
  grantIds?: ReadonlySet<string>;
  groupIds?: ReadonlySet<string>;
}

/**
 * What `userId` holds on each of `assetIds` now (leaving out the grants `without` names): the terms of its way in (unrestricted and for ever for the super
 * admin and the owner), absent when it may not open the asset. One query per chunk, the rule's own winner.
 */
export async function holdsOf(db: Db, userId: string, assetIds: readonly string[], now: number, without: Without = {}): Promise<Map<string, Terms>> {
  const out = new Map<string, Terms>();
  const open: Terms = { strategyId: null, validFrom: null, validUntil: null };
  for (let i = 0; i < assetIds.length; i += CHUNK) {
    const ids = assetIds.slice(i, i + CHUNK);
    if (userId === SUPER_ADMIN_ID) {
      for (const id of ids) out.set(id, open);
      continue;
    }
    const owned = await db.selectFrom('assets').select('id').where('id', 'in', ids).where('owner', '=', userId).execute();
    for (const a of owned) out.set(a.id, open);
    const rows = await db
      .selectFrom('authorised as t')
      .select(['t.id', 't.assetId', 't.userId', 't.userGroupId', 't.strategyId', 't.validFrom', 't.validUntil', 't.created'])
      .where('t.assetId', 'in', ids)
      .where((eb) =>
        eb.or([
          eb('t.userId', '=', userId),
          eb('t.userGroupId', 'in', eb.selectFrom('userGroupMembers as m').select('m.userGroupId').where('m.userId', '=', userId)),
        ]),
      )
      .execute();
    const byAsset = new Map<string, Grant[]>();
    for (const r of rows) {
      if (out.has(r.assetId) || without.grantIds?.has(r.id) || (r.userGroupId !== null && without.groupIds?.has(r.userGroupId))) continue;
      const g: Grant = {
        id: r.id,
        kind: r.userId !== null ? 'user' : 'group',
        userGroupId: r.userGroupId,
        userGroupName: null,
        strategyId: r.strategyId,
        validFrom: r.validFrom,
        validUntil: r.validUntil,
        created: r.created,
        state: stateAt(r, now),
      };
      byAsset.set(r.assetId, [...(byAsset.get(r.assetId) ?? []), g]);
    }
    for (const [assetId, grants] of byAsset) {
      const w = winner(grants);
      if (w) out.set(assetId, { strategyId: w.strategyId, validFrom: w.validFrom, validUntil: w.validUntil });
    }
  }
  return out;
}

/** How many asset names a refusal spells out. */
const NAMED = 3;

/**
 * Throws -1 unless a grant with `terms` on each of `assetIds` is within what `actorId` holds on it (see above).
 * Assets the actor may not open at all are refused by `mayGrantAssets` (containment.ts) before this runs.
 */
export async function assertWithinHold(
  db: Db,
  actorId: string,
  assetIds: readonly string[],
  terms: Terms,
  now: number,
  { strategyOnly = false }: { strategyOnly?: boolean } = {},
): Promise<void> {
  if (actorId === SUPER_ADMIN_ID || assetIds.length === 0) return;
  const holds = await holdsOf(db, actorId, assetIds, now);
  const strategies = await strategyRows(db, [terms.strategyId, ...[...holds.values()].map((h) => h.strategyId)]);
  const refused: { assetId: string; why: Localized }[] = [];
  for (const assetId of assetIds) {
    const hold = holds.get(assetId);
    if (!hold) continue; // not openable: containment's refusal names it
    // A strategy edit changes no window: only the strategies are compared.
    const [next, held] = strategyOnly ? [{ ...terms, validFrom: null, validUntil: null }, { ...hold, validFrom: null, validUntil: null }] : [terms, hold];
    const why = broader(next, held, strategies, now, YOUR_GRANT);
    if (why) refused.push({ assetId, why });
  }
  if (refused.length === 0) return;
  const shown = refused.slice(0, NAMED);
  const names = new Map(
    (
      await db
        .selectFrom('assets')
        .select(['id', 'name'])
        .where(
          'id',
          'in',
          shown.map((r) => r.assetId),
        )
        .execute()
    ).map((a) => [a.id, a.name]),
  );
  const more = refused.length > NAMED ? { zh: ` 等 ${refused.length} 项`, en: ` and ${refused.length - NAMED} more` } : { zh: '', en: '' };
  throw fail(
    both(
      `不能授予比您自己的授权更宽的授权：${shown.map((r) => `资产「${names.get(r.assetId) ?? r.assetId}」上，${r.why.zh}`).join('；')}${more.zh}`,
      `You cannot grant more than you hold: ${shown.map((r) => `on “${names.get(r.assetId) ?? r.assetId}”, ${r.why.en}`).join('; ')}${more.en}`,
    ),
    refused.map((r) => r.assetId),
  );
}

/** One (asset, subject) pair with the id its grant has (authorised/store.ts `grantId`). */
export interface KeyedPair {
  id: string;
  assetId: string;
  userId: string | null;
  userGroupId: string | null;
}

/**
 * Throws -1 when a grant to replace (same id) is stricter than `terms`: it would be widened silently. Whoever gives
 * the grant, the super admin included: the stricter grant is removed explicitly first. Expired grants give nothing
 * and may be renewed.
 */
export async function assertNoSilentWidening(db: Db, pairs: readonly KeyedPair[], terms: Terms, now: number): Promise<void> {
  const refused: KeyedPair[] = [];
  let reason: Localized | null = null;
  for (let i = 0; i < pairs.length; i += CHUNK) {
    const chunk = pairs.slice(i, i + CHUNK);
    const existing = await db
      .selectFrom('authorised')
      .select(['id', 'strategyId', 'validFrom', 'validUntil'])
      .where(
        'id',
        'in',
        chunk.map((p) => p.id),
      )
      .execute();
    const live = existing.filter((e) => stateAt(e, now) !== 'expired');
    if (live.length === 0) continue;
    const strategies = await strategyRows(db, [terms.strategyId, ...live.map((e) => e.strategyId)]);
    for (const e of live) {
      const why = broader(terms, e, strategies, now, EXISTING_GRANT);
      if (!why) continue;
      reason ??= why;
      refused.push(chunk.find((p) => p.id === e.id)!);
    }
  }
  if (refused.length === 0) return;
  const first = refused[0]!;
  const asset = await db.selectFrom('assets').select('name').where('id', '=', first.assetId).executeTakeFirst();
  const subject = first.userId
    ? (await db.selectFrom('users').select('nickname as name').where('id', '=', first.userId).executeTakeFirst())?.name
    : (await db.selectFrom('userGroups').select('name').where('id', '=', first.userGroupId!).executeTakeFirst())?.name;
  const pair = `${asset?.name ?? first.assetId} → ${subject ?? first.userId ?? first.userGroupId}`;
  const more = refused.length > 1 ? { zh: `（共 ${refused.length} 项）`, en: ` (${refused.length} in all)` } : { zh: '', en: '' };
  throw fail(
    both(
      `已有更严格的授权（${pair}${more.zh}）：${reason!.zh}。请先移除现有授权，再重新授权`,
      `A stricter grant exists (${pair}${more.en}): ${reason!.en}. Remove it first, then grant again`,
    ),
    refused.map((p) => p.id),
  );
}

/**
 * Throws -1 when one of `strategies` restricts a grant to `actorId` or to a group it is a member of (any window):
 * loosening it would widen the actor's own access. The super admin may.
 */
export async function assertNotOwnStrategy(db: Db, actorId: string, strategies: readonly { id: string; name: string }[]): Promise<void> {
  if (actorId === SUPER_ADMIN_ID || strategies.length === 0) return;
  const own = await db
    .selectFrom('authorised as t')
    .select('t.strategyId')
    .where(
      't.strategyId',
      'in',
      strategies.map((s) => s.id),
    )
    .where((eb) =>
      eb.or([
        eb('t.userId', '=', actorId),
        eb('t.userGroupId', 'in', eb.selectFrom('userGroupMembers as m').select('m.userGroupId').where('m.userId', '=', actorId)),
      ]),
    )
    .executeTakeFirst();
  if (own) throw fail(MSG.selfStrategy(strategies.find((s) => s.id === own.strategyId)?.name ?? own.strategyId!), [own.strategyId]);
}

/** One account whose grants a removal changes: on these assets, as if `without` were gone. */
export interface Removal {
  userId: string;
  assetIds: readonly string[];
  without: Without;
}

/**
 * Throws -1 when removing grants (an unbind, a member leaving a group, a group deleted) would let another grant of an
 * affected account win that is broader than what it held before and broader than what the caller holds on that
 * asset: a removal must not hand out more than the caller could grant (a user's read-only grant removed, its group's
 * unrestricted one would decide). The super admin may.
 */
export async function assertRemovalWidensNothing(db: Db, actorId: string, removals: readonly Removal[], now: number): Promise<void> {
  if (actorId === SUPER_ADMIN_ID) return;
  const assets = [...new Set(removals.flatMap((r) => r.assetIds))];
  if (assets.length === 0) return;
  const mine = await holdsOf(db, actorId, assets, now);
  for (const removal of removals) {
    if (removal.assetIds.length === 0) continue;
    const before = await holdsOf(db, removal.userId, removal.assetIds, now);
    const after = await holdsOf(db, removal.userId, removal.assetIds, now, removal.without);
    const strategies = await strategyRows(db, [...before.values(), ...after.values(), ...mine.values()].map((t) => t.strategyId));
    for (const assetId of removal.assetIds) {
      const next = after.get(assetId);
      const was = before.get(assetId);
      if (!next || !was || !broader(next, was, strategies, now, EXISTING_GRANT)) continue;
      const held = mine.get(assetId);
      const why = held ? broader(next, held, strategies, now, YOUR_GRANT) : both('您无权访问该资产', 'you may not open it');
      if (!why) continue;
      const user = await db.selectFrom('users').select('username').where('id', '=', removal.userId).executeTakeFirst();
      const asset = await db.selectFrom('assets').select('name').where('id', '=', assetId).executeTakeFirst();
      const [u, a] = [user?.username ?? removal.userId, asset?.name ?? assetId];
      throw fail(
        both(
          `移除后，账户「${u}」在资产「${a}」上将由一个比您自己的更宽的授权决定：${why.zh}`,
          `After the removal, a grant broader than yours would decide for “${u}” on “${a}”: ${why.en}`,
        ),
        [removal.userId, assetId],
      );
    }
  }
}
