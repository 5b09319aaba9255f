import { describe, expect, it } from 'vitest';
import { MSG_LOGIN_ONLY, MSG_UNAUTHORIZED } from '../../server/http/envelope.ts';
import { sha256 } from '../../server/lib/ids.ts';
import { SUPER_ADMIN_ID } from '../../server/permissions/effective.ts';
import { ADMIN_PASSWORD, type Harness, startHarness } from './harness.ts';

const MIN = 60 * 1000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const info = (h: Harness, token: string) => h.call('GET', '/account/info', { token });
const UNAUTH = { code: 401, message: MSG_UNAUTHORIZED };

describe('login tokens', () => {
  it('refuses a missing, unknown or malformed token with body 401 (HTTP 200)', async () => {
    const h = await startHarness();
    for (const token of [undefined, 'nope', 'f'.repeat(128), `forever-${'x'.repeat(36)}`, 'x'.repeat(5000)]) {
      const res = await info(h, token as string);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(UNAUTH);
    }
  });

  it('accepts the token as header or as the X-Auth-Token query parameter', async () => {
    const h = await startHarness();
    const token = await h.login('admin', ADMIN_PASSWORD);
    expect((await h.call('GET', '/account/info', { query: { 'X-Auth-Token': token } })).body.code).toBe(1);
  });

  it('expires after 2 h of inactivity and slides with use', async () => {
    const h = await startHarness();
    const token = await h.login('admin', ADMIN_PASSWORD);
    h.clock.advance(HOUR + 30 * MIN);
    expect((await info(h, token)).body.code).toBe(1); // slides: now valid until +3h30
    h.clock.advance(HOUR + 30 * MIN);
    expect((await info(h, token)).body.code).toBe(1);
    h.clock.advance(2 * HOUR);
    expect((await info(h, token)).body).toEqual(UNAUTH);

    // Expiry ends the session: logout time stamped, user offline, token row gone.
    const log = await h.db.selectFrom('loginLogs').select('logoutTime').executeTakeFirstOrThrow();
    expect(log.logoutTime).toBe(h.clock.now());
    const user = await h.db.selectFrom('users').select('online').where('id', '=', SUPER_ADMIN_ID).executeTakeFirstOrThrow();
    expect(user.online).toBe(0);
    expect(await h.db.selectFrom('tokens').select('id').execute()).toHaveLength(0);
  });

  it('does not write on every request: slides only when more than a minute passed', async () => {
    const h = await startHarness();
    const token = await h.login('admin', ADMIN_PASSWORD);
    const before = await h.db.selectFrom('tokens').select(['expiresAt', 'refreshedAt']).executeTakeFirstOrThrow();
    h.clock.advance(30 * 1000);
    await info(h, token);
    expect(await h.db.selectFrom('tokens').select(['expiresAt', 'refreshedAt']).executeTakeFirstOrThrow()).toEqual(before);
    h.clock.advance(31 * 1000);
    await info(h, token);
    const after = await h.db.selectFrom('tokens').select(['expiresAt', 'refreshedAt']).executeTakeFirstOrThrow();
    expect(after.expiresAt).toBe(h.clock.now() + 2 * HOUR);
  });

  it('lives 14 days with remember', async () => {
    const h = await startHarness();
    const token = await h.login('admin', ADMIN_PASSWORD, { remember: true });
    h.clock.advance(13 * DAY);
    expect((await info(h, token)).body.code).toBe(1);
    h.clock.advance(13 * DAY);
    expect((await info(h, token)).body.code).toBe(1);
    h.clock.advance(14 * DAY + 1);
    expect((await info(h, token)).body).toEqual(UNAUTH);
  });

  it('survives a restart', async () => {
    const h = await startHarness();
    const token = await h.login('admin', ADMIN_PASSWORD);
    await h.restart();
    expect((await info(h, token)).body.code).toBe(1);
  });

  it('logout ends the token and stamps the login log; online stays while another token lives', async () => {
    const h = await startHarness();
    const t1 = await h.login('admin', ADMIN_PASSWORD);
    const t2 = await h.login('admin', ADMIN_PASSWORD);
    expect((await h.call('POST', '/account/logout', { token: t1 })).body).toEqual({ code: 1, message: 'success', data: null });
    expect((await info(h, t1)).body).toEqual(UNAUTH);
    expect((await info(h, t2)).body.code).toBe(1);
    const online = async () => (await h.db.selectFrom('users').select('online').where('id', '=', SUPER_ADMIN_ID).executeTakeFirstOrThrow()).online;
    expect(await online()).toBe(1);
    await h.call('POST', '/account/logout', { token: t2 });
    expect(await online()).toBe(0);
    const logs = await h.db.selectFrom('loginLogs').select('logoutTime').execute();
    expect(logs.every((l) => l.logoutTime === h.clock.now())).toBe(true);
  });

  it('a disabled user loses access on the next request', async () => {
    const h = await startHarness();
    await h.createUser({ username: 'dave', password: 'dave-pass' });
    const token = await h.login('dave', 'dave-pass');
    await h.db.updateTable('users').set({ status: 'disabled' }).where('username', '=', 'dave').execute();
    expect((await info(h, token)).body).toEqual(UNAUTH);
  });
});

