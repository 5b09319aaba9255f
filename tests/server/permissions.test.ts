import { describe, expect, it } from 'vitest';
import type { PermissionKey } from '../../shared/manifest.ts';
import { MSG_LOGIN_ONLY } from '../../server/http/envelope.ts';
import type { RouteDef } from '../../server/http/routes.ts';
import { SUPER_ADMIN_ID } from '../../server/permissions/effective.ts';
import { type CallResult, type Harness, startHarness } from './harness.ts';
import { withProbe } from './probe.ts';

const urlOf = (r: RouteDef) => r.path.replace(/:\w+/g, 'sample');
const refused = (res: CallResult) => res.body?.code === 401 || res.body?.code === 403;

/** Calls `r` as the user with a personal access token, or with a login token (`login`). */
async function callAs(h: Harness, userId: string | null, r: RouteDef, login?: string) {
  const token = login ?? (userId ? await h.accessToken(userId) : undefined);
  const res = await h.call(r.method, urlOf(r), { token });
  expect(res.status, `${r.method} ${r.path}`).not.toBe(500);
  return res;
}

describe('permission matrix over every registered route', () => {
  it('anonymous, plain user, admin without the key, admin with each key, super admin', async () => {
    const h = await startHarness(withProbe);
    const registry = h.app.routeRegistry;
    expect(registry.length).toBeGreaterThanOrEqual(13);

    const allKeys = h.catalogue.keys as readonly PermissionKey[];
    const everything = await h.createRole(allKeys);
    const plainUser = await h.createUser({ username: 'plain', type: 'user', roles: [everything] });
    const noRoles = await h.createUser({ username: 'admin-none', type: 'admin' });
    // Login tokens, for the routes a personal access token may not call (no route here changes a password).
    const plainLogin = await h.login('plain', 'Passw0rd!');
    const noRolesLogin = await h.login('admin-none', 'Passw0rd!');

    for (const r of registry) {
      const label = `${r.method} ${r.path}`;
      const anon = await callAs(h, null, r);
      if (r.gate === 'anonymous') {
        expect(refused(anon), label).toBe(false);
        continue;
      }
      expect(anon.body, label).toEqual({ code: 401, message: '您的登录信息已失效，请重新登录后再试。' });
      expect(anon.status).toBe(200);

      if (r.gate === 'authenticated') {
        if (r.loginOnly) {
          // Password, TOTP and access-token routes: a login token of any type passes, a personal access token never.
          expect(refused(await callAs(h, plainUser, r, plainLogin)), label).toBe(false);
          expect(refused(await callAs(h, noRoles, r, noRolesLogin)), label).toBe(false);
          expect((await callAs(h, plainUser, r)).body, label).toEqual({ code: 403, message: MSG_LOGIN_ONLY });
          expect((await callAs(h, SUPER_ADMIN_ID, r)).body, label).toEqual({ code: 403, message: MSG_LOGIN_ONLY });
          continue;
        }
        expect(refused(await callAs(h, plainUser, r)), label).toBe(false);
        expect(refused(await callAs(h, noRoles, r)), label).toBe(false);
        continue;
      }

      const grants = r.gate as readonly PermissionKey[];
      // Gates come from the manifests: exactly the keys whose grants name this route.
      expect(grants, label).toEqual(h.catalogue.keysGranting(label));
      // A plain user is refused even holding every key.
      expect((await callAs(h, plainUser, r)).body, label).toEqual({ code: 403, message: 'permission denied' });
      // An admin holding every key except the granting ones is refused.
      const without = await h.createRole(allKeys.filter((k) => !grants.includes(k)));
      const adminWithout = await h.createUser({ username: `admin-without-${registry.indexOf(r)}`, type: 'admin', roles: [without] });
      expect((await callAs(h, adminWithout, r)).body, label).toEqual({ code: 403, message: 'permission denied' });
      // Each granting key alone is enough.
      for (const key of grants) {
        const only = await h.createRole([key]);
        const adminWith = await h.createUser({ username: `admin-${key}-${registry.indexOf(r)}`, type: 'admin', roles: [only] });
        expect(refused(await callAs(h, adminWith, r)), `${label} with ${key}`).toBe(false);
      }
      // The super admin holds every key (including routes no key grants).
      expect(refused(await callAs(h, SUPER_ADMIN_ID, r)), label).toBe(false);
    }
  });

  it('checks the method, not only the path (quirk 2)', async () => {
    const h = await startHarness(withProbe);
    const reader = await h.createRole(['probe']);
    const id = await h.createUser({ username: 'reader', type: 'admin', roles: [reader] });
    const token = await h.accessToken(id);
    expect((await h.call('GET', '/probe', { token })).body.code).toBe(1);
    expect((await h.call('DELETE', '/probe/x', { token })).body.code).toBe(403);
  });

  it('has no anonymous prefixes: /login-logs/* needs a token and a role (quirk 1)', async () => {
    const h = await startHarness();
    expect((await h.call('GET', '/login-logs/paging')).body.code).toBe(401);
    expect((await h.call('POST', '/login-logs/clear')).body.code).toBe(401);
    const id = await h.createUser({ username: 'adm', type: 'admin', roles: [await h.createRole(['info'])] });
    const token = await h.accessToken(id);
    expect((await h.call('GET', '/login-logs/paging', { token })).body.code).toBe(403);
    expect((await h.call('DELETE', '/login-logs/x', { token })).body.code).toBe(403);
    // An admin-type account is not enough (1.3.9's only check): the key is.
    const reader = await h.createUser({ username: 'reader', type: 'admin', roles: [await h.createRole(['login-log'])] });
    expect((await h.call('GET', '/login-logs/paging', { token: await h.accessToken(reader) })).body.code).toBe(1);
    expect((await h.call('GET', '/loginx')).body.code).toBe(404);
    expect((await h.call('GET', '/brandingx')).body.code).toBe(404);
  });

  it('applies role, type and menu changes on the next request, without a new login (quirk 8)', async () => {
    const h = await startHarness(withProbe);
    const role = await h.createRole(['info']);
    await h.createUser({ username: 'gina', password: 'gina-pass', type: 'admin', roles: [role] });
    const token = await h.login('gina', 'gina-pass');
    expect((await h.call('GET', '/menus', { token })).body.code).toBe(403);

    await h.db.insertInto('rolesMenusRef').values({ id: 'r1', roleId: role, menuId: 'role-detail', checked: 0 }).execute();
    // Half-checked (checked=0) refs grant too, as in 1.3.9.
    expect((await h.call('GET', '/menus', { token })).body.code).toBe(1);
    expect(((await h.call('GET', '/account/info', { token })).body.data as { menus: string[] }).menus).toEqual(['role-detail', 'info']);

    await h.db.updateTable('users').set({ type: 'user' }).where('username', '=', 'gina').execute();
    expect((await h.call('GET', '/menus', { token })).body.code).toBe(403);
    await h.db.updateTable('users').set({ type: 'admin' }).where('username', '=', 'gina').execute();
    await h.db.deleteFrom('rolesMenusRef').where('id', '=', 'r1').execute();
    expect((await h.call('GET', '/menus', { token })).body.code).toBe(403);
  });

  it('deleting a role (refs removed by cascade) or a user-role ref inside a transaction applies at once', async () => {
    const h = await startHarness();
    const role = await h.createRole(['role-detail']);
    const id = await h.createUser({ username: 'hank', type: 'admin', roles: [role] });
    const token = await h.accessToken(id);
    expect((await h.call('GET', '/menus', { token })).body.code).toBe(1);
    await h.db.deleteFrom('roles').where('id', '=', role).execute();
    expect((await h.call('GET', '/menus', { token })).body.code).toBe(403);
    expect(((await h.call('GET', '/account/info', { token })).body.data as { roles: string[] }).roles).toEqual([]);

    const again = await h.createRole(['role-add']);
    await h.db.transaction().execute((trx) => trx.insertInto('usersRolesRef').values({ id: 'x1', userId: id, roleId: again }).execute());
    expect((await h.call('GET', '/menus', { token })).body.code).toBe(1);
  });

  it('keeps stored refs of keys no manifest declares, but they grant nothing', async () => {
    const h = await startHarness();
    const role = await h.createRole(['role-detail']);
    // A key of a plugin that is not installed (yet): 1.3.9 data, or a plugin removed since.
    await h.db.insertInto('rolesMenusRef').values({ id: 'r-job', roleId: role, menuId: 'job-add', checked: 1 }).execute();
    const id = await h.createUser({ username: 'ivy', type: 'admin', roles: [role] });
    const token = await h.accessToken(id);
    expect(((await h.call('GET', '/account/info', { token })).body.data as { menus: string[] }).menus).toEqual(['role-detail']);
    expect((await h.call('GET', `/roles/${role}`, { token })).body.data).toMatchObject({ menus: [{ menuId: 'role-detail', checked: true }] });
    expect(await h.db.selectFrom('rolesMenusRef').select('menuId').where('roleId', '=', role).orderBy('menuId').execute()).toEqual([
      { menuId: 'job-add' },
      { menuId: 'role-detail' },
    ]);
  });

  it("'super-admin' routes are for the super admin only", async () => {
    const h = await startHarness(withProbe);
    const sys = await h.createUser({ username: 'sys', type: 'admin', roles: ['system-administrator'] });
    expect((await h.call('GET', '/probe/super', { token: await h.accessToken(sys) })).body.code).toBe(403);
    expect((await h.call('GET', '/probe/super', { token: await h.accessToken(SUPER_ADMIN_ID) })).body.code).toBe(1);
  });

  it('self-targeted: no route that changes grants, group memberships, strategies or owners lets an admin change what applies to itself', async () => {
    const h = await startHarness();
    const root = await h.accessToken(SUPER_ADMIN_ID);
    const asRoot = async <T>(method: string, url: string, body?: unknown, query?: Record<string, string>) => {
      const res = await h.call(method, url, { token: root, body, query });
      expect(res.body, `${method} ${url}`).toMatchObject({ code: 1 });
      return res.body.data as T;
    };
    // The actor holds every key, so only the self rule stands in the way; it may act on every account but itself.
    const self = await h.createUser({ username: 'self', type: 'admin', roles: [await h.createRole(h.catalogue.keys as readonly PermissionKey[])] });
    const token = await h.accessToken(self);
    const other = await h.createUser({ username: 'other', type: 'user' });
    const asset = async (name: string) =>
      (await asRoot<{ id: string }>('POST', '/assets', { name, protocol: 'ssh', ip: '10.3.0.1', port: 22, accountType: 'custom', username: 'root' })).id;
    const [a, b, others] = [await asset('a'), await asset('b'), await asset('others')];
    await h.db.updateTable('assets').set({ owner: other }).where('id', '=', others).execute();
    const strict = (await asRoot<{ id: string }>('POST', '/strategies', { name: 'strict', download: true })).id;
    const viaGroup = (await asRoot<{ id: string }>('POST', '/strategies', { name: 'via-group' })).id;
    const group = (await asRoot<{ id: string }>('POST', '/user-groups', { name: 'mine', members: [self, other] })).id;
    await asRoot('POST', '/authorised/users', { userIds: [self], assetId: a, strategyId: strict, validUntil: '2099-01-01 00:00:00' });
    await asRoot('POST', '/authorised/user-groups', { userGroupIds: [group], assetId: b, strategyId: viaGroup });
    await asRoot('POST', '/authorised/users', { userIds: [self], assetId: others });
    const command = (await h.call('POST', '/worker/commands', { token: await h.accessToken(other), body: { name: 'c', content: 'ls' } })).body.data as { id: string };
    const ownGrant = (await h.db.selectFrom('authorised').select('id').where('userId', '=', self).where('assetId', '=', a).executeTakeFirstOrThrow()).id;
    const ALL = { upload: true, download: true, delete: true, rename: true, edit: true, createDir: true, copy: true, paste: true };

    /**
     * One self-targeted request per route that writes grants, group memberships, strategies or owners. A new such
     * route fails this test until it has a case here (or a reason why nothing of it can apply to its caller).
     */
    const cases: Record<string, { url: string; body?: unknown; query?: Record<string, string> } | { exempt: string }> = {
      'POST /authorised/users': { url: '/authorised/users', body: { userIds: [self], assetId: a } },
      'POST /authorised/user-groups': { url: '/authorised/user-groups', body: { userGroupIds: [group], assetId: b } },
      'POST /authorised/assets': { url: '/authorised/assets', body: { assetIds: [a], userId: self } },
      'POST /authorised/bulk': { url: '/authorised/bulk', body: { userGroupIds: [group], assetIds: [a] } },
      'DELETE /authorised/:id': { url: `/authorised/${ownGrant}` },
      'POST /user-groups': { url: '/user-groups', body: { name: 'new', members: [self] } },
      'PUT /user-groups/:id': { url: `/user-groups/${group}`, body: { name: 'mine', members: [other] } },
      'DELETE /user-groups/:id': { url: `/user-groups/${group}` },
      'POST /strategies': { exempt: 'a new strategy restricts no grant yet' },
      'PUT /strategies/:id': { url: `/strategies/${strict}`, body: { name: 'strict', ...ALL } },
      'DELETE /strategies/:id': { url: `/strategies/${viaGroup}` },
      'POST /assets/:id/change-owner': { url: `/assets/${others}/change-owner`, query: { owner: self } },
      'POST /commands/:id/change-owner': { url: `/commands/${command.id}/change-owner`, query: { owner: self } },
      'POST /credentials/:id/change-owner': { exempt: 'the super admin only (gate)' },
    };
    const writes = h.app.routeRegistry.filter((r) => r.method !== 'GET' && (/^\/(authorised|user-groups|strategies)(\/|$)/.test(r.path) || r.path.endsWith('/change-owner')));
    expect(writes.length).toBeGreaterThanOrEqual(12);
    const snapshot = async () => ({
      grants: await h.db.selectFrom('authorised').selectAll().orderBy('id').execute(),
      groups: await h.db.selectFrom('userGroups').selectAll().orderBy('id').execute(),
      members: await h.db.selectFrom('userGroupMembers').selectAll().orderBy('id').execute(),
      strategies: await h.db.selectFrom('strategies').selectAll().orderBy('id').execute(),
      owners: await h.db.selectFrom('assets').select(['id', 'owner']).orderBy('id').execute(),
      commands: await h.db.selectFrom('commands').select(['id', 'owner']).orderBy('id').execute(),
    });
    const before = await snapshot();
    for (const r of writes) {
      const label = `${r.method} ${r.path}`;
      const c = cases[label];
      expect(c, `${label}: add a self-targeted case to this test`).toBeDefined();
      if (!c || 'exempt' in c) continue;
      const res = await h.call(r.method, c.url, { token, body: c.body, query: c.query });
      // Refused by the self rule itself (access/delegation.ts, identity/owner.ts), not by something else.
      expect(res.body, label).toMatchObject({ code: -1, message: expect.stringMatching(/(：只有超级管理员可以|：它限制着授予您自己或您所在用户组的授权)$/) });
      expect(await snapshot(), label).toEqual(before);
    }
  });
});
