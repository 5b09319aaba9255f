import type { Catalogue } from '../shared/manifest.ts';
import { SUPER_ADMIN_ID } from './permissions/effective.ts';
import { sign } from './lib/ids.ts';
import { ConfigError } from './config.ts';
import { generatePassword, hashPassword, MAX_PASSWORD_BYTES, MIN_PASSWORD_LENGTH, passwordProblem } from './lib/password.ts';
import type { Db } from './db/index.ts';

/**
 * The built-in roles of contract §4.2, with the keys 1.3.9 meant (its lists named keys that do not exist: quirk 9),
 * as subtrees of the catalogue: `null` = every key. Keys come with their plugins, so a role holds the keys of
 * the plugins installed at this start (seeding drops keys no manifest declares). No built-in role holds a
 * `destructive` key (deleting audit records): only the super admin, and whoever is granted one explicitly.
 */
export const DEFAULT_ROLES: { id: string; name: string; subtrees: readonly string[] | null }[] = [
  { id: 'system-administrator', name: '系统管理员', subtrees: null },
  // 1.3.9: dashboard, then everything under 会话审计 and 日志审计.
  { id: 'audit-administrator', name: '审计管理员', subtrees: ['dashboard', 'session-audit', 'log-audit'] },
  // 1.3.9: everything under 安全策略 (access security and login policies).
  { id: 'security-administrator', name: '安全管理员', subtrees: ['security'] },
];

/** A built-in role's keys in this catalogue: its subtrees, less the destructive keys. */
export const defaultRoleKeys = (catalogue: Catalogue, role: (typeof DEFAULT_ROLES)[number]): string[] => {
  const destructive = new Set(catalogue.destructiveKeys());
  return (role.subtrees === null ? [...catalogue.keys] : catalogue.withDescendants(role.subtrees)).filter((k) => !destructive.has(k));
};

/**
 * The refs of a list of keys as the role editor writes them: a key whose descendants are all held is checked, one
 * missing some (a page without its destructive actions) half-checked, so that no editor reads it as its whole branch.
 */
export function roleRefs(catalogue: Catalogue, keys: readonly string[]): { menuId: string; checked: boolean }[] {
  const held = new Set(keys);
  return keys.map((menuId) => ({ menuId, checked: catalogue.withDescendants([menuId]).every((k) => held.has(k)) }));
}

/** Contract §4.4, created only when absent. */
export const DEFAULT_PROPERTIES: Record<string, string> = {
  'enable-recording': 'true',
  'font-name': 'menlo',
  'font-size': '12',
  'color-scheme': 'gray-black',
  'enable-wallpaper': 'true',
  'enable-theming': 'true',
  'enable-font-smoothing': 'true',
  'enable-full-window-drag': 'true',
  'enable-desktop-composition': 'true',
  'enable-menu-animations': 'true',
  'disable-bitmap-caching': 'false',
  'disable-offscreen-caching': 'false',
  'cron-log-saved-limit': '360',
  'login-log-saved-limit': '360',
  'session-saved-limit': '360',
  'user-default-storage-size': '5120',
};

export interface SeedResult {
  /** Set only when the admin account was just created with a generated password (print it once). */
  generatedAdminPassword?: string;
}

/** Runs at every start; idempotent. */
export async function seed(db: Db, opts: { catalogue: Catalogue; adminPassword?: string; now: number }): Promise<SeedResult> {
  const { now } = opts;
  const result: SeedResult = {};

  await db.transaction().execute(async (trx) => {
    // Built-in roles are forced back to their definition at every start (as 1.3.9).
    for (const role of DEFAULT_ROLES) {
      const fields = { name: role.name, type: 'default' as const, deletable: 0, modifiable: 0 };
      await trx
        .insertInto('roles')
        .values({ id: role.id, ...fields, created: now })
        .onConflict((oc) => oc.column('id').doUpdateSet(fields))
        .execute();
      await trx.deleteFrom('rolesMenusRef').where('roleId', '=', role.id).execute();
      const menus = roleRefs(opts.catalogue, defaultRoleKeys(opts.catalogue, role));
      if (menus.length) {
        await trx
          .insertInto('rolesMenusRef')
          .values(menus.map(({ menuId, checked }) => ({ id: sign([role.id, menuId]), roleId: role.id, menuId, checked: checked ? 1 : 0 })))
          .execute();
      }
    }

    const present = new Set((await trx.selectFrom('properties').select('name').execute()).map((p) => p.name));
    const missing = Object.entries(DEFAULT_PROPERTIES).filter(([name]) => !present.has(name));
    if (missing.length) await trx.insertInto('properties').values(missing.map(([name, value]) => ({ name, value }))).execute();

    const anyUser = await trx.selectFrom('users').select('id').limit(1).executeTakeFirst();
    if (!anyUser) {
      // A configured password follows the rules of any other (lib/password.ts): a clear start-up error otherwise.
      if (opts.adminPassword !== undefined && passwordProblem(opts.adminPassword)) {
        throw new ConfigError(`JUMPGATE_ADMIN_PASSWORD: needs at least ${MIN_PASSWORD_LENGTH} characters and at most ${MAX_PASSWORD_BYTES} bytes (UTF-8)`);
      }
      const password = opts.adminPassword ?? generatePassword();
      if (!opts.adminPassword) result.generatedAdminPassword = password;
      await trx
        .insertInto('users')
        .values({
          id: SUPER_ADMIN_ID,
          username: 'admin',
          usernameKey: 'admin',
          password: await hashPassword(password),
          nickname: '超级管理员',
          totpSecret: '-',
          online: 0,
          status: 'enabled',
          type: 'admin',
          mail: '',
          source: '',
          created: now,
        })
        .execute();
      // Shown in the user list like any admin's role; the super admin holds every key regardless.
      await trx.insertInto('usersRolesRef').values({ id: sign([SUPER_ADMIN_ID, 'system-administrator']), userId: SUPER_ADMIN_ID, roleId: 'system-administrator' }).execute();
    }

    await trx.updateTable('users').set({ type: 'user' }).where('type', '=', '').execute();
  });
  return result;
}
