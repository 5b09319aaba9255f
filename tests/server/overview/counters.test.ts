import { describe, expect, it } from 'vitest';
import { SUPER_ADMIN_ID } from '../../../server/permissions/effective.ts';
import { ADMIN_PASSWORD, startHarness } from '../harness.ts';
import { adminWith } from '../identity/helpers.ts';
import { insertAsset, insertLoginLog, insertSession, local } from './rows.ts';

describe('GET /overview/counter and /overview/asset', () => {
  it('counts users, signed-in users, assets, active assets, offline sessions and failed logins', async () => {
    const h = await startHarness();
    const { token } = await adminWith(h, ['dashboard'], 'watcher');
    await h.createUser({ username: 'ann', password: 'ann-password' });
    const bob = await h.createUser({ username: 'bob', password: 'bob-password' });
    await h.createUser({ username: 'cid' });

    // Signed in: admin once, ann twice (one user), bob's only token expired. Access tokens are not logins.
    await h.login('admin', ADMIN_PASSWORD);
    await h.login('ann', 'ann-password');
    await h.login('ann', 'ann-password');
    await h.login('bob', 'bob-password');
    await h.db.updateTable('tokens').set({ expiresAt: h.clock.now() - 1 }).where('userId', '=', bob).execute();
    await h.accessToken(SUPER_ADMIN_ID);
    // Failed logins: two wrong passwords and one unknown user.
    for (const [username, password] of [['ann', 'wrong-password'], ['bob', 'wrong-password'], ['nobody', 'whatever-pass']]) {
      expect((await h.call('POST', '/login', { body: { username, password } })).body.code).toBe(-1);
    }

    const a1 = await insertAsset(h.db, { protocol: 'ssh', active: true });
    await insertAsset(h.db, { protocol: 'ssh', active: true });
    await insertAsset(h.db, { protocol: 'ssh' });
    await insertAsset(h.db, { protocol: 'rdp' });
    await insertAsset(h.db, { protocol: 'vnc', active: true });
    await insertAsset(h.db, { protocol: 'kubernetes' });
    await insertSession(h.db, { assetId: a1, status: 'disconnected', connectedTime: 5 });
    await insertSession(h.db, { assetId: a1, status: 'disconnected', connectedTime: 6 });
    await insertSession(h.db, { assetId: a1, status: 'connected', connectedTime: 7 });
    await insertSession(h.db, { assetId: a1, status: 'no_connect' });

    const counter = await h.call('GET', '/overview/counter', { token });
    expect(counter.body).toEqual({
      code: 1,
      message: 'success',
      // Ours after 1.3.9's six: what the getting-started checklist reads (no credential nor grant here; three sessions
      // reached their host, the no_connect one did not).
      data: { totalUser: 5, onlineUser: 2, totalAsset: 6, activeAsset: 3, offlineSession: 2, failLoginCount: 3, totalCredential: 0, totalAuthorised: 0, totalSession: 3 },
    });

    const assets = await h.call('GET', '/overview/asset', { token });
    expect(assets.body.data).toEqual({ ssh: 3, rdp: 1, vnc: 1, telnet: 0, kubernetes: 1, all: 6 });
  });

  it('counts credentials and grants for the getting-started checklist; an empty installation counts only its admin', async () => {
    const h = await startHarness();
    const { token } = await adminWith(h, ['dashboard'], 'watcher');
    const read = async () => (await h.call('GET', '/overview/counter', { token })).body.data as Record<string, number>;
    // The super admin and the watcher this test signs in with.
    expect(await read()).toMatchObject({ totalUser: 2, totalAsset: 0, totalCredential: 0, totalAuthorised: 0, totalSession: 0 });
    const admin = await h.login('admin', ADMIN_PASSWORD);
    const credential = await h.call('POST', '/credentials', { token: admin, body: { name: 'root', type: 'custom', username: 'root', password: 'secret-pass' } });
    expect(credential.body.code).toBe(1);
    const asset = await insertAsset(h.db, { protocol: 'ssh' });
    const ann = await h.createUser({ username: 'ann' });
    const grant = await h.call('POST', '/authorised/users', { token: admin, body: { userIds: [ann], assetId: asset } });
    expect(grant.body.code).toBe(1);
    await insertSession(h.db, { assetId: asset, status: 'connecting' });
    expect(await read()).toMatchObject({ totalCredential: 1, totalAuthorised: 1, totalSession: 0 });
    await insertSession(h.db, { assetId: asset, status: 'connected', connectedTime: 5 });
    expect(await read()).toMatchObject({ totalSession: 1 });
  });

  it('an expired token stops counting as online without any write (the clock moves past it)', async () => {
    const h = await startHarness();
    const { token } = await adminWith(h, ['dashboard'], 'watcher');
    await h.login('admin', ADMIN_PASSWORD);
    const online = async () => ((await h.call('GET', '/overview/counter', { token })).body.data as { onlineUser: number }).onlineUser;
    expect(await online()).toBe(1);
    h.clock.advance(2 * 60 * 60 * 1000 + 1); // past the 2 h lifetime
    expect(await online()).toBe(0);
  });

  it('counts only failed login rows, however old', async () => {
    const h = await startHarness();
    const { token } = await adminWith(h, ['dashboard'], 'watcher');
    await insertLoginLog(h.db, { loginTime: local(2020, 1, 1), state: '0', reason: '账号或密码不正确' });
    await insertLoginLog(h.db, { loginTime: local(2020, 1, 2), state: '1' });
    expect(((await h.call('GET', '/overview/counter', { token })).body.data as { failLoginCount: number }).failLoginCount).toBe(1);
  });
});
