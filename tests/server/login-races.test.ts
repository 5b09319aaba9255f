import bcrypt from 'bcrypt';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MSG_UNAUTHORIZED } from '../../server/http/envelope.ts';
import { hashPassword } from '../../server/lib/password.ts';
import { endLoginTokens } from '../../server/permissions/tokens.ts';
import { SUPER_ADMIN_ID } from '../../server/permissions/effective.ts';
import { type Harness, startHarness } from './harness.ts';

const body = (username: string, password: string) => ({ username, password, remember: false, totp: '' });
const UNAUTHORIZED = { code: 401, message: MSG_UNAUTHORIZED };

/**
 * Runs `during` while the next password comparison is in progress (after bcrypt started, before it answers).
 * `during` must not hash: the comparison holds the hashing slot (lib/password.ts) until it answers.
 */
function duringNextCompare(during: () => Promise<unknown>) {
  const real = bcrypt.compare;
  const spy = vi.spyOn(bcrypt, 'compare') as unknown as { mockImplementationOnce(fn: (plain: string, hash: string) => Promise<boolean>): void };
  spy.mockImplementationOnce(async (plain, hash) => {
    const result = real(plain, hash);
    await during();
    return result;
  });
}

const adminToken = (h: Harness) => h.accessToken(SUPER_ADMIN_ID);

afterEach(() => {
  vi.restoreAllMocks();
});

describe('login races', () => {
  it('a password change landing while the login compares the hash leaves no working token', async () => {
    const h = await startHarness();
    const id = await h.createUser({ username: 'rita', password: 'old-password' });
    // What both change-password routes commit (hash outside: only one bcrypt runs at a time, and the login holds it).
    const hash = await hashPassword('new-password');
    duringNextCompare(() =>
      h.db.transaction().execute(async (trx) => {
        await trx.updateTable('users').set({ password: hash }).where('id', '=', id).execute();
        await endLoginTokens(trx, { userId: id }, h.clock.now());
      }),
    );
    const res = await h.call('POST', '/login', { body: body('rita', 'old-password') });
    expect(res.body).toEqual({ code: -1, message: '您输入的账号或密码不正确' });
    expect(await h.db.selectFrom('tokens').select('id').where('userId', '=', id).execute()).toEqual([]);
    expect(await h.db.selectFrom('loginLogs').select('state').where('state', '=', '1').execute()).toEqual([]);
    await h.login('rita', 'new-password');
  });

  it('real concurrent logins and password changes: every token a login got is dead after the change', async () => {
    const h = await startHarness();
    const id = await h.createUser({ username: 'sam', password: 'password-0' });
    const admin = await adminToken(h);
    for (let round = 0; round < 8; round++) {
      const [login] = await Promise.all([
        h.call('POST', '/login', { body: body('sam', `password-${round}`) }),
        h.call('POST', `/users/${id}/change-password`, { token: admin, body: { password: `password-${round + 1}` } }),
      ]);
      const token = (login.body.data as { token?: string } | undefined)?.token;
      if (token) expect((await h.call('GET', '/account/info', { token })).body, `round ${round}`).toEqual(UNAUTHORIZED);
      else expect(login.body.code).toBe(-1);
    }
  });

  it('a disable landing mid-login is a clean -1', async () => {
    const h = await startHarness();
    const id = await h.createUser({ username: 'uma', password: 'uma-password' });
    const admin = await adminToken(h);
    duringNextCompare(() => h.call('PATCH', `/users/${id}/status`, { token: admin, query: { status: 'disabled' } }));
    expect((await h.call('POST', '/login', { body: body('uma', 'uma-password') })).body.code).toBe(-1);
    expect(await h.db.selectFrom('tokens').select('id').where('userId', '=', id).execute()).toEqual([]);
  });

  it('a user deleted in the middle of a login is a clean -1: no 500, no success log row, no token', async () => {
    const h = await startHarness();
    const id = await h.createUser({ username: 'vic', password: 'vic-password' });
    const admin = await adminToken(h);
    duringNextCompare(() => h.call('DELETE', `/users/${id}`, { token: admin }));
    const res = await h.call('POST', '/login', { body: body('vic', 'vic-password') });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ code: -1, message: '您输入的账号或密码不正确' });
    expect(await h.db.selectFrom('loginLogs').select('state').where('state', '=', '1').execute()).toEqual([]);
    expect(await h.db.selectFrom('tokens').select('id').execute()).toEqual([]);
  });
});
