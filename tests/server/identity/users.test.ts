import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { uuid } from '../../../server/lib/ids.ts';
import { formatDate } from '../../../server/lib/time.ts';
import { PASSWORD_MSG } from '../../../server/lib/password.ts';
import { SUPER_ADMIN_ID } from '../../../server/permissions/effective.ts';
import { ADMIN_PASSWORD } from '../harness.ts';
import { adminWith, identityHarness, type Paged } from './helpers.ts';

interface UserOut {
  id: string;
  username: string;
  nickname: string;
  type: string;
  mail: string;
  status: string;
  online: boolean;
  totpSecret: string;
  roles: string[];
  created: string;
}

const newUser = (over: Record<string, unknown> = {}) => ({ username: 'alice', password: 'alice-pass', nickname: 'Alice', type: 'admin', mail: 'alice@example.com', roles: ['audit-administrator'], ...over });

describe('POST /users', () => {
  it('creates a user and answers the stored user without any password', async () => {
    const { h, api } = await identityHarness();
    const res = await api.call('POST', '/users', { body: newUser({ username: '  alice  ', id: 'ignored', status: 'disabled' }) });
    expect(res.body.code).toBe(1);
    const u = res.body.data as UserOut & Record<string, unknown>;
    expect(u).toMatchObject({ username: 'alice', nickname: 'Alice', type: 'admin', mail: 'alice@example.com', status: 'enabled', online: false, totpSecret: '0', roles: ['audit-administrator'], source: '' });
    expect(u.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(u.created).toBe(formatDate(h.clock.now()));
    expect(res.text).not.toContain('alice-pass');
    expect(Object.keys(u)).not.toContain('password');
    // The new account logs in and gets its role's menus.
    const token = await h.login('alice', 'alice-pass');
    const info = (await h.call('GET', '/account/info', { token })).body.data as { roles: string[]; menus: string[] };
    expect(info.roles).toEqual(['audit-administrator']);
    // The audit role holds the keys under 会话审计 / 日志审计 of the installed plugins: none yet.
    // Everything under its subtrees but the destructive keys (deleting audit records), which no built-in role holds.
    const destructive = h.catalogue.destructiveKeys();
    expect(destructive.length).toBeGreaterThan(0);
    expect(info.menus).toEqual(h.catalogue.withDescendants(['dashboard', 'session-audit', 'log-audit']).filter((k) => !destructive.includes(k)));
  });

  it('refuses duplicates, bad fields and unknown roles with clear messages', async () => {
    const { api } = await identityHarness();
    await api.ok('POST', '/users', { body: newUser() });
    expect((await api.call('POST', '/users', { body: newUser({ username: 'alice ' }) })).body).toMatchObject({ code: -1, message: '登录账号「alice」已被使用', data: { field: 'username' } });
    expect((await api.call('POST', '/users', { body: newUser({ username: 'admin' }) })).body.code).toBe(-1);
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ username: '   ' }, /^username: required/],
      [{ password: 'p'.repeat(1025) }, /^password: at most 1024/],
      [{ username: 'bo\u200bb' }, /^username: no control, zero-width/],
      [{ nickname: '' }, /^nickname: required/],
      [{ type: 'root' }, /^type: expected user or admin/],
      [{ mail: 'not-a-mail' }, /^mail: expected an email/],
      [{ roles: 'system-administrator' }, /^roles: /],
      [{ roles: ['x'.repeat(65)] }, /^roles\.0: at most 64/],
      [{ username: 'u'.repeat(65) }, /^username: at most 64/],
    ];
    for (const [over, message] of bad) {
      const res = await api.call('POST', '/users', { body: newUser({ username: 'bob', ...over }) });
      expect(res.body.code, JSON.stringify(over)).toBe(400);
      expect(res.body.message, JSON.stringify(over)).toMatch(message);
    }
    expect((await api.call('POST', '/users', { body: newUser({ username: 'bob', roles: ['system-administrator', 'nope-1', 'nope-2'] }) })).body).toMatchObject({
      code: -1,
      message: '角色不存在：nope-1, nope-2',
    });
    expect((await api.call('POST', '/users', { body: newUser({ username: 'bob', roles: [] }) })).body).toMatchObject({ code: -1, message: '请选择用户角色' });
    for (const [password, message] of [
      ['', PASSWORD_MSG.empty],
      ['seven77', PASSWORD_MSG.tooShort],
      ['p'.repeat(73), PASSWORD_MSG.tooLong],
    ]) {
      expect((await api.call('POST', '/users', { body: newUser({ username: 'bob', password }) })).body, password).toEqual({ code: -1, message });
    }
    // Nothing half-created by the refusals.
    const names = (await api.ok<{ username: string }[]>('GET', '/users')).map((u) => u.username).sort();
    expect(names).toEqual(['admin', 'alice']);
  });

  it('ignores roles for a plain user; mail is optional', async () => {
    const { api } = await identityHarness();
    const u = await api.ok<UserOut>('POST', '/users', { body: newUser({ type: 'user', mail: null, roles: ['system-administrator'] }) });
    expect(u).toMatchObject({ type: 'user', mail: '', roles: [] });
    const v = await api.ok<UserOut>('POST', '/users', { body: { username: 'v', password: 'v-password', nickname: 'V', type: 'user' } });
    expect(v).toMatchObject({ mail: '', roles: [] });
  });
});

