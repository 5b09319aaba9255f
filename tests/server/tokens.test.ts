import { describe, expect, it } from 'vitest';
import { MSG_UNAUTHORIZED } from '../../server/http/envelope.ts';
import { SUPER_ADMIN_ID } from '../../server/modules/menus/effective.ts';
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
  it('creates, reads, authenticates with, replaces and deletes the token', async () => {
    const h = await startHarness();
    const token = await h.login('admin', ADMIN_PASSWORD);
    const zero = await h.call('GET', '/account/access-token', { token });
    expect(zero.body).toEqual({ code: 1, message: 'success', data: { id: '', userId: '', token: '', created: '0001-01-01 00:00:00' } });

    expect((await h.call('POST', '/account/access-token', { token })).body).toEqual({ code: 1, message: 'success', data: null });
    const got = (await h.call('GET', '/account/access-token', { token })).body.data as { id: string; userId: string; token: string; created: string };
    expect(got.userId).toBe(SUPER_ADMIN_ID);
    expect(got.token).toMatch(/^forever-[0-9a-f-]{36}$/);
    expect(got.created).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);

    // Never expires, survives restarts, and logout with it ends nothing.
    h.clock.advance(400 * 24 * 60 * 60 * 1000);
    await h.restart();
    expect((await info(h, got.token)).body.code).toBe(1);
    await h.call('POST', '/account/logout', { token: got.token });
    expect((await info(h, got.token)).body.code).toBe(1);

    // One per user: creating again replaces it.
    await h.call('POST', '/account/access-token', { token: got.token });
    expect((await info(h, got.token)).body).toEqual(UNAUTH);
    const next = ((await h.call('GET', '/account/access-token', { query: { 'X-Auth-Token': (await h.login('admin', ADMIN_PASSWORD)) } })).body.data as { token: string }).token;
    expect(next).not.toBe(got.token);
    expect((await h.call('DELETE', '/account/access-token', { token: next })).body).toEqual({ code: 1, message: 'success', data: null });
    expect((await info(h, next)).body).toEqual(UNAUTH);
  });
});
