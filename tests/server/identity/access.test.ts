import { describe, expect, it } from 'vitest';
import { SUPER_ADMIN_ID } from '../../../server/permissions/effective.ts';
import { adminWith, identityHarness } from './helpers.ts';

/**
 * The gates of the issue, method included (1.3.9's `/user-groups:/id` typo fixed), as identity's manifest grants
 * them, plus the other plugins' keys whose pickers read the lists (asset-change-owner, asset-authorised-user,
 * command-change-owner on GET /users; asset-authorised-user-group on GET /user-groups; 资产授权's grant dialog, and its
 * 为什么 on a group's grant, which lists the group's members).
 */
const GATES: Record<string, string[]> = {
  'GET /users/paging': ['user'],
  // *-change-owner: their owner pickers; asset-authorised-user: the asset's bind dialog
  'GET /users': ['asset-authorised-user', 'asset-change-owner', 'authorisation-add', 'command-change-owner', 'offline-session', 'online-session', 'storage-log', 'user', 'user-group-add', 'user-group-edit'],
  'POST /users': ['user-add'],
  'GET /users/:id': ['user-edit', 'user-detail'],
  'PUT /users/:id': ['user-edit'],
  'DELETE /users/:id': ['user-del'],
  'PATCH /users/:id/status': ['user-enable-disable'],
  'POST /users/:id/change-password': ['user-change-password'],
  'POST /users/:id/reset-totp': ['user-reset-totp'],
  'GET /roles': ['user-add', 'user-edit', 'user-detail', 'role'],
  'GET /roles/paging': ['role'],
  'GET /roles/:id': ['role-detail', 'role-edit'],
  'POST /roles': ['role-add'],
  'PUT /roles/:id': ['role-edit'],
  'DELETE /roles/:id': ['role-del'],
  'GET /user-groups/paging': ['user-group'],
  'GET /user-groups': ['asset-authorised-user-group', 'authorisation-add', 'user-group'],
  'GET /user-groups/:id': ['authorisation', 'user-group-detail', 'user-group-edit'],
  'POST /user-groups': ['user-group-add'],
  'PUT /user-groups/:id': ['user-group-edit'],
  'DELETE /user-groups/:id': ['user-group-del'],
};

const info = async (h: Awaited<ReturnType<typeof identityHarness>>['h'], token: string) =>
  (await h.call('GET', '/account/info', { token })).body.data as { type: string; roles: string[]; menus: string[] };

describe('identity gates', () => {
  it('declares exactly the gates of the issue', async () => {
    const { h } = await identityHarness();
    const declared = Object.fromEntries(
      h.app.routeRegistry.filter((r) => /^\/(users|roles|user-groups)/.test(r.path)).map((r) => [`${r.method} ${r.path}`, [...(r.gate as string[])].sort()]),
    );
    expect(declared).toEqual(Object.fromEntries(Object.entries(GATES).map(([route, keys]) => [route, [...keys].sort()])));
  });

  it('an admin without user-del may list users but not delete them; a plain user is refused everywhere', async () => {
    const { h } = await identityHarness();
    const lister = await adminWith(h, ['user', 'user-edit'], 'lister');
    const victim = await h.createUser({ username: 'victim' });
    expect((await h.call('GET', '/users/paging', { token: lister.token })).body.code).toBe(1);
    expect((await h.call('DELETE', `/users/${victim}`, { token: lister.token })).body).toEqual({ code: 403, message: 'permission denied' });
    expect((await h.call('POST', '/users', { token: lister.token, body: {} })).body.code).toBe(403);

    const plain = await h.createUser({ username: 'plain', type: 'user', roles: ['system-administrator'] });
    const token = await h.accessToken(plain);
    for (const gate of Object.keys(GATES)) {
      const [method, path] = gate.split(' ') as [string, string];
      const res = await h.call(method, path.replace(':id', victim), { token, body: method === 'GET' ? undefined : {} });
      expect(res.body, gate).toEqual({ code: 403, message: 'permission denied' });
    }
  });
});

