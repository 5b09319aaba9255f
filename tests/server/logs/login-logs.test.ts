import { describe, expect, it } from 'vitest';
import { SUPER_ADMIN_ID } from '../../../server/permissions/effective.ts';
import { ADMIN_PASSWORD, type Harness, startHarness } from '../harness.ts';
import { adminWith, type Paged } from '../identity/helpers.ts';
import { insertLoginLog, local } from '../overview/rows.ts';

interface LoginLogItem {
  id: string;
  username: string;
  clientIp: string;
  clientUserAgent: string;
  loginTime: string;
  logoutTime: string;
  remember: boolean;
  state: '1' | '0';
  reason: string;
}

const page = async (h: Harness, token: string, query: Record<string, string> = {}) => {
  const res = await h.call('GET', '/login-logs/paging', { token, query: { pageIndex: '1', pageSize: '10', ...query } });
  expect(res.body.code, res.text).toBe(1);
  return res.body.data as Paged<LoginLogItem>;
};

describe('GET /login-logs/paging', () => {
  it('filters by username and address (contains, literal % and _), result and time range; newest first, real paging', async () => {
    const h = await startHarness();
    const { token } = await adminWith(h, ['login-log'], 'auditor');
    for (let i = 0; i < 25; i++) {
      await insertLoginLog(h.db, {
        username: i % 2 ? 'ann' : 'bob_x',
        clientIp: `10.0.0.${i}`,
        loginTime: local(2026, 3, 1, 10, i),
        state: i % 5 === 0 ? '0' : '1',
        reason: i % 5 === 0 ? '账号或密码不正确' : '',
      });
    }
    const all = await page(h, token);
    expect(all.total).toBe(25);
    expect(all.items.map((r) => r.loginTime)).toEqual(Array.from({ length: 10 }, (_, k) => `2026-03-01 10:${String(24 - k).padStart(2, '0')}:00`));
    const third = await page(h, token, { pageIndex: '3' });
    expect(third.items.map((r) => r.clientIp)).toEqual(['10.0.0.4', '10.0.0.3', '10.0.0.2', '10.0.0.1', '10.0.0.0']);
    expect((await page(h, token, { order: 'ascend' })).items[0]!.clientIp).toBe('10.0.0.0');

    expect((await page(h, token, { username: 'ann' })).total).toBe(12);
    expect((await page(h, token, { username: 'b_x' })).total).toBe(13);
    expect((await page(h, token, { username: 'b%x' })).total).toBe(0); // % is a character, not a wildcard
    expect((await page(h, token, { clientIp: '10.0.0.2' })).total).toBe(6); // .2 and .20–.24
    expect((await page(h, token, { state: '0' })).items.map((r) => r.clientIp)).toEqual(['10.0.0.20', '10.0.0.15', '10.0.0.10', '10.0.0.5', '10.0.0.0']);
    expect((await page(h, token, { state: '1' })).total).toBe(20);
    expect((await page(h, token, { state: '' })).total).toBe(25);
    // Time range, as wire dates (the `to` second included) or epoch milliseconds.
    expect((await page(h, token, { from: '2026-03-01 10:20:00' })).total).toBe(5);
    expect((await page(h, token, { to: '2026-03-01 10:02:00' })).total).toBe(3);
    expect((await page(h, token, { from: '2026-03-01 10:05:00', to: '2026-03-01 10:09:00', state: '1' })).total).toBe(4);
    expect((await page(h, token, { from: String(local(2026, 3, 1, 10, 20)), to: String(local(2026, 3, 1, 10, 21)) })).total).toBe(2);
    expect((await page(h, token, { from: '', to: '' })).total).toBe(25);

    for (const [key, value] of [['from', '2026-02-30 00:00:00'], ['to', 'yesterday'], ['state', '2'], ['pageSize', '0']]) {
      const res = await h.call('GET', '/login-logs/paging', { token, query: { [key!]: value! } });
      expect(res.body.code, `${key}=${value}`).toBe(400);
      expect(res.body.message).toMatch(new RegExp(`^${key}: `));
    }
  });

  it('shows §3.10 items: the row id (never the token), remember as a boolean, failures with their reason', async () => {
    const h = await startHarness();
    const { token } = await adminWith(h, ['login-log'], 'auditor');
    await h.createUser({ username: 'ann', password: 'ann-password' });
    const annToken = await h.login('ann', 'ann-password', { remember: true });
    h.clock.advance(1000); // one second apart: the newest-first order does not fall to the ids
    expect((await h.call('POST', '/login', { body: { username: 'ann', password: 'wrong-password' } })).body.code).toBe(-1);
    h.clock.advance(1000);
    expect((await h.call('POST', '/login', { body: { username: 'ghost', password: 'wrong-password' } })).body.code).toBe(-1);

    const { items } = await page(h, token, { username: '' });
    const ok = items.find((r) => r.state === '1')!;
    expect(ok).toEqual({
      id: expect.any(String),
      username: 'ann',
      clientIp: '127.0.0.1',
      clientUserAgent: 'lightMyRequest',
      loginTime: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      logoutTime: '0001-01-01 00:00:00',
      remember: true,
      state: '1',
      reason: '',
    });
    expect(ok.id).not.toBe(annToken);
    expect(JSON.stringify(items)).not.toContain(annToken);
    expect(items.filter((r) => r.state === '0').map((r) => [r.username, r.reason])).toEqual([
      ['ghost', '账号或密码不正确'],
      ['ann', '账号或密码不正确'],
    ]);
  });
});

