import type { Catalogue } from '../../shared/manifest.ts';
import type { Db } from '../db/index.ts';
import type { User } from '../db/schema.ts';
import type { Principal } from '../http/access.ts';
import { fail } from '../http/envelope.ts';
import { MSG as SELF_MSG } from './delegation.ts';
import { openableAssetIds } from './access-rule.ts';
import { SUPER_ADMIN_ID } from '../permissions/effective.ts';
import { requireAll } from '../http/ids.ts';

/*
 * Containment: an account acts on another account, or hands out rights, only within the rights it holds itself.
 * Every identity route that changes an account, a role's keys, a user's roles or a group's members asks here.
 * The rule (docs/SERVER.md "Security model"):
 *   - the super admin may act on anyone; nobody else acts on the super admin;
 *   - otherwise an account may act on a target when everything the target may do is within what it may do:
 *     its menu keys (a `user`-type target has none that count: it can do nothing in the admin console; an
 *     `admin`-type target's effective keys must be a subset of the actor's, equal rights included), and the assets
 *     it may open, now or once a pending grant begins (access/rule.ts): each must be one the actor may open now.
 *     Whoever can reset a password or a second factor can become that account, and so open what it opens;
 *   - assets handed out (grants) must be ones the actor may open;
 *   - keys handed out (a role's keys, the roles given to a user) must all be held by the actor, and a role edit may
 *     neither add nor remove a key the actor does not hold (such keys stay as they are, or the edit is refused).
 * Self rules (no disabling, deleting or demoting oneself) stay with the routes (users.ts); nobody but the super admin
 * changes its own group memberships or the grants naming it or its groups (`SELF_REFUSED`, access/delegation.ts).
 */

/** What is being done to an account; names the refusal. */
export type AccountAction = 'edit' | 'password' | 'totp' | 'status' | 'delete' | 'groups' | 'authorise' | 'owner' | 'credential' | 'role' | 'logout' | 'command';

const WHAT: Record<AccountAction, (u: string) => string> = {
  edit: (u) => `不能修改账户「${u}」`,
  password: (u) => `不能修改账户「${u}」的密码`,
  totp: (u) => `不能重置账户「${u}」的双因素认证`,
  status: (u) => `不能启用或停用账户「${u}」`,
  delete: (u) => `不能删除账户「${u}」`,
  groups: (u) => `不能调整账户「${u}」的用户组`,
  authorise: (u) => `不能调整账户「${u}」的资产授权`,
  owner: (u) => `不能转移账户「${u}」的所有权`,
  credential: (u) => `不能使用账户「${u}」的授权凭证`,
  role: (u) => `不能修改账户「${u}」所持有的角色`,
  logout: (u) => `不能结束账户「${u}」的登录`,
  command: (u) => `不能修改账户「${u}」的动态指令`,
};

/**
 * Delegation never widens: what an account may not do to itself, whatever its keys (the super admin aside). Its own
 * group memberships and the grants naming it or a group of its decide what it may open; changing them would let it
 * hand itself more (access/delegation.ts).
 */
const SELF_REFUSED: Partial<Record<AccountAction, string>> = { groups: SELF_MSG.selfGroups, authorise: SELF_MSG.selfGrants };

export const MSG = {
  superOnly: '只有超级管理员本人可以修改超级管理员账户',
  superOwned: (action: AccountAction, username: string) => `${WHAT[action](username)}：只有超级管理员本人可以这样做`,
  beyond: (action: AccountAction, username: string, keys: readonly string[]) => `${WHAT[action](username)}：该账户拥有您没有的权限（${listed(keys)}）`,
  grant: (keys: readonly string[]) => `不能授予您自己没有的权限：${listed(keys)}`,
  revoke: (keys: readonly string[]) => `不能移除您自己没有的权限：${listed(keys)}`,
  reach: (action: AccountAction, username: string, assets: readonly string[], count: number) =>
    `${WHAT[action](username)}：该账户可以访问您无权访问的资产（${named(assets, count)}）`,
  grantAssets: (assets: readonly string[], count: number) => `不能授权您自己无权访问的资产：${named(assets, count)}`,
};

/** A few asset names, then the count when there are more. */
function named(names: readonly string[], count: number): string {
  return count > names.length ? `${names.join('、')} 等 ${count} 项` : names.join('、');
}

/** How many asset names a refusal spells out. */
const NAMED_ASSETS = 5;

/** At most eight keys named, then a count: the message stays readable for a target holding the whole tree. */
function listed(keys: readonly string[]): string {
  return keys.length <= 8 ? keys.join(', ') : `${keys.slice(0, 8).join(', ')} 等 ${keys.length} 项`;
}

export interface ActorRights {
  id: string;
  /** Effective menu keys (the super admin's: all). */
  keys: ReadonlySet<string>;
}

export interface TargetRights {
  id: string;
  username: string;
  type: User['type'];
  /** Effective menu keys: the union of its roles' keys. */
  keys: readonly string[];
}

/** Actions that change the account itself; the others touch what it owns or uses (its records, roles, logins). */
const CHANGES_THE_ACCOUNT: ReadonlySet<AccountAction> = new Set(['edit', 'password', 'totp', 'status', 'delete', 'groups', 'authorise']);

/** The decision itself: null when `actor` may act on `target`, else why not. */
export function refusal(actor: ActorRights, target: TargetRights, action: AccountAction): string | null {
  if (actor.id === SUPER_ADMIN_ID) return null;
  if (target.id === SUPER_ADMIN_ID) return CHANGES_THE_ACCOUNT.has(action) ? MSG.superOnly : MSG.superOwned(action, target.username);
  if (target.type !== 'admin') return null;
  const beyond = target.keys.filter((k) => !actor.keys.has(k));
  return beyond.length ? MSG.beyond(action, target.username, beyond) : null;
}