describe('role changes apply on the next request', () => {
  it('grant, revoke, delete a role, change a user roles, change admin → user', async () => {
    const { h, api } = await identityHarness();
    await api.ok('POST', '/roles', { body: { name: 'viewer', menus: [{ menuId: 'info', checked: true }] } });
    const viewer = (await api.ok<{ id: string; name: string }[]>('GET', '/roles')).find((r) => r.name === 'viewer')!.id;
    const gina = await api.ok<{ id: string }>('POST', '/users', { body: { username: 'gina', password: 'gina-pass', nickname: 'Gina', type: 'admin', roles: [viewer] } });
    const token = await h.login('gina', 'gina-pass');
    const login = (await h.call('POST', '/login', { body: { username: 'gina', password: 'gina-pass' } })).body.data as { info: { menus: string[] } };
    expect(login.info.menus).toEqual(['info']);
    expect((await h.call('GET', '/users/paging', { token })).body.code).toBe(403);

    // Grant: `user` half-checked under `identity` grants as well.
    await api.ok('PUT', `/roles/${viewer}`, { body: { name: 'viewer', menus: [{ menuId: 'identity', checked: false }, { menuId: 'user', checked: true }] } });
    expect((await h.call('GET', '/users/paging', { token })).body.code).toBe(1);
    expect((await info(h, token)).menus).toEqual(['identity', 'user']);
    expect((await h.call('DELETE', `/users/${SUPER_ADMIN_ID}`, { token })).body.code).toBe(403);

    // Revoke.
    await api.ok('PUT', `/roles/${viewer}`, { body: { name: 'viewer', menus: [{ menuId: 'info', checked: true }] } });
    expect((await h.call('GET', '/users/paging', { token })).body.code).toBe(403);
    expect((await info(h, token)).menus).toEqual(['info']);

    // Change the user's roles.
    await api.ok('PUT', `/users/${gina.id}`, { body: { username: 'gina', nickname: 'Gina', type: 'admin', roles: ['audit-administrator', viewer] } });
    expect((await info(h, token)).roles).toEqual(['audit-administrator', viewer].sort());
    expect((await h.call('GET', '/users/paging', { token })).body.code).toBe(403);
    await api.ok('PUT', `/users/${gina.id}`, { body: { username: 'gina', nickname: 'Gina', type: 'admin', roles: ['system-administrator'] } });
    expect((await h.call('GET', '/users/paging', { token })).body.code).toBe(1);

    // Admin → user: refused at once, even holding the keys before.
    await api.ok('PUT', `/users/${gina.id}`, { body: { username: 'gina', nickname: 'Gina', type: 'user', roles: ['system-administrator'] } });
    expect((await h.call('GET', '/users/paging', { token })).body.code).toBe(403);
    expect(await info(h, token)).toMatchObject({ type: 'user', roles: [], menus: [] });

    // Back to admin with the custom role, then delete that role.
    await api.ok('PUT', `/roles/${viewer}`, { body: { name: 'viewer', menus: [{ menuId: 'user', checked: true }] } });
    await api.ok('PUT', `/users/${gina.id}`, { body: { username: 'gina', nickname: 'Gina', type: 'admin', roles: [viewer] } });
    expect((await h.call('GET', '/users/paging', { token })).body.code).toBe(1);
    // A role still held cannot be deleted (1.3.9 left its admins with no role at all): removed from gina first.
    expect((await api.call('DELETE', `/roles/${viewer}`)).body).toEqual({ code: -1, message: '角色「viewer」仍被 1 个账户使用，不能删除' });
    await api.ok('PUT', `/users/${gina.id}`, { body: { username: 'gina', nickname: 'Gina', type: 'admin', roles: ['audit-administrator'] } });
    await api.ok('DELETE', `/roles/${viewer}`);
    expect((await h.call('GET', '/users/paging', { token })).body.code).toBe(403);
    expect(await info(h, token)).toMatchObject({ roles: ['audit-administrator'] });

    // A new role, created and assigned, grants on the next request.
    await api.ok('POST', '/roles', { body: { name: 'groups', menus: [{ menuId: 'user-group', checked: true }] } });
    const groups = (await api.ok<{ id: string; name: string }[]>('GET', '/roles')).find((r) => r.name === 'groups')!.id;
    expect((await h.call('GET', '/user-groups/paging', { token })).body.code).toBe(403);
    await api.ok('PUT', `/users/${gina.id}`, { body: { username: 'gina', nickname: 'Gina', type: 'admin', roles: [groups] } });
    expect((await h.call('GET', '/user-groups/paging', { token })).body.code).toBe(1);
  });
});

describe('no escalation', () => {
  it('an admin can grant only menu keys they hold, in roles and through role assignment', async () => {
    const { h, as } = await identityHarness();
    const manager = await adminWith(h, ['user', 'user-add', 'user-edit', 'role', 'role-add', 'role-edit'], 'manager');
    const api = as(manager.token);

    // A role with keys the manager holds is fine; one more key is refused and nothing is created.
    expect((await api.call('POST', '/roles', { body: { name: 'ok-role', menus: [{ menuId: 'user', checked: true }] } })).body.code).toBe(1);
    const wider = await api.call('POST', '/roles', { body: { name: 'wide', menus: [{ menuId: 'user-del', checked: true }] } });
    expect(wider.body).toMatchObject({ code: -1, message: '不能授予您自己没有的权限：user-del' });
    expect(await h.db.selectFrom('roles').select('id').where('name', '=', 'wide').executeTakeFirst()).toBeUndefined();

    // Assigning the system administrator (every key) to a new or existing user is refused.
    const create = await api.call('POST', '/users', {
      body: { username: 'minion', password: 'pw-123456', nickname: 'Minion', type: 'admin', roles: ['system-administrator'] },
    });
    expect(create.body.code).toBe(-1);
    expect(await h.db.selectFrom('users').select('id').where('username', '=', 'minion').executeTakeFirst()).toBeUndefined();
    const put = await api.call('PUT', `/users/${manager.id}`, {
      body: { username: 'manager', nickname: 'M', type: 'admin', roles: ['role-of-manager', 'system-administrator'] },
    });
    expect(put.body.code).toBe(-1);
    expect((await info(h, manager.token)).roles).not.toContain('system-administrator');

    // A user who holds a wider role is beyond the manager: not even an edit that adds nothing (containment.test.ts).
    const boss = await h.createUser({ username: 'boss', type: 'admin', roles: ['system-administrator'] });
    const edit = await api.call('PUT', `/users/${boss}`, { body: { username: 'boss', nickname: 'Boss', type: 'admin', roles: ['system-administrator'] } });
    expect(edit.body).toMatchObject({ code: -1, message: expect.stringMatching(/^不能修改账户「boss」：该账户拥有您没有的权限/) });
  });

  it('an admin cannot turn themselves into a plain user', async () => {
    const { h, as } = await identityHarness();
    const me = await adminWith(h, ['user', 'user-edit'], 'me');
    const res = await as(me.token).call('PUT', `/users/${me.id}`, { body: { username: 'me', nickname: 'Me', type: 'user', roles: [] } });
    expect(res.body).toMatchObject({ code: -1, message: '不能操作自身账户' });
    expect((await info(h, me.token)).type).toBe('admin');
  });
});
