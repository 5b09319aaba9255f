import bcrypt from 'bcrypt';
import { generate } from 'otplib';
import { describe, expect, it } from 'vitest';
import { SUPER_ADMIN_ID } from '../../server/permissions/effective.ts';
import { ADMIN_PASSWORD, type Harness, startHarness } from './harness.ts';

const body = (username: string, password: string, extra: Record<string, unknown> = {}) => ({ username, password, remember: false, totp: '', ...extra });
const totpAt = (h: Harness, secret: string) => generate({ secret, epoch: Math.floor(h.clock.now() / 1000) });

describe('POST /login', () => {
  it('logs the admin in with token and full AccountInfo (roles loaded), and sets online', async () => {
    const h = await startHarness();
    const res = await h.call('POST', '/login', { body: body('admin', ADMIN_PASSWORD), headers: { 'user-agent': 'vitest-ua' } });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(1);
    const data = res.body.data as { token: string; info: Record<string, unknown> };
    expect(data.token).toMatch(/^[0-9a-f]{128}$/);
    expect(data.info).toMatchObject({ id: SUPER_ADMIN_ID, username: 'admin', nickname: '超级管理员', type: 'admin', enableTotp: false, roles: ['system-administrator'] });
    expect(data.info.menus).toEqual(h.catalogue.keys); // the super admin holds every declared key
    expect(Object.keys(data.info).sort()).toEqual(['enableTotp', 'id', 'menus', 'nickname', 'roles', 'type', 'username']);

    const user = await h.db.selectFrom('users').select('online').where('id', '=', SUPER_ADMIN_ID).executeTakeFirstOrThrow();
    expect(user.online).toBe(1);
    const logs = await h.db.selectFrom('loginLogs').selectAll().execute();
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ username: 'admin', clientIp: '127.0.0.1', clientUserAgent: 'vitest-ua', state: '1', reason: '', logoutTime: null });
    // The log id is not the token (1.3.9 leaked live tokens through the login-log list).
    expect(logs[0]!.id).not.toBe(data.token);
    expect(logs[0]!.id).toMatch(/^[0-9a-f-]{36}$/);
    // Only a hash of the token is stored.
    const stored = await h.db.selectFrom('tokens').select('id').execute();
    expect(stored.map((t) => t.id)).not.toContain(data.token);
  });

  it('answers a wrong password with -1 and the failure count, and writes a failed log with IP and UA', async () => {
    const h = await startHarness();
    for (let i = 1; i <= 3; i++) {
      const res = await h.call('POST', '/login', { body: body('admin', 'nope'), headers: { 'user-agent': 'UA/1' } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ code: -1, message: '您输入的账号或密码不正确', data: i });
    }
    const unknown = await h.call('POST', '/login', { body: body('ghost', 'nope') });
    expect(unknown.body).toEqual({ code: -1, message: '您输入的账号或密码不正确', data: 1 });
    const logs = await h.db.selectFrom('loginLogs').selectAll().where('state', '=', '0').execute();
    expect(logs).toHaveLength(4);
    expect(logs[0]).toMatchObject({ username: 'admin', clientIp: '127.0.0.1', clientUserAgent: 'UA/1', reason: '账号或密码不正确' });
  });

  it('locks out after exactly 5 failures per IP + username, for 5 minutes after the last one', async () => {
    const h = await startHarness();
    for (let i = 1; i <= 5; i++) expect((await h.call('POST', '/login', { body: body('admin', 'bad') })).body.data).toBe(i);
    const locked = await h.call('POST', '/login', { body: body('admin', ADMIN_PASSWORD) });
    expect(locked.body).toEqual({ code: -1, message: '登录失败次数过多，请等待5分钟后再试' });

    // Spoofed X-Forwarded-For does not escape the lock (quirk 6: not trusted by default).
    const spoofed = await h.call('POST', '/login', { body: body('admin', ADMIN_PASSWORD), headers: { 'x-forwarded-for': '10.9.8.7' } });
    expect(spoofed.body.code).toBe(-1);
    // Another username from the same IP is not locked.
    await h.createUser({ username: 'bob', password: 'bob-pass' });
    expect((await h.call('POST', '/login', { body: body('bob', 'bob-pass') })).body.code).toBe(1);

    h.clock.advance(5 * 60 * 1000 - 1000);
    expect((await h.call('POST', '/login', { body: body('admin', ADMIN_PASSWORD) })).body.code).toBe(-1);
    h.clock.advance(1000);
    expect((await h.call('POST', '/login', { body: body('admin', ADMIN_PASSWORD) })).body.code).toBe(1);
  });

  it('trusts X-Forwarded-For only with JUMPGATE_TRUST_PROXY', async () => {
    const h = await startHarness({ env: { JUMPGATE_TRUST_PROXY: '1' } });
    await h.call('POST', '/login', { body: body('admin', 'bad'), headers: { 'x-forwarded-for': '10.0.0.9' } });
    const log = await h.db.selectFrom('loginLogs').select('clientIp').executeTakeFirstOrThrow();
    expect(log.clientIp).toBe('10.0.0.9');
  });

  it("refuses a password longer than bcrypt's 72 bytes (UTF-8) without hashing or counting it", async () => {
    const h = await startHarness();
    const res = await h.call('POST', '/login', { body: body('admin', 'x'.repeat(73)) });
    expect(res.body).toEqual({ code: -1, message: '您输入的密码过长' });
    // 25 CJK characters are 75 bytes: refused too (bcrypt would have compared only the first 24).
    expect((await h.call('POST', '/login', { body: body('admin', '密'.repeat(25)) })).body.message).toBe('您输入的密码过长');
    expect((await h.call('POST', '/login', { body: body('admin', 'x'.repeat(72)) })).body).toEqual({ code: -1, message: '您输入的账号或密码不正确', data: 1 });
  });

  it('reveals "disabled" only to someone who knows the password (quirk 18)', async () => {
    const h = await startHarness();
    await h.createUser({ username: 'carol', password: 'carol-pass', status: 'disabled' });
    expect((await h.call('POST', '/login', { body: body('carol', 'wrong') })).body).toEqual({ code: -1, message: '您输入的账号或密码不正确', data: 1 });
    expect((await h.call('POST', '/login', { body: body('carol', 'carol-pass') })).body).toEqual({ code: -1, message: '该账户已停用' });
    const logs = await h.db.selectFrom('loginLogs').select(['state', 'reason']).orderBy('loginTime').execute();
    expect(logs.every((l) => l.state === '0')).toBe(true);
  });

  it('asks for a TOTP code (code 100), then checks it', async () => {
    const h = await startHarness();
    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    await h.db.updateTable('users').set({ totpSecret: h.box.encrypt(secret) }).where('username', '=', 'admin').execute();

    const step1 = await h.call('POST', '/login', { body: body('admin', ADMIN_PASSWORD) });
    expect(step1.body).toEqual({ code: 100, message: '' });
    expect(await h.db.selectFrom('tokens').select('id').execute()).toHaveLength(0);

    const wrong = await h.call('POST', '/login', { body: body('admin', ADMIN_PASSWORD, { totp: '000000' === (await totpAt(h, secret)) ? '111111' : '000000' }) });
    expect(wrong.body).toEqual({ code: -1, message: '您输入双因素认证授权码不正确', data: 1 });
    const junk = await h.call('POST', '/login', { body: body('admin', ADMIN_PASSWORD, { totp: 'abc' }) });
    expect(junk.body).toMatchObject({ code: -1, message: '您输入双因素认证授权码不正确' });

    const good = await h.call('POST', '/login', { body: body('admin', ADMIN_PASSWORD, { totp: await totpAt(h, secret) }) });
    expect(good.body.code).toBe(1);
    expect((good.body.data as { info: { enableTotp: boolean } }).info.enableTotp).toBe(true);
    const reasons = (await h.db.selectFrom('loginLogs').select('reason').where('state', '=', '0').execute()).map((r) => r.reason);
    expect(reasons).toEqual(['双因素认证授权码不正确', '双因素认证授权码不正确']);
  });

  it('verifies a 1.3.9 $2a$ bcrypt hash (cost 10)', async () => {
    const h = await startHarness();
    // bcrypt writes $2b$; $2a$ is the same algorithm for these inputs and is what Go's bcrypt (1.3.9) writes.
    const legacy = bcrypt.hashSync('legacy-pass', 10).replace(/^\$2b\$/, '$2a$');
    expect(legacy.startsWith('$2a$10$')).toBe(true);
    const id = await h.createUser({ username: 'old', type: 'user' });
    await h.db.updateTable('users').set({ password: legacy }).where('id', '=', id).execute();
    expect(typeof (await h.login('old', 'legacy-pass'))).toBe('string');
  });

  it('hashes new passwords with bcrypt cost 10', async () => {
    const h = await startHarness();
    const row = await h.db.selectFrom('users').select('password').where('username', '=', 'admin').executeTakeFirstOrThrow();
    expect(row.password).toMatch(/^\$2[ab]\$10\$/);
  });
});
