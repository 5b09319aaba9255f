import { type Db, writesOf } from '../db/index.ts';
import { prepared } from '../db/prepared.ts';
import type { Catalogue } from '../../shared/manifest.ts';
import type { UserAccess } from '../http/access.ts';
import { type Lng, say, text } from '../lib/i18n.ts';

export type { UserAccess };

export const SUPER_ADMIN_ID = 'abcdefghijklmnopqrstuvwxyz';

/** The built-in super admin's nickname as seeded (seed.ts), stored in zh-CN. */
export const SUPER_ADMIN_NICKNAME = text('超级管理员', 'Super administrator');

/**
 * A nickname as the caller reads it: the super admin's seeded default is said in `lng`; a nickname someone gave
 * (to that account or any other) is shown as stored. Stored data is never rewritten for it.
 */
export const shownNickname = (id: string, nickname: string, lng: Lng): string =>
  id === SUPER_ADMIN_ID && nickname === SUPER_ADMIN_NICKNAME ? say(nickname, lng) : nickname;

/**
 * A nickname submitted for the super admin: its seeded default in any language stays the default (an edit form shows
 * it translated; saving it unchanged must not store the translation).
 */
export const storedNickname = (id: string, nickname: string): string =>
  id === SUPER_ADMIN_ID && nickname === say(SUPER_ADMIN_NICKNAME, 'en-US') ? SUPER_ADMIN_NICKNAME : nickname;


/** Writes to these tables can change anyone's roles or menu keys. */
const ACCESS_TABLES = ['roles', 'usersRolesRef', 'rolesMenusRef'] as const;

interface PerDb {
  query: (userId: string) => Promise<{ roleId: string; menuId: string | null }[]>;
  cache: Map<string, { version: number; catalogue: Catalogue; access: UserAccess }>;
}
const perDb = new WeakMap<Db, PerDb>();

function stateOf(db: Db): PerDb {
  let s = perDb.get(db);
  if (!s) {
    s = {
      // One row per (role, menu); a role without menus still yields its id.
      query: prepared(db, (userId: string) =>
        db.selectFrom('usersRolesRef as ur').leftJoin('rolesMenusRef as rm', 'rm.roleId', 'ur.roleId').select(['ur.roleId', 'rm.menuId']).where('ur.userId', '=', userId),
      ),
      cache: new Map(),
    };
    perDb.set(db, s);
  }
  return s;
}

/**
 * A user's roles and menu keys: the union of the refs of all their roles (checked or half-checked, as 1.3.9).
 * Cached per user and dropped whenever roles or refs are written (db/changes.ts), so a role change applies on the
 * next request; the super admin holds every key. Refs to keys no manifest declares are kept but not effective.
 */
export async function accessOf(db: Db, catalogue: Catalogue, userId: string): Promise<UserAccess> {
  const state = stateOf(db);
  const version = writesOf(db).version(ACCESS_TABLES);
  const hit = state.cache.get(userId);
  if (hit && hit.version === version && hit.catalogue === catalogue) return hit.access;

  const rows = await state.query(userId);
  const roles = [...new Set(rows.map((r) => r.roleId))].sort();
  const menus = userId === SUPER_ADMIN_ID ? [...catalogue.keys] : catalogue.inOrder(rows.flatMap((r) => (r.menuId ? [r.menuId] : [])));
  const access = { roles, menus };
  if (state.cache.size >= 10_000) state.cache.clear();
  state.cache.set(userId, { version, catalogue, access });
  return access;
}