describe('DELETE /login-logs/:id and POST /login-logs/clear', () => {
  const rowOf = async (h: Harness, username: string) => (await h.db.selectFrom('loginLogs').select('id').where('username', '=', username).where('state', '=', '1').executeTakeFirstOrThrow()).id;
  const alive = async (h: Harness, token: string) => (await h.call('GET', '/account/info', { token })).body.code === 1;

  it("deleting a successful login's row ends that login (401 afterwards); other logins go on", async () => {
    const h = await startHarness();
    const { token } = await adminWith(h, ['login-log', 'login-log-del'], 'auditor');
    const ann = await h.createUser({ username: 'ann', password: 'ann-password' });
    await h.createUser({ username: 'bob', password: 'bob-password' });
    const annToken = await h.login('ann', 'ann-password');
    const bobToken = await h.login('bob', 'bob-password');
    expect(await alive(h, annToken)).toBe(true);

    const res = await h.call('DELETE', `/login-logs/${await rowOf(h, 'ann')}`, { token });
    expect(res.body).toEqual({ code: 1, message: 'success', data: null });
    expect((await h.call('GET', '/account/info', { token: annToken })).body.code).toBe(401);
    expect(await alive(h, bobToken)).toBe(true);
    expect(await h.db.selectFrom('loginLogs').select('id').where('username', '=', 'ann').execute()).toEqual([]);
    expect((await h.db.selectFrom('users').select('online').where('id', '=', ann).executeTakeFirstOrThrow()).online).toBe(0);
  });

  it('comma ids are all-or-nothing: an unknown id is named and nothing is deleted', async () => {
    const h = await startHarness();
    const { token } = await adminWith(h, ['login-log-del'], 'auditor');
    await h.createUser({ username: 'ann', password: 'ann-password' });
    const annToken = await h.login('ann', 'ann-password');
    const failed = await insertLoginLog(h.db, { loginTime: 5, state: '0', reason: '账号或密码不正确' });
    const annRow = await rowOf(h, 'ann');

    const res = await h.call('DELETE', `/login-logs/${annRow},nope,${failed}`, { token });
    expect(res.body).toEqual({ code: -1, message: '登录日志不存在：nope', data: ['nope'] });
    expect(await h.db.selectFrom('loginLogs').select('id').where('id', 'in', [annRow, failed]).execute()).toHaveLength(2);
    expect(await alive(h, annToken)).toBe(true);

    expect((await h.call('DELETE', `/login-logs/${annRow},${failed}`, { token })).body.code).toBe(1);
    expect(await h.db.selectFrom('loginLogs').select('id').where('id', 'in', [annRow, failed]).execute()).toEqual([]);
    expect(await alive(h, annToken)).toBe(false);
  });

  it('ends a login only of an account the caller may act on (the super admin\'s and a mightier admin\'s stay)', async () => {
    const h = await startHarness();
    const { token } = await adminWith(h, ['login-log', 'login-log-del'], 'auditor');
    const adminToken = await h.login('admin', ADMIN_PASSWORD);
    const adminRow = await rowOf(h, 'admin');
    expect((await h.call('DELETE', `/login-logs/${adminRow}`, { token })).body).toEqual({ code: -1, message: '不能结束账户「admin」的登录：只有超级管理员本人可以这样做' });
    expect(await alive(h, adminToken)).toBe(true);
    // Once that login has ended, its row is history any holder of the key may delete.
    await h.call('POST', '/account/logout', { token: adminToken });
    expect((await h.call('DELETE', `/login-logs/${adminRow}`, { token })).body.code).toBe(1);
  });

  it("clear deletes every row and ends every login except the caller's own current one and those it may not end", async () => {
    const h = await startHarness();
    const role = await h.createRole(['login-log', 'login-log-clear']);
    await h.createUser({ username: 'auditor', password: 'auditor-password', type: 'admin', roles: [role] });
    await h.createUser({ username: 'ann', password: 'ann-password' });
    const older = await h.login('auditor', 'auditor-password'); // the auditor's other login ends too
    const mine = await h.login('auditor', 'auditor-password');
    const annToken = await h.login('ann', 'ann-password');
    const adminToken = await h.login('admin', ADMIN_PASSWORD);
    await insertLoginLog(h.db, { loginTime: 1, state: '0', reason: '账号或密码不正确' });

    expect((await h.call('POST', '/login-logs/clear', { token: mine })).body).toEqual({ code: 1, message: 'success', data: null });
    for (const t of [older, annToken]) expect(await alive(h, t)).toBe(false);
    for (const t of [mine, adminToken]) expect(await alive(h, t)).toBe(true);
    const left = await page(h, mine);
    expect(left.items.map((i) => [i.username, i.logoutTime]).sort()).toEqual([
      ['admin', '0001-01-01 00:00:00'],
      ['auditor', '0001-01-01 00:00:00'],
    ]);
    expect(await h.db.selectFrom('tokens').select('userId').execute()).toHaveLength(2);
  });

  it('clear with a personal access token ends every login and leaves no row', async () => {
    const h = await startHarness();
    const pat = await h.accessToken(SUPER_ADMIN_ID);
    const adminToken = await h.login('admin', ADMIN_PASSWORD);
    expect((await h.call('POST', '/login-logs/clear', { token: pat })).body.code).toBe(1);
    expect(await alive(h, adminToken)).toBe(false);
    expect(await h.db.selectFrom('loginLogs').select('id').execute()).toEqual([]);
    expect(await h.db.selectFrom('tokens').select('id').execute()).toEqual([]);
    expect(await alive(h, pat)).toBe(true);
  });
});