describe('GET /users/:id, GET /users', () => {
  it('answers the user with roles, never the hash; unknown ids are -1', async () => {
    const { api } = await identityHarness();
    const created = await api.ok<UserOut>('POST', '/users', { body: newUser() });
    const got = await api.ok<UserOut>('GET', `/users/${created.id}`);
    expect(got).toEqual(created);
    expect((await api.call('GET', '/users/nope')).body).toMatchObject({ code: -1, message: '用户不存在：nope' });
    const list = await api.ok<unknown[]>('GET', '/users');
    expect(list).toEqual([
      { id: SUPER_ADMIN_ID, username: 'admin', nickname: '超级管理员' },
      { id: created.id, username: 'alice', nickname: 'Alice' },
    ].sort((a, b) => (a.nickname < b.nickname ? -1 : 1)));
  });
});

describe('PUT /users/:id', () => {
  it('takes the id from the path, never touches the password, replaces roles', async () => {
    const { h, api } = await identityHarness();
    const alice = await api.ok<UserOut>('POST', '/users', { body: newUser() });
    const bob = await api.ok<UserOut>('POST', '/users', { body: newUser({ username: 'bob', nickname: 'Bob' }) });
    const body = { id: bob.id, username: 'alice2', nickname: 'Alicia', type: 'admin', mail: '', roles: ['security-administrator', 'audit-administrator'], password: 'hacked' };
    expect((await api.call('PUT', `/users/${alice.id}`, { body })).body).toEqual({ code: 1, message: 'success', data: null });
    expect(await api.ok('GET', `/users/${alice.id}`)).toMatchObject({ username: 'alice2', nickname: 'Alicia', mail: '', roles: ['audit-administrator', 'security-administrator'] });
    expect(await api.ok('GET', `/users/${bob.id}`)).toMatchObject({ username: 'bob', nickname: 'Bob' });
    await h.login('alice2', 'alice-pass'); // the password is unchanged
    expect((await h.call('POST', '/login', { body: { username: 'alice2', password: 'hacked' } })).body.code).toBe(-1);
  });

  it('checks uniqueness, existence, roles; admin → user drops the roles', async () => {
    const { api } = await identityHarness();
    const alice = await api.ok<UserOut>('POST', '/users', { body: newUser() });
    const base = { username: 'alice', nickname: 'A', type: 'admin', roles: ['audit-administrator'] };
    expect((await api.call('PUT', `/users/${alice.id}`, { body: { ...base, username: 'admin' } })).body).toMatchObject({ code: -1, message: '登录账号「admin」已被使用', data: { field: 'username' } });
    expect((await api.call('PUT', `/users/${alice.id}`, { body: base })).body.code).toBe(1); // its own name is fine
    expect((await api.call('PUT', '/users/nope', { body: base })).body).toMatchObject({ code: -1, message: '用户不存在：nope' });
    expect((await api.call('PUT', `/users/${alice.id}`, { body: { ...base, roles: ['ghost'] } })).body).toMatchObject({ code: -1, message: '角色不存在：ghost' });
    await api.ok('PUT', `/users/${alice.id}`, { body: { ...base, type: 'user' } });
    expect(await api.ok('GET', `/users/${alice.id}`)).toMatchObject({ type: 'user', roles: [] });
    expect((await api.call('PUT', `/users/${SUPER_ADMIN_ID}`, { body: { username: 'admin', nickname: 'x', type: 'user' } })).body).toMatchObject({ code: -1, message: '超级管理员必须是管理用户' });
  });
});

