import { describe, expect, it } from 'vitest';
import type { CallResult, Harness } from '../harness.ts';
import { SUPER_ADMIN_ID } from '../../../server/permissions/effective.ts';
import type { PermissionKey as MenuKey } from '../../../shared/manifest.ts';
import { issueLoginToken } from '../../../server/permissions/tokens.ts';
import { refusal } from '../../../server/policy/containment.ts';
import { adminWith, identityHarness } from './helpers.ts';

/** What the acting admin holds: every identity action on accounts, plus two unrelated keys. */
const ACTOR_KEYS: MenuKey[] = [
  'info',
  'role-detail',
  'user',
  'user-edit',
  'user-del',
  'user-enable-disable',
  'user-change-password',
  'user-reset-totp',
  'user-group',
  'user-group-edit',
];

type Level = 'fewer' | 'equal' | 'more' | 'plain-user' | 'super';
const LEVEL_KEYS: Record<'fewer' | 'equal' | 'more', MenuKey[]> = {
  fewer: ['info'],
  equal: ACTOR_KEYS,
  more: [...ACTOR_KEYS, 'role-del'],
};

interface Target {
  id: string;
  username: string;
  type: 'user' | 'admin';
  role: string | null;
}
type Api = (method: string, url: string, body?: unknown, query?: Record<string, string>) => Promise<CallResult>;
/** Groups: `empty` (the target is not in it) and `full` (the target is its one member). */
interface Ctx {
  /** A role the actor may hand out that no target holds. */
  otherRole: string;
  empty: { id: string; name: string };
  full: { id: string; name: string };
}

/** Every action of the rule, as the routes take it. `fewerRole` is a role the actor may hand out. */
const ACTIONS: Record<string, (api: Api, t: Target, c: Ctx) => Promise<CallResult>> = {
  edit: (api, t) => api('PUT', `/users/${t.id}`, { username: t.username, nickname: 'Renamed', type: t.type, roles: t.role ? [t.role] : [] }),
  'change roles': (api, t, c) => api('PUT', `/users/${t.id}`, { username: t.username, nickname: t.username, type: 'admin', roles: [c.otherRole] }),
  'demote to user': (api, t) => api('PUT', `/users/${t.id}`, { username: t.username, nickname: t.username, type: 'user', roles: [] }),
  'change password': (api, t) => api('POST', `/users/${t.id}/change-password`, { password: 'Taken-Over-1' }),
  'reset TOTP': (api, t) => api('POST', `/users/${t.id}/reset-totp`),
  disable: (api, t) => api('PATCH', `/users/${t.id}/status`, undefined, { status: 'disabled' }),
  delete: (api, t) => api('DELETE', `/users/${t.id}`),
  'add to group': (api, t, c) => api('PUT', `/user-groups/${c.empty.id}`, { name: c.empty.name, members: [t.id] }),
  'remove from group': (api, _t, c) => api('PUT', `/user-groups/${c.full.id}`, { name: c.full.name, members: [] }),
};

/** Everything about an account that the actions above could change. */
async function snapshot(h: Harness, id: string) {
  return {
    user: await h.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst(),
    roles: await h.db.selectFrom('usersRolesRef').select('roleId').where('userId', '=', id).orderBy('roleId').execute(),
    groups: await h.db.selectFrom('userGroupMembers').select('userGroupId').where('userId', '=', id).orderBy('userGroupId').execute(),
    accessTokens: await h.db.selectFrom('accessToken').selectAll().where('userId', '=', id).execute(),
    loginTokens: await h.db.selectFrom('tokens').select('id').where('userId', '=', id).execute(),
  };
}

async function setup() {
  const { h, as, root } = await identityHarness();
  const actor = await adminWith(h, ACTOR_KEYS, 'actor');
  const fewerRole = await h.createRole(LEVEL_KEYS.fewer, 'fewer-role');
  const otherRole = await h.createRole(['role-detail'], 'other-role');
  let n = 0;
  /** A fresh target of that level, with a TOTP seed, a login token and an access token. */
  const target = async (level: Level): Promise<Target> => {
    if (level === 'super') return { id: SUPER_ADMIN_ID, username: 'admin', type: 'admin', role: 'system-administrator' };
    const username = `t${++n}-${level}`;
    const type = level === 'plain-user' ? 'user' : 'admin';
    const role = level === 'plain-user' ? null : level === 'fewer' ? fewerRole : await h.createRole(LEVEL_KEYS[level], `role-${username}`);
    const id = await h.createUser({ username, type, roles: role ? [role] : [] });
    await h.db.updateTable('users').set({ totpSecret: h.box.encrypt('JBSWY3DPEHPK3PXP') }).where('id', '=', id).execute();
    await h.accessToken(id);
    await issueLoginToken(h.db, id, false, `log-${id}`, h.clock.now());
    return { id, username, type, role };
  };
  const group = async (name: string, members: string[]) => {
    const id = `group-${name}`;
    await h.db.insertInto('userGroups').values({ id, name, created: 0 }).execute();
    for (const m of members) await h.db.insertInto('userGroupMembers').values({ id: `${id}-${m}`, userId: m, userGroupId: id }).execute();
    return { id, name };
  };
  const callAs =
    (token: string): Api =>
    (method, url, body, query) =>
      as(token).call(method, url, { body, query });
  return { h, actor, otherRole, target, group, callAs, root: callAs(root) };
}