/** Loads accounts and their effective keys through `trx` (inside the caller's transaction); all must exist. */
export async function targetsOf(trx: Db, catalogue: Catalogue, ids: readonly string[]): Promise<TargetRights[]> {
  if (ids.length === 0) return [];
  const users = await trx.selectFrom('users').select(['id', 'username', 'type']).where('id', 'in', ids).execute();
  requireAll('用户', ids, users.map((u) => u.id));
  const refs = await trx
    .selectFrom('usersRolesRef as ur')
    .innerJoin('rolesMenusRef as rm', 'rm.roleId', 'ur.roleId')
    .select(['ur.userId', 'rm.menuId'])
    .where('ur.userId', 'in', ids)
    .execute();
  const keys = new Map<string, Set<string>>();
  for (const r of refs) {
    const set = keys.get(r.userId) ?? new Set<string>();
    // Refs to keys no installed plugin declares grant nothing (permissions/effective.ts), so they do not count here either.
    if (catalogue.has(r.menuId)) set.add(r.menuId);
    keys.set(r.userId, set);
  }
  return users.map((u) => ({ ...u, keys: [...(keys.get(u.id) ?? [])].sort() }));
}

/** The caller, with the checks every identity route uses. */
export interface Actor extends ActorRights {
  /** Throws -1 (why) unless the actor may act on every one of these accounts; unknown ids are a -1 too. */
  mayActOn(trx: Db, ids: readonly string[], action: AccountAction): Promise<void>;
  /** Why not, per account the actor may not act on (the others are absent); unknown ids are a -1. */
  refusals(trx: Db, ids: readonly string[], action: AccountAction): Promise<Map<string, string>>;
  /** Throws -1 unless the actor may open every one of these assets (handing them out). */
  mayGrantAssets(trx: Db, assetIds: readonly string[]): Promise<void>;
  /** Throws -1 unless the actor holds every one of these keys. */
  mayGrant(keys: Iterable<string>): void;
  /** Throws -1 unless the actor holds every key of these roles (giving roles to a user). */
  mayGrantRoles(trx: Db, roleIds: readonly string[]): Promise<void>;
  /** Throws -1 when a role edit from `before` to `after` adds or removes a key the actor does not hold. */
  mayEditRoleKeys(before: Iterable<string>, after: Iterable<string>): void;
}

/** Names (at most NAMED_ASSETS) and count of the assets among `ids` that `actorId` may not open at `now`. */
async function beyondReach(trx: Db, actorId: string, ids: AssetIds, now: number): Promise<{ names: string[]; count: number }> {
  const openable = openableAssetIds(trx, actorId, now);
  if (openable === null) return { names: [], count: 0 };
  const base = trx.selectFrom('assets as a').where('a.id', 'in', ids).where('a.id', 'not in', openable);
  const [rows, total] = await Promise.all([
    base.select('a.name').orderBy('a.name').limit(NAMED_ASSETS).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { names: rows.map((r) => r.name), count: Number(total.n) };
}

type AssetIds = readonly string[] | NonNullable<ReturnType<typeof openableAssetIds>>;

/**
 * The caller as an Actor, deciding at `now` (asset reach depends on grant windows). Resolve it before opening a
 * transaction (its keys come from the principal's cached access, read through `db`; SQLite has one connection, which
 * a transaction holds).
 */
export async function actorOf(principal: Principal, catalogue: Catalogue, now: number): Promise<Actor> {
  const keys = new Set<string>((await principal.access()).menus);
  const self: ActorRights = { id: principal.user.id, keys };
  const notHeld = (list: Iterable<string>) => [...new Set(list)].filter((k) => catalogue.has(k) && !keys.has(k)).sort();
  const mayGrant = (list: Iterable<string>) => {
    const beyond = notHeld(list);
    if (beyond.length) throw fail(MSG.grant(beyond), beyond);
  };
  const refusals = async (trx: Db, ids: readonly string[], action: AccountAction) => {
    const out = new Map<string, string>();
    for (const target of await targetsOf(trx, catalogue, ids)) {
      const selfRefused = target.id === self.id && self.id !== SUPER_ADMIN_ID ? SELF_REFUSED[action] : undefined;
      const why = selfRefused ?? refusal(self, target, action);
      if (why) out.set(target.id, why);
      if (why || self.id === SUPER_ADMIN_ID || target.id === self.id) continue;
      const beyond = await beyondReach(trx, self.id, openableAssetIds(trx, target.id, now, { later: true })!, now);
      if (beyond.count) out.set(target.id, MSG.reach(action, target.username, beyond.names, beyond.count));
    }
    return out;
  };
  return {
    ...self,
    async mayActOn(trx, ids, action) {
      const [why] = (await refusals(trx, ids, action)).values();
      if (why) throw fail(why);
    },
    refusals,
    async mayGrantAssets(trx, assetIds) {
      if (assetIds.length === 0) return;
      const beyond = await beyondReach(trx, self.id, assetIds, now);
      if (beyond.count) throw fail(MSG.grantAssets(beyond.names, beyond.count));
    },
    mayGrant,
    async mayGrantRoles(trx, roleIds) {
      if (roleIds.length === 0) return;
      const refs = await trx.selectFrom('rolesMenusRef').select('menuId').where('roleId', 'in', roleIds).execute();
      mayGrant(refs.map((r) => r.menuId));
    },
    mayEditRoleKeys(before, after) {
      const had = new Set(before);
      const has = new Set(after);
      mayGrant([...has].filter((k) => !had.has(k)));
      const removed = notHeld([...had].filter((k) => !has.has(k)));
      if (removed.length) throw fail(MSG.revoke(removed), removed);
    },
  };
}