describe('PATCH /users/:id/status', () => {
  it('disabling ends the user session at once; enabling lets them back in', async () => {
    const { h, api } = await identityHarness();
    const alice = await api.ok<UserOut>('POST', '/users', { body: newUser() });
    const token = await h.login('alice', 'alice-pass');
    expect((await api.ok<UserOut>('GET', `/users/${alice.id}`)).online).toBe(true);
    expect((await h.call('GET', '/account/info', { token })).body.code).toBe(1);

    await api.ok('PATCH', `/users/${alice.id}/status?status=disabled`);
    expect((await h.call('GET', '/account/info', { token })).body.code).toBe(401);
    expect(await api.ok('GET', `/users/${alice.id}`)).toMatchObject({ status: 'disabled', online: false });
    expect(await h.db.selectFrom('tokens').select('id').where('userId', '=', alice.id).execute()).toEqual([]);
    expect((await h.call('POST', '/login', { body: { username: 'alice', password: 'alice-pass' } })).body).toMatchObject({ code: -1, message: '该账户已停用' });

    await api.ok('PATCH', `/users/${alice.id}/status`, { query: { status: 'enabled' } });
    await h.login('alice', 'alice-pass');
  });

  it('refuses oneself, bad status values, unknown users and (for others) the super admin', async () => {
    const { h, api } = await identityHarness();
    expect((await api.call('PATCH', `/users/${SUPER_ADMIN_ID}/status?status=disabled`)).body).toMatchObject({ code: -1, message: '不能操作自身账户' });
    const bad = await api.call('PATCH', `/users/${SUPER_ADMIN_ID}/status?status=off`);
    expect(bad.body.code).toBe(400);
    expect(bad.body.message).toBe('status: expected enabled or disabled');
    expect((await api.call('PATCH', '/users/x/status')).body.code).toBe(400);
    expect((await api.call('PATCH', '/users/nope/status?status=enabled')).body).toMatchObject({ code: -1, message: '用户不存在：nope' });
    const ops = await adminWith(h, ['user-enable-disable'], 'ops');
    expect((await h.call('PATCH', `/users/${SUPER_ADMIN_ID}/status?status=disabled`, { token: ops.token })).body).toMatchObject({ code: -1, message: '只有超级管理员本人可以修改超级管理员账户' });
    expect((await h.call('PATCH', `/users/${ops.id}/status?status=disabled`, { token: ops.token })).body.message).toBe('不能操作自身账户');
  });
});

