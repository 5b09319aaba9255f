import bcrypt from 'bcrypt';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LIMITS, LOCK_MS, LOCKED_MESSAGE } from '../../server/modules/auth/lockout.ts';
import { ADMIN_PASSWORD, type Harness, startHarness } from './harness.ts';

const body = (username: string, password: string) => ({ username, password, remember: false, totp: '' });
const login = (h: Harness, username: string, password: string, ip = '127.0.0.1') =>
  h.call('POST', '/login', { body: body(username, password), headers: { 'x-forwarded-for': ip } });
const WRONG = { code: -1, message: '您输入的账号或密码不正确' };

/** Counts real bcrypt comparisons (the native binding's `compare`, which lib/password.ts calls). */
function countCompares() {
  const spy = vi.spyOn(bcrypt, 'compare');
  return { get count() {
    return spy.mock.calls.length;
  } };
}

/** For tests that need hundreds of refused guesses: every comparison answers "wrong" at once. */
const fastWrongPasswords = () => vi.spyOn(bcrypt, 'compare').mockImplementation(async () => false);

afterEach(() => {
  vi.restoreAllMocks();
});

describe('login lock-out', () => {
  it('holds under 50 parallel wrong guesses: at most 5 compared, then locked, the right password refused until the window ends', async () => {
    const h = await startHarness();
    const compares = countCompares();
    const answers = await Promise.all(Array.from({ length: 50 }, () => h.call('POST', '/login', { body: body('admin', 'wrong-guess') })));
    expect(compares.count).toBeLessThanOrEqual(LIMITS.pair);
    const wrong = answers.filter((a) => a.body.message === WRONG.message);
    const locked = answers.filter((a) => a.body.message === LOCKED_MESSAGE);
    expect(wrong.length).toBe(compares.count);
    expect(wrong.length + locked.length).toBe(50);
    expect(locked.length).toBeGreaterThanOrEqual(45);

    expect((await h.call('POST', '/login', { body: body('admin', ADMIN_PASSWORD) })).body).toEqual({ code: -1, message: LOCKED_MESSAGE });
    expect(compares.count).toBeLessThanOrEqual(LIMITS.pair); // the refusal compared nothing
    h.clock.advance(LOCK_MS - 1);
    expect((await h.call('POST', '/login', { body: body('admin', ADMIN_PASSWORD) })).body.message).toBe(LOCKED_MESSAGE);
    h.clock.advance(1);
    expect((await h.call('POST', '/login', { body: body('admin', ADMIN_PASSWORD) })).body.code).toBe(1);
  });

  it('survives a restart (the state is in the database)', async () => {
    const h = await startHarness();
    for (let i = 0; i < LIMITS.pair; i++) await h.call('POST', '/login', { body: body('admin', 'wrong') });
    await h.restart();
    expect((await h.call('POST', '/login', { body: body('admin', ADMIN_PASSWORD) })).body).toEqual({ code: -1, message: LOCKED_MESSAGE });
  });

  it('counts per username from any address, and per address over any usernames', async () => {
    const h = await startHarness({ env: { JUMPGATE_TRUST_PROXY: '1' } });
    // 10 addresses, one guess each: the username locks (a spread-out guesser gets 10 tries per window).
    for (let i = 0; i < LIMITS.user; i++) expect((await login(h, 'admin', 'wrong', `10.0.0.${i}`)).body).toMatchObject(WRONG);
    expect((await login(h, 'admin', ADMIN_PASSWORD, '10.0.1.1')).body.message).toBe(LOCKED_MESSAGE);
    // Case and composition do not make another username.
    expect((await login(h, 'ADMIN', ADMIN_PASSWORD, '10.0.1.2')).body.message).toBe(LOCKED_MESSAGE);

    // One address spraying usernames locks the address, for every username, even an existing one.
    await h.createUser({ username: 'zoe', password: 'zoe-password' });
    const spy = fastWrongPasswords();
    for (let i = 0; i < LIMITS.addr; i++) await login(h, `junk-${i}`, 'wrong', '10.9.9.9');
    spy.mockRestore();
    expect((await login(h, 'zoe', 'zoe-password', '10.9.9.9')).body.message).toBe(LOCKED_MESSAGE);
    expect((await login(h, 'zoe', 'zoe-password', '10.9.9.8')).body.code).toBe(1);
  });

  it('cannot be pushed out by junk usernames: rows are bounded by the address limit and expire, a lock stays', async () => {
    const h = await startHarness({ env: { JUMPGATE_TRUST_PROXY: '1' } });
    for (let i = 0; i < LIMITS.pair; i++) await login(h, 'admin', 'wrong', '10.1.1.1');
    const spy = fastWrongPasswords();
    // 8 addresses × 60 junk usernames: each address is locked after 50, so it cannot grow the table further.
    for (let a = 0; a < 8; a++) {
      await Promise.all(Array.from({ length: 60 }, (_, i) => login(h, `junk-${a}-${i}`, 'x', `10.2.0.${a}`)));
    }
    const rows = Number((await h.db.selectFrom('loginAttempts').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    expect(rows).toBeLessThanOrEqual(3 + 8 * (1 + 2 * LIMITS.addr));
    spy.mockRestore();
    expect((await login(h, 'admin', ADMIN_PASSWORD, '10.1.1.1')).body.message).toBe(LOCKED_MESSAGE);
    // Expired rows are deleted by the next attempt.
    h.clock.advance(LOCK_MS);
    expect((await login(h, 'admin', ADMIN_PASSWORD, '10.1.1.1')).body.code).toBe(1);
    expect(await h.db.selectFrom('loginAttempts').select('scope').execute()).toEqual([{ scope: 'addr:10.1.1.1' }]);
  });

  it('a success resets the username counters; a TOTP prompt (code 100) does not', async () => {
    const h = await startHarness();
    for (let i = 1; i <= 4; i++) expect((await h.call('POST', '/login', { body: body('admin', 'wrong') })).body.data).toBe(i);
    await h.login('admin', ADMIN_PASSWORD);
    expect((await h.call('POST', '/login', { body: body('admin', 'wrong') })).body.data).toBe(1);

    await h.db.updateTable('users').set({ totpSecret: h.box.encrypt('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP') }).where('username', '=', 'admin').execute();
    for (let i = 2; i <= 4; i++) {
      expect((await h.call('POST', '/login', { body: { ...body('admin', ADMIN_PASSWORD), totp: '000000' } })).body.data).toBeGreaterThanOrEqual(i);
      expect((await h.call('POST', '/login', { body: body('admin', ADMIN_PASSWORD) })).body.code).toBe(100);
    }
    await h.call('POST', '/login', { body: { ...body('admin', ADMIN_PASSWORD), totp: '000000' } });
    expect((await h.call('POST', '/login', { body: body('admin', ADMIN_PASSWORD) })).body.message).toBe(LOCKED_MESSAGE);
  });

  it('wrong old passwords on /account/change-password count toward the same lock-out', async () => {
    const h = await startHarness();
    const token = await h.login('admin', ADMIN_PASSWORD);
    const change = (oldPassword: string) => h.call('POST', '/account/change-password', { token, body: { oldPassword, newPassword: 'new-password-1' } });
    const compares = countCompares();
    const answers = await Promise.all(Array.from({ length: 20 }, () => change('guess')));
    expect(compares.count).toBeLessThanOrEqual(LIMITS.pair);
    expect(answers.filter((a) => a.body.message === LOCKED_MESSAGE).length).toBeGreaterThanOrEqual(15);
    expect((await change(ADMIN_PASSWORD)).body).toEqual({ code: -1, message: LOCKED_MESSAGE });
    expect((await h.call('POST', '/login', { body: body('admin', ADMIN_PASSWORD) })).body.message).toBe(LOCKED_MESSAGE);
  });
});
