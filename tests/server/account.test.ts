import { generate } from 'otplib';
import { describe, expect, it } from 'vitest';
import { MSG_UNAUTHORIZED } from '../../server/http/envelope.ts';
import { PASSWORD_MSG } from '../../server/lib/password.ts';
import { totpQr } from '../../server/modules/auth/totp.ts';
import { ADMIN_PASSWORD, type Harness, startHarness } from './harness.ts';

const code = (h: Harness, secret: string) => generate({ secret, epoch: Math.floor(h.clock.now() / 1000) });

describe('/account', () => {
  it('GET info returns AccountInfo with roles and menus, for a plain user too', async () => {
    const h = await startHarness();
    const role = await h.createRole(['info', 'user']);
    await h.createUser({ username: 'eve', password: 'eve-pass', type: 'admin', roles: [role] });
    await h.createUser({ username: 'frank', password: 'frank-pass' });
    const eve = await h.login('eve', 'eve-pass');
    expect((await h.call('GET', '/account/info', { token: eve })).body.data).toMatchObject({ username: 'eve', type: 'admin', roles: [role], menus: ['user', 'info'] });
    const frank = await h.login('frank', 'frank-pass');
    expect((await h.call('GET', '/account/info', { token: frank })).body.data).toMatchObject({ username: 'frank', type: 'user', roles: [], menus: [] });
  });

  it('change-password checks the current hash, limits the new one and ends all login tokens', async () => {
    const h = await startHarness();
    const t1 = await h.login('admin', ADMIN_PASSWORD);
    const t2 = await h.login('admin', ADMIN_PASSWORD);
    const change = (oldPassword: string, newPassword: string, token = t1) => h.call('POST', '/account/change-password', { token, body: { oldPassword, newPassword } });

    expect((await change('wrong', 'new-pass-1')).body).toEqual({ code: -1, message: '您输入的原密码不正确' });
    expect((await change(ADMIN_PASSWORD, 'n'.repeat(73))).body).toEqual({ code: -1, message: PASSWORD_MSG.tooLong });
    expect((await change(ADMIN_PASSWORD, 'short')).body).toEqual({ code: -1, message: PASSWORD_MSG.tooShort });
    expect((await change(ADMIN_PASSWORD, ' '.repeat(8))).body).toEqual({ code: -1, message: '密码不能只有空格' });
    expect((await change(ADMIN_PASSWORD, '')).body).toEqual({ code: -1, message: '请输入新密码' });
    expect((await h.call('POST', '/account/change-password', { token: t1, body: { oldPassword: ADMIN_PASSWORD } })).body).toMatchObject({ code: 400 });

    expect((await change(ADMIN_PASSWORD, 'new-pass-1')).body).toEqual({ code: 1, message: 'success', data: null });
    for (const t of [t1, t2]) expect((await h.call('GET', '/account/info', { token: t })).body).toEqual({ code: 401, message: MSG_UNAUTHORIZED });
    expect((await h.call('POST', '/login', { body: { username: 'admin', password: ADMIN_PASSWORD } })).body.code).toBe(-1);
    const t3 = await h.login('admin', 'new-pass-1');

    // The old password is checked against the hash in the DB now, not a login-time snapshot (quirk 8).
    expect((await change('new-pass-1', 'new-pass-2', t3)).body.code).toBe(1);
    const t4 = await h.login('admin', 'new-pass-2');
    expect((await change('new-pass-1', 'new-pass-3', t4)).body).toEqual({ code: -1, message: '您输入的原密码不正确' });
  });

  it('reload-totp gives a QR PNG and a secret without storing it; confirm-totp checks the code; reset-totp disables', async () => {
    const h = await startHarness({ env: { JUMPGATE_BRAND_NAME: 'Acme Gate' } });
    const token = await h.login('admin', ADMIN_PASSWORD);
    const reload = await h.call('GET', '/account/reload-totp', { token, headers: { host: 'evil.example' } });
    const { qr, secret } = reload.body.data as { qr: string; secret: string };
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    expect(qr.startsWith('data:')).toBe(false);
    const png = Buffer.from(qr, 'base64');
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([200, 200]);
    const stored = await h.db.selectFrom('users').select('totpSecret').where('username', '=', 'admin').executeTakeFirstOrThrow();
    expect(stored.totpSecret).toBe('-');

    const wrongCode = (await code(h, secret)) === '000000' ? '111111' : '000000';
    expect((await h.call('POST', '/account/confirm-totp', { token, body: { secret, totp: wrongCode } })).body).toEqual({ code: -1, message: 'TOTP 验证失败，请重试' });
    expect((await h.call('POST', '/account/confirm-totp', { token, body: { secret: 'not base32!', totp: '123456' } })).body.code).toBe(400);
    expect((await h.call('POST', '/account/confirm-totp', { token, body: { secret, totp: await code(h, secret) } })).body).toEqual({ code: 1, message: 'success', data: null });
    expect(((await h.call('GET', '/account/info', { token })).body.data as { enableTotp: boolean }).enableTotp).toBe(true);

    // Login now needs the code.
    expect((await h.call('POST', '/login', { body: { username: 'admin', password: ADMIN_PASSWORD } })).body).toEqual({ code: 100, message: '' });

    expect((await h.call('POST', '/account/reset-totp', { token })).body).toEqual({ code: 1, message: 'success', data: '' });
    expect(((await h.call('GET', '/account/info', { token })).body.data as { enableTotp: boolean }).enableTotp).toBe(false);
    expect((await h.call('POST', '/login', { body: { username: 'admin', password: ADMIN_PASSWORD } })).body.code).toBe(1);
  });

  it('the QR encodes the branding name as issuer, not the Host header', async () => {
    const h = await startHarness({ env: { JUMPGATE_BRAND_NAME: 'Acme Gate' } });
    const token = await h.login('admin', ADMIN_PASSWORD);
    const { qr, secret } = (await h.call('GET', '/account/reload-totp', { token, headers: { host: 'evil.example' } })).body.data as { qr: string; secret: string };
    // QR rendering is deterministic, so the same URI gives the same PNG.
    expect(qr).toBe(await totpQr('Acme Gate', 'admin', secret));
    expect(qr).not.toBe(await totpQr('evil.example', 'admin', secret));
  });
});