describe('DELETE /users/:id', () => {
  it('deletes a comma list with memberships, role refs, login and access tokens', async () => {
    const { h, api } = await identityHarness();
    const a = await api.ok<UserOut>('POST', '/users', { body: newUser({ username: 'a' }) });
    const b = await api.ok<UserOut>('POST', '/users', { body: newUser({ username: 'b' }) });
    const c = await api.ok<UserOut>('POST', '/users', { body: newUser({ username: 'c' }) });
    await api.ok('POST', '/user-groups', { body: { name: 'g', members: [a.id, b.id, c.id] } });
    const tokenA = await h.login('a', 'alice-pass');
    const accessB = await h.accessToken(b.id);

    await api.ok('DELETE', `/users/${a.id},${b.id},${a.id}`);
    expect((await h.call('GET', '/account/info', { token: tokenA })).body.code).toBe(401);
    expect((await h.call('GET', '/account/info', { token: accessB })).body.code).toBe(401);
    const ids = [a.id, b.id];
    for (const table of ['userGroupMembers', 'usersRolesRef', 'tokens', 'accessToken'] as const) {
      expect(await h.db.selectFrom(table).select('id').where('userId', 'in', ids).execute(), table).toEqual([]);
    }
    expect((await api.ok<{ username: string }[]>('GET', '/users')).map((u) => u.username).sort()).toEqual(['admin', 'c']);
    const group = (await api.ok<{ id: string }[]>('GET', '/user-groups'))[0]!;
    expect((await api.ok<{ members: unknown[] }>('GET', `/user-groups/${group.id}`)).members).toEqual([{ id: c.id, name: 'Alice' }]);
    // The login log of the ended session is closed.
    expect((await h.db.selectFrom('loginLogs').select('logoutTime').where('username', '=', 'a').executeTakeFirstOrThrow()).logoutTime).not.toBeNull();
  });

  it('is all-or-nothing: an unknown id deletes nothing', async () => {
    const { h, api } = await identityHarness();
    const a = await api.ok<UserOut>('POST', '/users', { body: newUser({ username: 'a' }) });
    const res = await api.call('DELETE', `/users/${a.id},ghost`);
    expect(res.body).toMatchObject({ code: -1, message: '用户不存在：ghost', data: ['ghost'] });
    expect(await api.ok('GET', `/users/${a.id}`)).toMatchObject({ username: 'a', roles: ['audit-administrator'] });
    expect(await h.db.selectFrom('users').select('id').where('id', '=', a.id).execute()).toHaveLength(1);
  });

  it('rolls back when a statement fails half-way', async () => {
    const { h, api } = await identityHarness();
    const a = await api.ok<UserOut>('POST', '/users', { body: newUser({ username: 'a' }) });
    const b = await api.ok<UserOut>('POST', '/users', { body: newUser({ username: 'b' }) });
    await api.ok('POST', '/user-groups', { body: { name: 'g', members: [a.id, b.id] } });
    await h.accessToken(a.id);
    // Sabotage the last statement (the users row delete); the member, ref and token deletes before it ran.
    await sql`create trigger no_delete before delete on users when old.username = 'b' begin select raise(abort, 'sabotaged'); end`.execute(h.db);
    const res = await api.call('DELETE', `/users/${a.id},${b.id}`);
    expect(res.body).toEqual({ code: 500, message: 'Internal Server Error' });
    expect(res.text).not.toContain('sabotaged');
    expect(await h.db.selectFrom('users').select('id').where('id', 'in', [a.id, b.id]).execute()).toHaveLength(2);
    expect(await h.db.selectFrom('userGroupMembers').select('id').execute()).toHaveLength(2);
    expect(await h.db.selectFrom('usersRolesRef').select('id').where('userId', 'in', [a.id, b.id]).execute()).toHaveLength(2);
    expect(await h.db.selectFrom('accessToken').select('id').where('userId', '=', a.id).execute()).toHaveLength(1);
  });

  it('protects oneself and the super admin', async () => {
    const { h, api } = await identityHarness();
    const other = await h.createUser({ username: 'o' });
    expect((await api.call('DELETE', `/users/${other},${SUPER_ADMIN_ID}`)).body).toMatchObject({ code: -1, message: '不允许删除自身账户' });
    const del = await adminWith(h, ['user-del'], 'deleter');
    expect((await h.call('DELETE', `/users/${SUPER_ADMIN_ID}`, { token: del.token })).body).toMatchObject({ code: -1, message: '不允许删除超级管理员账户' });
    expect((await h.call('DELETE', `/users/${del.id}`, { token: del.token })).body.message).toBe('不允许删除自身账户');
    expect((await h.call('DELETE', `/users/${other}`, { token: del.token })).body.code).toBe(1);
    // Bounded lists: empty, too many, too long ids.
    expect((await api.call('DELETE', '/users/,,')).body.message).toBe('id: at least one id');
    expect((await api.call('DELETE', `/users/${Array.from({ length: 501 }, (_, i) => `u${i}`).join(',')}`)).body.message).toBe('id: at most 500 ids');
    expect((await api.call('DELETE', `/users/a,${'x'.repeat(65)}`)).body.message).toBe('id.1: at most 64 characters');
    // 200 UUIDs fit in the path (Fastify's default 100-character limit would answer 404).
    const many = Array.from({ length: 200 }, () => uuid()).join(',');
    expect((await api.call('DELETE', `/users/${many}`)).body.code).toBe(-1);
  });
});

