import { describe, expect, it } from 'vitest';
import { SUPER_ADMIN_ID } from '../../../server/permissions/effective.ts';
import { identityHarness, type Paged } from './helpers.ts';

interface RoleOut {
  id: string;
  name: string;
  type: string;
  deletable: boolean;
  modifiable: boolean;
  created: string;
  menus: { id: string; roleId: string; menuId: string; checked: boolean }[] | null;
}

describe('roles', () => {
  it('creates, reads, updates and deletes a role', async () => {
    const { api } = await identityHarness();
    const menus = [
      { menuId: 'user', checked: false },
      { menuId: 'identity', checked: false },
      { menuId: 'user-del', checked: true },
      { menuId: 'user', checked: true }, // a duplicate: checked wins
      { menuId: 'identity', checked: false },
    ];
    expect(await api.ok('POST', '/roles', { body: { name: ' ops ', menus } })).toBe('');
    const listed = await api.ok<RoleOut[]>('GET', '/roles');
    expect(listed.map((r) => r.name)).toEqual(['ops', '系统管理员', '审计管理员', '安全管理员'].sort().reverse());
    const ops = listed.find((r) => r.name === 'ops')!;
    expect(ops).toMatchObject({ type: 'new', deletable: true, modifiable: true, menus: null });

    const detail = await api.ok<RoleOut>('GET', `/roles/${ops.id}`);
    expect(detail.menus).toEqual([
      { id: '', roleId: '', menuId: 'identity', checked: false },
      { id: '', roleId: '', menuId: 'user', checked: true },
      { id: '', roleId: '', menuId: 'user-del', checked: true },
    ]);

    await api.ok('PUT', `/roles/${ops.id}`, { body: { name: 'ops2', menus: [{ menuId: 'info', checked: true }] } });
    expect(await api.ok('GET', `/roles/${ops.id}`)).toMatchObject({ name: 'ops2', menus: [{ menuId: 'info', checked: true }] });

    expect(await api.ok('DELETE', `/roles/${ops.id}`)).toBeNull();
    expect((await api.call('GET', `/roles/${ops.id}`)).body).toMatchObject({ code: -1, message: `角色不存在：${ops.id}` });
  });

  it("editing a role's keys acts on its holders: not on an account the editor may not act on", async () => {
    const { h, as } = await identityHarness();
    const editorRole = await h.createRole(['role', 'role-edit', 'user', 'asset']);
    const editor = await h.createUser({ username: 'editor', type: 'admin', roles: [editorRole] });
    const shared = await h.createRole(['user', 'asset'], 'shared');
    const extra = await h.createRole(['login-log'], 'extra');
    await h.createUser({ username: 'boss', type: 'admin', roles: [shared, extra] });
    const e = as(await h.accessToken(editor));
    expect((await e.call('PUT', `/roles/${shared}`, { body: { name: 'shared', menus: [{ menuId: 'user', checked: true }] } })).body).toEqual({
      code: -1,
      message: '不能修改账户「boss」所持有的角色：该账户拥有您没有的权限（login-log）',
    });
    expect((await h.db.selectFrom('rolesMenusRef').select('menuId').where('roleId', '=', shared).orderBy('menuId').execute()).map((r) => r.menuId)).toEqual(['asset', 'user']);
    // A role held by accounts within the editor's rights (and by the super admin, whose rights no role gives) it edits.
    const team = await h.createRole(['user'], 'team');
    await h.createUser({ username: 'peer', type: 'admin', roles: [team] });
    await h.db.insertInto('usersRolesRef').values({ id: 'super-team', userId: SUPER_ADMIN_ID, roleId: team }).execute();
    await e.ok('PUT', `/roles/${team}`, { body: { name: 'team', menus: [{ menuId: 'user', checked: true }, { menuId: 'asset', checked: true }] } });
  });

  it('refuses unknown menu keys, duplicate names and missing roles', async () => {
    const { api } = await identityHarness();
    const bad = await api.call('POST', '/roles', { body: { name: 'x', menus: [{ menuId: 'user', checked: true }, { menuId: 'user-nuke', checked: true }] } });
    expect(bad.body.code).toBe(400);
    expect(bad.body.message).toBe('menus.1.menuId: unknown menu key "user-nuke"');
    expect((await api.call('POST', '/roles', { body: { name: 'x', menus: [{ menuId: 'user', checked: 'yes' }] } })).body.message).toMatch(/^menus\.0\.checked: /);
    expect((await api.call('POST', '/roles', { body: { name: '', menus: [] } })).body.message).toBe('name: required');
    expect((await api.call('POST', '/roles', { body: { name: '系统管理员', menus: [] } })).body).toMatchObject({ code: -1, message: '角色名称「系统管理员」已存在' });
    await api.ok('POST', '/roles', { body: { name: 'a', menus: [] } });
    await api.ok('POST', '/roles', { body: { name: 'b', menus: [] } });
    const b = (await api.ok<RoleOut[]>('GET', '/roles')).find((r) => r.name === 'b')!;
    expect((await api.call('PUT', `/roles/${b.id}`, { body: { name: 'a', menus: [] } })).body).toMatchObject({ code: -1, message: '角色名称「a」已存在' });
    expect((await api.call('PUT', `/roles/${b.id}`, { body: { name: 'b', menus: [] } })).body.code).toBe(1);
    expect((await api.call('PUT', '/roles/ghost', { body: { name: 'c', menus: [] } })).body).toMatchObject({ code: -1, message: '角色不存在：ghost' });
  });

  it('built-in roles can be neither modified nor deleted; deletion is all-or-nothing', async () => {
    const { h, api } = await identityHarness();
    expect((await api.call('PUT', '/roles/system-administrator', { body: { name: 'mine', menus: [] } })).body).toMatchObject({ code: -1, message: '内置角色「系统管理员」不允许修改' });
    await api.ok('POST', '/roles', { body: { name: 'temp', menus: [{ menuId: 'info', checked: true }] } });
    const temp = (await api.ok<RoleOut[]>('GET', '/roles')).find((r) => r.name === 'temp')!;
    const user = await h.createUser({ username: 'u', type: 'admin', roles: [temp.id] });
    expect((await api.call('DELETE', `/roles/${temp.id},audit-administrator`)).body).toMatchObject({ code: -1, message: '内置角色「审计管理员」不允许删除' });
    expect((await api.call('DELETE', `/roles/${temp.id},ghost`)).body).toMatchObject({ code: -1, message: '角色不存在：ghost' });
    expect(await api.ok('GET', `/roles/${temp.id}`)).toMatchObject({ name: 'temp' });
    // A role still held is refused, naming how many accounts hold it; once nobody holds it, it goes.
    expect((await api.call('DELETE', `/roles/${temp.id}`)).body).toEqual({ code: -1, message: '角色「temp」仍被 1 个账户使用，不能删除' });
    expect(await h.db.selectFrom('usersRolesRef').select('id').where('userId', '=', user).execute()).toHaveLength(1);
    await h.db.deleteFrom('usersRolesRef').where('userId', '=', user).execute();
    await api.ok('DELETE', `/roles/${temp.id}`);
    expect(await h.db.selectFrom('rolesMenusRef').select('id').where('roleId', '=', temp.id).execute()).toEqual([]);
    expect((await api.ok<RoleOut[]>('GET', '/roles')).map((r) => r.id).sort()).toEqual(['audit-administrator', 'security-administrator', 'system-administrator']);
  });

  it('pages for real with name/type filters and sorting', async () => {
    const { h, api } = await identityHarness();
    for (let i = 0; i < 12; i++) {
      h.clock.advance(1000);
      await api.ok('POST', '/roles', { body: { name: `r${String(i).padStart(2, '0')}`, menus: [] } });
    }
    const page = (q: string) => api.ok<Paged<RoleOut>>('GET', `/roles/paging?${q}`);
    const p1 = await page('pageIndex=1&pageSize=5');
    expect(p1.total).toBe(15);
    expect(p1.items.map((r) => r.name)).toEqual(['r11', 'r10', 'r09', 'r08', 'r07']);
    expect((await page('pageIndex=2&pageSize=5&field=name&order=ascend')).items.map((r) => r.name)).toEqual(['r05', 'r06', 'r07', 'r08', 'r09']);
    expect((await page('type=default&pageSize=100')).items.map((r) => r.id).sort()).toEqual(['audit-administrator', 'security-administrator', 'system-administrator']);
    expect((await page('type=new')).total).toBe(12);
    expect((await page('type=')).total).toBe(15);
    expect((await page('name=r0')).total).toBe(10);
    expect((await page('pageSize=1&field=type&order=ascend')).items[0]!.type).toBe('default');
    expect((await page('pageSize=1&field=type&order=descend')).items[0]!.type).toBe('new');
    expect((await api.call('GET', '/roles/paging?type=custom')).body).toMatchObject({ code: 400, message: 'type: expected default or new' });
  });
});