describe('containment: who may act on whom', () => {
  it('actor with fewer / equal / more keys than the target × every account action', async () => {
    const { h, actor, otherRole, target, group, callAs } = await setup();
    const api = callAs(actor.token);
    let g = 0;
    for (const level of ['fewer', 'equal', 'more', 'plain-user', 'super'] as const) {
      for (const [name, act] of Object.entries(ACTIONS)) {
        if (level === 'plain-user' && name === 'demote to user') continue; // already one
        const label = `${name} on a target with ${level} keys`;
        const t = await target(level);
        g++;
        const ctx: Ctx = { otherRole, empty: await group(`empty-${g}`, []), full: await group(`full-${g}`, [t.id]) };
        const before = await snapshot(h, t.id);
        const res = await act(api, t, ctx);
        if (level === 'more' || level === 'super') {
          expect(res.body.code, `${label}: ${res.body.message}`).toBe(-1);
          expect(res.body.message, label).toEqual(
            level === 'super'
              ? name === 'delete'
                ? '不允许删除超级管理员账户'
                : '只有超级管理员本人可以修改超级管理员账户'
              : expect.stringMatching(new RegExp(`^不能.*账户「${t.username}」.*：该账户拥有您没有的权限（role-del）$`)),
          );
          expect(await snapshot(h, t.id), `${label}: nothing changed`).toEqual(before);
        } else {
          expect(res.body.code, `${label}: ${res.body.message}`).toBe(1);
          expect(await snapshot(h, t.id), `${label}: done`).not.toEqual(before);
        }
      }
    }
  });

  it('a refusal changes nothing in the database, even in a batch where the other ids are fine', async () => {
    const { h, actor, target, callAs } = await setup();
    const api = callAs(actor.token);
    const weak = await target('fewer');
    const strong = await target('more');
    const before = { weak: await snapshot(h, weak.id), strong: await snapshot(h, strong.id) };
    const ids = `${weak.id},${strong.id}`;
    for (const res of [
      await api('POST', `/users/${ids}/change-password`, { password: 'Taken-Over-1' }),
      await api('POST', `/users/${ids}/reset-totp`),
      await api('DELETE', `/users/${ids}`),
      await api('PATCH', `/users/${strong.id}/status`, undefined, { status: 'disabled' }),
      await api('PUT', `/users/${strong.id}`, { username: 'renamed', nickname: 'x', type: 'admin', roles: [strong.role] }),
    ]) {
      expect(res.body).toMatchObject({ code: -1, message: expect.stringContaining(`账户「${strong.username}」`) });
    }
    expect({ weak: await snapshot(h, weak.id), strong: await snapshot(h, strong.id) }).toEqual(before);
  });

  it('the super admin may act on anyone, including accounts with every key', async () => {
    const { root, target } = await setup();
    const t = await target('more');
    expect((await root('POST', `/users/${t.id}/change-password`, { password: 'New-Pass-123' })).body.code).toBe(1);
    expect((await root('PATCH', `/users/${t.id}/status`, undefined, { status: 'disabled' })).body.code).toBe(1);
    expect((await root('DELETE', `/users/${t.id}`)).body.code).toBe(1);
  });

  it('an admin holding every key but not the super admin cannot touch the super admin', async () => {
    const { h, callAs } = await setup();
    const sys = await h.createUser({ username: 'sys', type: 'admin', roles: ['system-administrator'] });
    const api = callAs(await h.accessToken(sys));
    const before = await snapshot(h, SUPER_ADMIN_ID);
    for (const res of [
      await api('POST', `/users/${SUPER_ADMIN_ID}/change-password`, { password: 'Taken-Over-1' }),
      await api('POST', `/users/${SUPER_ADMIN_ID}/reset-totp`),
      await api('PATCH', `/users/${SUPER_ADMIN_ID}/status`, undefined, { status: 'disabled' }),
      await api('PUT', `/users/${SUPER_ADMIN_ID}`, { username: 'admin', nickname: 'Mine', type: 'admin', roles: ['system-administrator'] }),
    ]) {
      expect(res.body).toEqual({ code: -1, message: '只有超级管理员本人可以修改超级管理员账户' });
    }
    expect((await api('DELETE', `/users/${SUPER_ADMIN_ID}`)).body).toEqual({ code: -1, message: '不允许删除超级管理员账户' });
    expect(await snapshot(h, SUPER_ADMIN_ID)).toEqual(before);
  });

  it('self rules hold: no disabling, deleting or demoting oneself, nor dropping one own roles', async () => {
    const { h, actor, callAs } = await setup();
    const api = callAs(actor.token);
    const before = await snapshot(h, actor.id);
    expect((await api('PATCH', `/users/${actor.id}/status`, undefined, { status: 'disabled' })).body).toEqual({ code: -1, message: '不能操作自身账户' });
    expect((await api('DELETE', `/users/${actor.id}`)).body).toEqual({ code: -1, message: '不允许删除自身账户' });
    expect((await api('PUT', `/users/${actor.id}`, { username: 'actor', nickname: 'a', type: 'user', roles: [] })).body).toEqual({ code: -1, message: '不能操作自身账户' });
    const narrower = await h.createRole(['info'], 'narrower');
    expect((await api('PUT', `/users/${actor.id}`, { username: 'actor', nickname: 'a', type: 'admin', roles: [narrower] })).body).toEqual({
      code: -1,
      message: '不能修改自身账户的角色',
    });
    expect(await snapshot(h, actor.id)).toEqual(before);
    // Editing one's own fields with the same roles is fine.
    const own = before.roles.map((r) => r.roleId);
    expect((await api('PUT', `/users/${actor.id}`, { username: 'actor', nickname: 'Me', type: 'admin', roles: own })).body.code).toBe(1);
  });

  it('a plain user turned admin cannot keep a wider role it carried unused', async () => {
    const { h, actor, callAs } = await setup();
    const wide = await h.createRole([...ACTOR_KEYS, 'role-del'], 'wide');
    const id = await h.createUser({ username: 'sleeper', type: 'user', roles: [wide] });
    const res = await callAs(actor.token)('PUT', `/users/${id}`, { username: 'sleeper', nickname: 's', type: 'admin', roles: [wide] });
    expect(res.body).toMatchObject({ code: -1, message: '不能授予您自己没有的权限：role-del' });
    expect((await h.db.selectFrom('users').select('type').where('id', '=', id).executeTakeFirstOrThrow()).type).toBe('user');
  });

  it('deleting a group with a member beyond the caller is refused', async () => {
    const { h, target, group, callAs } = await setup();
    const deleter = await adminWith(h, [...ACTOR_KEYS, 'user-group-del'], 'deleter');
    const strong = await target('more');
    const weak = await target('fewer');
    const g1 = await group('with-strong', [weak.id, strong.id]);
    const g2 = await group('only-weak', [weak.id]);
    const res = await callAs(deleter.token)('DELETE', `/user-groups/${g1.id},${g2.id}`);
    expect(res.body).toMatchObject({ code: -1, message: expect.stringMatching(/^不能调整账户「.*-more」的用户组/) });
    expect(await h.db.selectFrom('userGroups').select('id').where('id', 'in', [g1.id, g2.id]).execute()).toHaveLength(2);
    expect(await h.db.selectFrom('userGroupMembers').select('id').where('userGroupId', '=', g1.id).execute()).toHaveLength(2);
    expect((await callAs(deleter.token)('DELETE', `/user-groups/${g2.id}`)).body.code).toBe(1);
  });
});