describe('POST /users/:id/change-password', () => {
  it('accepts JSON, urlencoded and multipart bodies and ends the users sessions', async () => {
    const { h, api } = await identityHarness();
    const a = await api.ok<UserOut>('POST', '/users', { body: newUser({ username: 'a' }) });
    const b = await api.ok<UserOut>('POST', '/users', { body: newUser({ username: 'b' }) });
    const tokenA = await h.login('a', 'alice-pass');
    const tokenB = await h.login('b', 'alice-pass');

    expect(await api.ok('POST', `/users/${a.id},${b.id}/change-password`, { body: { password: 'json-pass' } })).toBe('');
    expect((await h.call('GET', '/account/info', { token: tokenA })).body.code).toBe(401);
    expect((await h.call('GET', '/account/info', { token: tokenB })).body.code).toBe(401);
    await h.login('a', 'json-pass');
    await h.login('b', 'json-pass');

    await api.ok('POST', `/users/${a.id}/change-password`, { raw: 'password=form%20pass%26', contentType: 'application/x-www-form-urlencoded' });
    await h.login('a', 'form pass&');

    const boundary = '----WebKitFormBoundaryx7Yq';
    const multipart = [`--${boundary}`, 'Content-Disposition: form-data; name="password"', '', 'multi\r\npart-密码', `--${boundary}--`, ''].join('\r\n');
    await api.ok('POST', `/users/${a.id}/change-password`, { raw: multipart, contentType: `multipart/form-data; boundary=${boundary}` });
    await h.login('a', 'multi\r\npart-密码');
  });

  it('requires a password of 8 characters to 72 bytes, known users, and guards the super admin', async () => {
    const { h, api } = await identityHarness();
    const a = await h.createUser({ username: 'a' });
    expect((await api.call('POST', `/users/${a}/change-password`, { body: {} })).body).toEqual({ code: -1, message: '请输入密码' });
    expect((await api.call('POST', `/users/${a}/change-password`, { raw: 'password=', contentType: 'application/x-www-form-urlencoded' })).body).toEqual({ code: -1, message: '请输入密码' });
    expect((await api.call('POST', `/users/${a}/change-password`, { body: { password: 'p'.repeat(73) } })).body).toEqual({ code: -1, message: PASSWORD_MSG.tooLong });
    expect((await api.call('POST', `/users/${a}/change-password`, { body: { password: 'p'.repeat(7) } })).body).toEqual({ code: -1, message: PASSWORD_MSG.tooShort });
    expect((await api.call('POST', `/users/${a}/change-password`, { body: { password: 7 } })).body.code).toBe(400);
    expect((await api.call('POST', `/users/${a},ghost/change-password`, { body: { password: 'x-password' } })).body).toMatchObject({ code: -1, message: '用户不存在：ghost' });
    await h.login('a', 'Passw0rd!'); // unchanged by the refusal
    const ops = await adminWith(h, ['user-change-password'], 'ops');
    expect((await h.call('POST', `/users/${SUPER_ADMIN_ID}/change-password`, { token: ops.token, body: { password: 'mine-now' } })).body).toMatchObject({ code: -1, message: '只有超级管理员本人可以修改超级管理员账户' });
    await h.login('admin', ADMIN_PASSWORD);
  });

  it('rejects malformed multipart and file parts with 400, too many parts with 413', async () => {
    const { h, api } = await identityHarness();
    const a = await h.createUser({ username: 'a' });
    const send = (raw: string, contentType = 'multipart/form-data; boundary=XX') => api.call('POST', `/users/${a}/change-password`, { raw, contentType });
    expect((await send('--XX\r\nContent-Disposition: form-data; name="password"\r\n\r\nabc')).body).toEqual({ code: 400, message: 'body: malformed multipart/form-data' });
    expect((await send('whatever', 'multipart/form-data')).body.message).toBe('body: multipart/form-data without a boundary');
    expect((await send('--XX\r\nContent-Disposition: form-data; name="password"; filename="a.txt"\r\n\r\nabc\r\n--XX--')).body.message).toBe('body: file uploads are not accepted here');
    expect((await send(`${'--XX\r\nContent-Disposition: form-data; name="p"\r\n\r\nv\r\n'.repeat(101)}--XX--`)).body.code).toBe(413);
    expect((await send('--XX\r\nContent-Disposition: form-data; name="__proto__"\r\n\r\nv\r\n--XX--')).body).toEqual({ code: 400, message: 'body: form field name not allowed' });
  });
});

describe('POST /users/:id/reset-totp', () => {
  it('turns TOTP off for each listed user', async () => {
    const { h, api } = await identityHarness();
    const a = await h.createUser({ username: 'a' });
    const b = await h.createUser({ username: 'b' });
    await h.db.updateTable('users').set({ totpSecret: h.box.encrypt('JBSWY3DPEHPK3PXP') }).where('id', 'in', [a, b]).execute();
    const page = await api.ok<Paged<UserOut>>('GET', '/users/paging?username=a&pageSize=100');
    expect(page.items.find((u) => u.id === a)?.totpSecret).toBe('1');
    expect(await api.ok('POST', `/users/${a},${b}/reset-totp`)).toBe('');
    expect((await h.db.selectFrom('users').select('totpSecret').where('id', 'in', [a, b]).execute()).map((u) => u.totpSecret)).toEqual(['-', '-']);
    expect((await api.call('POST', '/users/ghost/reset-totp')).body.code).toBe(-1);
  });
});