describe('personal access tokens', () => {
  type Pat = { id: string; userId: string; token: string; created: string };
  const pat = async (h: Harness, login: string) => (await h.call('GET', '/account/access-token', { token: login })).body.data as Pat;

  it('creates, shows once, authenticates with, replaces and deletes the token', async () => {
    const h = await startHarness();
    const token = await h.login('admin', ADMIN_PASSWORD);
    const zero = await h.call('GET', '/account/access-token', { token });
    expect(zero.body).toEqual({ code: 1, message: 'success', data: { id: '', userId: '', token: '', created: '0001-01-01 00:00:00' } });

    expect((await h.call('POST', '/account/access-token', { token })).body).toEqual({ code: 1, message: 'success', data: null });
    const got = await pat(h, token);
    expect(got.userId).toBe(SUPER_ADMIN_ID);
    expect(got.token).toMatch(/^forever-[0-9a-f-]{36}$/);
    expect(got.created).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    // Shown once: the next read gives the hint only, and the database holds the hash, not the token.
    expect(await pat(h, token)).toEqual({ ...got, token: `forever-…${got.token.slice(-4)}` });
    expect(await h.db.selectFrom('accessToken').selectAll().execute()).toEqual([
      { id: got.id, userId: SUPER_ADMIN_ID, tokenHash: sha256(got.token), hint: `forever-…${got.token.slice(-4)}`, shown: null, created: h.clock.now() },
    ]);

    // Never expires, survives restarts, and logout with it ends nothing.
    h.clock.advance(400 * 24 * 60 * 60 * 1000);
    await h.restart();
    expect((await info(h, got.token)).body.code).toBe(1);
    await h.call('POST', '/account/logout', { token: got.token });
    expect((await info(h, got.token)).body.code).toBe(1);

    // One per user: creating again replaces it.
    const login = await h.login('admin', ADMIN_PASSWORD);
    await h.call('POST', '/account/access-token', { token: login });
    expect((await info(h, got.token)).body).toEqual(UNAUTH);
    const next = (await h.call('GET', '/account/access-token', { query: { 'X-Auth-Token': login } })).body.data as Pat;
    expect(next.token).toMatch(/^forever-/);
    expect(next.token).not.toBe(got.token);
    expect((await info(h, next.token)).body.code).toBe(1);
    expect((await h.call('DELETE', '/account/access-token', { token: login })).body).toEqual({ code: 1, message: 'success', data: null });
    expect((await info(h, next.token)).body).toEqual(UNAUTH);
  });

  it('shows the token only within five minutes of its creation; the sealed copy is then dropped', async () => {
    const h = await startHarness();
    const login = await h.login('admin', ADMIN_PASSWORD, { remember: true });
    await h.call('POST', '/account/access-token', { token: login });
    const row = await h.db.selectFrom('accessToken').select(['shown', 'hint']).executeTakeFirstOrThrow();
    expect(row.shown).toMatch(/^v1:[0-9a-f]{8}:/);
    const plain = h.box.decrypt(row.shown!);
    h.clock.advance(5 * 60 * 1000);
    expect((await pat(h, login)).token).toBe(row.hint);
    expect(await h.db.selectFrom('accessToken').select('shown').executeTakeFirstOrThrow()).toEqual({ shown: null });
    expect((await info(h, plain)).body.code).toBe(1); // never shown, still valid
  });

  it('two parallel reads show the token to one of them only', async () => {
    const h = await startHarness();
    const login = await h.login('admin', ADMIN_PASSWORD);
    await h.call('POST', '/account/access-token', { token: login });
    const reads = await Promise.all([pat(h, login), pat(h, login), pat(h, login)]);
    expect(reads.filter((r) => !r.token.includes('…'))).toHaveLength(1);
  });

  it('cannot reach the password, TOTP or access-token routes (403 envelope)', async () => {
    const h = await startHarness();
    const pt = await h.accessToken(SUPER_ADMIN_ID);
    const LOGIN_ONLY = { code: 403, message: MSG_LOGIN_ONLY };
    expect((await h.call('POST', '/account/change-password', { token: pt, body: { oldPassword: ADMIN_PASSWORD, newPassword: 'taken-over-1' } })).body).toEqual(LOGIN_ONLY);
    expect((await h.call('GET', '/account/reload-totp', { token: pt })).body).toEqual(LOGIN_ONLY);
    expect((await h.call('POST', '/account/confirm-totp', { token: pt, body: { secret: 'JBSWY3DPEHPK3PXP', totp: '123456' } })).body).toEqual(LOGIN_ONLY);
    expect((await h.call('POST', '/account/reset-totp', { token: pt })).body).toEqual(LOGIN_ONLY);
    for (const method of ['GET', 'POST', 'DELETE']) expect((await h.call(method, '/account/access-token', { token: pt })).body, method).toEqual(LOGIN_ONLY);
    // Nothing changed: the same password logs in, the token still works.
    await h.login('admin', ADMIN_PASSWORD);
    expect((await info(h, pt)).body.code).toBe(1);
    // Declared on exactly these routes.
    expect(
      h.app.routeRegistry
        .filter((r) => r.loginOnly)
        .map((r) => `${r.method} ${r.path}`)
        .sort(),
    ).toEqual([
      'DELETE /account/access-token',
      'GET /account/access-token',
      'GET /account/reload-totp',
      'POST /account/access-token',
      'POST /account/change-password',
      'POST /account/confirm-totp',
      'POST /account/reset-totp',
    ]);
  });

  it('is revoked by a password change (own or by an admin), a disable and a delete', async () => {
    const h = await startHarness();
    const root = await h.login('admin', ADMIN_PASSWORD);
    const ids: Record<string, string> = {};
    for (const name of ['own', 'byadmin', 'disabled', 'deleted']) ids[name] = await h.createUser({ username: name, password: 'Passw0rd!' });
    const pats: Record<string, string> = {};
    for (const name of Object.keys(ids)) pats[name] = await h.accessToken(ids[name]!);
    for (const t of Object.values(pats)) expect((await info(h, t)).body.code).toBe(1);

    const own = await h.login('own', 'Passw0rd!');
    expect((await h.call('POST', '/account/change-password', { token: own, body: { oldPassword: 'Passw0rd!', newPassword: 'Passw0rd!2' } })).body.code).toBe(1);
    expect((await h.call('POST', `/users/${ids.byadmin}/change-password`, { token: root, body: { password: 'Passw0rd!2' } })).body.code).toBe(1);
    expect((await h.call('PATCH', `/users/${ids.disabled}/status`, { token: root, query: { status: 'disabled' } })).body.code).toBe(1);
    expect((await h.call('PATCH', `/users/${ids.disabled}/status`, { token: root, query: { status: 'enabled' } })).body.code).toBe(1);
    expect((await h.call('DELETE', `/users/${ids.deleted}`, { token: root })).body.code).toBe(1);

    for (const [name, t] of Object.entries(pats)) expect((await info(h, t)).body, name).toEqual(UNAUTH);
    expect(await h.db.selectFrom('accessToken').select('userId').execute()).toEqual([]);
  });
});