describe('containment: roles', () => {
  const keysOf = async (h: Harness, roleId: string) =>
    (await h.db.selectFrom('rolesMenusRef').select('menuId').where('roleId', '=', roleId).orderBy('menuId').execute()).map((r) => r.menuId);

  it('role edit: actor with fewer / equal / more keys than the role × add / remove a held or unheld key', async () => {
    const { h, callAs } = await setup();
    const editor = await adminWith(h, ['role', 'role-edit', 'info', 'role-detail'], 'editor');
    const api = callAs(editor.token);
    const roleKeys: Record<string, MenuKey[]> = {
      fewer: ['info'],
      equal: ['role', 'role-edit', 'info', 'role-detail'],
      more: ['role', 'role-edit', 'info', 'role-detail', 'role-del'],
    };
    const put = (id: string, keys: string[]) => api('PUT', `/roles/${id}`, { name: `r-${id.slice(0, 6)}`, menus: keys.map((menuId) => ({ menuId, checked: true })) });
    for (const [level, keys] of Object.entries(roleKeys)) {
      const cases: [string, (k: string[]) => string[], string | null][] = [
        ['rename only', (k) => k, null],
        ['add a held key', (k) => [...k.filter((x) => x !== 'role-detail'), 'role-detail'], null],
        ['remove a held key', (k) => k.filter((x) => x !== 'info'), null],
        ['add an unheld key', (k) => [...k, 'user-del'], '不能授予您自己没有的权限：user-del'],
        ['remove an unheld key', (k) => k.filter((x) => x !== 'role-del'), level === 'more' ? '不能移除您自己没有的权限：role-del' : null],
      ];
      for (const [name, change, refused] of cases) {
        const role = await h.createRole(keys, `role-${level}-${name}`);
        const before = await keysOf(h, role);
        const res = await put(role, change(keys));
        if (refused) {
          expect(res.body, `${name} on a role with ${level} keys`).toMatchObject({ code: -1, message: refused });
          expect(await keysOf(h, role), `${name} on ${level}: unchanged`).toEqual(before);
        } else {
          expect(res.body.code, `${name} on a role with ${level} keys: ${res.body.message}`).toBe(1);
          expect(await keysOf(h, role)).toEqual([...new Set(change(keys))].sort());
        }
      }
    }
  });

  it('role create and role assignment: only keys the actor holds', async () => {
    const { h, callAs } = await setup();
    const maker = await adminWith(h, ['role', 'role-add', 'user', 'user-add', 'info'], 'maker');
    const api = callAs(maker.token);
    expect((await api('POST', '/roles', { name: 'ok', menus: [{ menuId: 'info', checked: true }] })).body.code).toBe(1);
    expect((await api('POST', '/roles', { name: 'wide', menus: [{ menuId: 'role-detail', checked: false }] })).body).toMatchObject({ code: -1, message: '不能授予您自己没有的权限：role-detail' });
    const wide = await h.createRole(['info', 'role-detail'], 'wide-role');
    const res = await api('POST', '/users', { username: 'new1', password: 'Passw0rd!', nickname: 'n', type: 'admin', roles: [wide] });
    expect(res.body).toMatchObject({ code: -1, message: '不能授予您自己没有的权限：role-detail' });
    expect(await h.db.selectFrom('users').select('id').where('username', '=', 'new1').executeTakeFirst()).toBeUndefined();
  });

  it('deleting a role still held names how many accounts hold it, and changes nothing', async () => {
    const { h, root } = await setup();
    const a = await h.createRole(['info'], 'held-a');
    const b = await h.createRole(['info'], 'held-b');
    const free = await h.createRole(['info'], 'free');
    await h.createUser({ username: 'x1', type: 'admin', roles: [a, b] });
    await h.createUser({ username: 'x2', type: 'admin', roles: [a] });
    const res = await root('DELETE', `/roles/${a},${b},${free}`);
    expect(res.body.code).toBe(-1);
    expect(res.body.message).toContain('角色「held-a」仍被 2 个账户使用，不能删除');
    expect(res.body.message).toContain('角色「held-b」仍被 1 个账户使用，不能删除');
    expect(await h.db.selectFrom('roles').select('id').where('id', 'in', [a, b, free]).execute()).toHaveLength(3);
    expect(await h.db.selectFrom('usersRolesRef').select('id').where('roleId', 'in', [a, b]).execute()).toHaveLength(3);
    expect((await root('DELETE', `/roles/${free}`)).body.code).toBe(1);
  });
});

describe('refusal(): the rule alone', () => {
  const actor = { id: 'a', keys: new Set(['user', 'user-edit']) };
  it('decides by type and key inclusion', () => {
    expect(refusal(actor, { id: 'b', username: 'b', type: 'admin', keys: ['user'] }, 'edit')).toBeNull();
    expect(refusal(actor, { id: 'b', username: 'b', type: 'admin', keys: ['user', 'user-edit'] }, 'edit')).toBeNull();
    expect(refusal(actor, { id: 'b', username: 'b', type: 'admin', keys: ['user', 'user-del'] }, 'delete')).toBe('不能删除账户「b」：该账户拥有您没有的权限（user-del）');
    expect(refusal(actor, { id: 'b', username: 'b', type: 'user', keys: ['user-del'] }, 'delete')).toBeNull();
    expect(refusal(actor, { id: SUPER_ADMIN_ID, username: 'admin', type: 'admin', keys: [] }, 'edit')).toBe('只有超级管理员本人可以修改超级管理员账户');
    expect(refusal({ id: SUPER_ADMIN_ID, keys: new Set() }, { id: 'b', username: 'b', type: 'admin', keys: ['x'] }, 'edit')).toBeNull();
  });
});