describe('GET /users/paging', () => {
  async function seedUsers(h: Awaited<ReturnType<typeof identityHarness>>['h'], n: number) {
    const hash = (await h.db.selectFrom('users').select('password').where('id', '=', SUPER_ADMIN_ID).executeTakeFirstOrThrow()).password;
    const rows = Array.from({ length: n }, (_, i) => ({
      id: `u-${String(i).padStart(3, '0')}`,
      username: `user${String(i).padStart(3, '0')}`,
      usernameKey: `user${String(i).padStart(3, '0')}`,
      password: hash,
      nickname: `Nick ${n - i}`,
      totpSecret: '-',
      online: i % 3 === 0 ? 1 : 0,
      status: 'enabled' as const,
      type: 'user' as const,
      mail: i % 2 ? `u${i}@odd.example` : `u${i}@even.example`,
      source: '',
      created: h.clock.now() + (i + 1) * 1000,
    }));
    await h.db.insertInto('users').values(rows).execute();
    return rows;
  }

  it('pages for real, with total, sort direction and the default sort', async () => {
    const { h, api } = await identityHarness();
    await seedUsers(h, 25);
    const page = (q: string) => api.ok<Paged<UserOut & { sharerAssetCount: number }>>('GET', `/users/paging?${q}`);
    const first = await page('pageIndex=1&pageSize=10');
    expect(first.total).toBe(26);
    expect(first.items).toHaveLength(10);
    // Default: created, newest first.
    expect(first.items[0]).toMatchObject({ username: 'user024', online: true, totpSecret: '0', sharerAssetCount: 0, type: 'user', status: 'enabled' });
    expect(Object.keys(first.items[0]!).sort()).toEqual(['created', 'id', 'mail', 'nickname', 'online', 'sharerAssetCount', 'source', 'status', 'totpSecret', 'type', 'username']);
    const third = await page('pageIndex=3&pageSize=10');
    expect(third.items.map((u) => u.username)).toEqual(['user004', 'user003', 'user002', 'user001', 'user000', 'admin']);
    expect((await page('pageIndex=4&pageSize=10')).items).toEqual([]);
    expect((await page('pageIndex=1&pageSize=3&field=username&order=ascend')).items.map((u) => u.username)).toEqual(['admin', 'user000', 'user001']);
    expect((await page('pageIndex=2&pageSize=3&field=username&order=descend')).items.map((u) => u.username)).toEqual(['user021', 'user020', 'user019']);
    expect((await page('pageSize=2&field=nickname&order=ascend')).items.map((u) => u.nickname)).toEqual(['Nick 1', 'Nick 10']);
    expect((await page('pageSize=1&field=created&order=ascend')).items[0]!.username).toBe('admin');
    // Unknown or hostile sort fields fall back to created.
    expect((await page('pageSize=1&field=password')).items[0]!.username).toBe('user024');
    expect((await page('pageSize=1&field=created;drop table users')).items[0]!.username).toBe('user024');
  });

  it('filters by username, nickname, mail (LIKE) and online (=)', async () => {
    const { h, api } = await identityHarness();
    await seedUsers(h, 25);
    const page = (q: string) => api.ok<Paged<UserOut>>('GET', `/users/paging?pageSize=100&${q}`);
    expect((await page('username=user01')).total).toBe(10);
    expect((await page('nickname=ick 2')).items.map((u) => u.nickname).sort()).toEqual(['Nick 2', 'Nick 20', 'Nick 21', 'Nick 22', 'Nick 23', 'Nick 24', 'Nick 25']);
    expect((await page('mail=odd.example')).total).toBe(12);
    expect((await page('online=true')).total).toBe(9);
    expect((await page('online=false')).total).toBe(17);
    expect((await page('online=false&mail=even&username=user0')).total).toBe(8);
    // LIKE wildcards in the text are literal.
    expect((await page('username=%25')).total).toBe(0);
    expect((await page('username=user_1')).total).toBe(0);
    for (const bad of ['online=yes', 'online=1', 'online=']) {
      const res = await api.call('GET', `/users/paging?${bad}`);
      expect(res.body.code, bad).toBe(400);
      expect(res.body.message).toBe('online: expected true or false');
    }
    expect((await api.call('GET', '/users/paging?pageSize=0')).body.code).toBe(400);
  });
});
