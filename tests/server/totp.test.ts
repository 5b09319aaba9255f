import { generate } from 'otplib';
import { describe, expect, it } from 'vitest';
import { SUPER_ADMIN_ID } from '../../server/permissions/effective.ts';
import { ADMIN_PASSWORD, type Harness, startHarness } from './harness.ts';

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const codeAt = (h: Harness, secret = SECRET, offsetMs = 0) => generate({ secret, epoch: Math.floor((h.clock.now() + offsetMs) / 1000) });
const login = (h: Harness, totp: string) => h.call('POST', '/login', { body: { username: 'admin', password: ADMIN_PASSWORD, remember: false, totp } });
const WRONG = { code: -1, message: '您输入双因素认证授权码不正确' };

async function withTotp(): Promise<Harness> {
  const h = await startHarness();
  // Start at the beginning of a 30 s step, so that "later within the same step" is well defined.
  h.clock.set(Math.ceil(h.clock.now() / 30_000) * 30_000);
  await h.db.updateTable('users').set({ totpSecret: h.box.encrypt(SECRET) }).where('id', '=', SUPER_ADMIN_ID).execute();
  return h;
}

describe('TOTP codes are accepted once', () => {
  it('login: the same code is refused when replayed, in the same step or the next; a later code works', async () => {
    const h = await withTotp();
    const code = await codeAt(h);
    expect((await login(h, code)).body.code).toBe(1);
    expect((await login(h, code)).body).toMatchObject(WRONG);
    h.clock.advance(20_000);
    expect((await login(h, code)).body).toMatchObject(WRONG); // still inside its ±30 s window
    h.clock.advance(10_000);
    expect((await login(h, code)).body).toMatchObject(WRONG); // the previous step: accepted for drift, but used
    expect((await login(h, await codeAt(h))).body.code).toBe(1);
    // A code of an earlier step than the last accepted one is refused too.
    h.clock.advance(30_000);
    const next = await codeAt(h, SECRET, 30_000);
    expect((await login(h, next)).body.code).toBe(1); // a client clock 30 s ahead
    expect((await login(h, await codeAt(h))).body).toMatchObject(WRONG);
  });

  it('login: parallel uses of one code succeed once', async () => {
    const h = await withTotp();
    const code = await codeAt(h);
    const results = await Promise.all(Array.from({ length: 6 }, () => login(h, code)));
    expect(results.filter((r) => r.body.code === 1)).toHaveLength(1);
    expect(await h.db.selectFrom('tokens').select('id').execute()).toHaveLength(1);
  });

  it('confirm-totp uses the code up: neither login nor a second confirm takes it again', async () => {
    const h = await startHarness();
    h.clock.set(Math.ceil(h.clock.now() / 30_000) * 30_000);
    const token = await h.login('admin', ADMIN_PASSWORD);
    const { secret } = (await h.call('GET', '/account/reload-totp', { token })).body.data as { secret: string };
    const code = await codeAt(h, secret);
    expect((await h.call('POST', '/account/confirm-totp', { token, body: { secret, totp: code } })).body.code).toBe(1);
    expect((await login(h, code)).body).toMatchObject(WRONG);
    expect((await h.call('POST', '/account/confirm-totp', { token, body: { secret, totp: code } })).body).toEqual({ code: -1, message: 'TOTP 验证失败，请重试' });

    // Stored sealed, with the step it used; the step survives a reset.
    const row = await h.db.selectFrom('users').select(['totpSecret', 'totpLastStep']).where('id', '=', SUPER_ADMIN_ID).executeTakeFirstOrThrow();
    expect(row.totpSecret).toMatch(/^v1:[0-9a-f]{8}:/);
    expect(h.box.decrypt(row.totpSecret)).toBe(secret);
    expect(row.totpLastStep).toBe(Math.floor(h.clock.now() / 30_000));
    h.clock.advance(30_000);
    expect((await login(h, await codeAt(h, secret))).body.code).toBe(1);
  });
});
