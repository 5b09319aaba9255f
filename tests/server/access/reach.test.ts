import { describe, expect, it } from 'vitest';
import { adminWith } from '../identity/helpers.ts';
import { accessHarness } from './helpers.ts';

const HOUR = 3_600_000;

/*
 * What an account may open is one of its rights: whoever can reset its password or second factor can become it. So an
 * admin acts on an account only when it may open every asset that account may open (now, or once a pending grant
 * begins), and hands out only assets it may open itself (containment.ts).
 */
describe('asset reach is a right that containment compares', () => {
  it('a password-reset helper cannot take over an account that opens more than it does', async () => {
    const t = await accessHarness();
    const payroll = await t.asset('payroll-db');
    const wiki = await t.asset('wiki');
    const helper = await adminWith(t.h, ['user', 'user-change-password', 'user-reset-totp', 'user-enable-disable'], 'helper');
    const clerk = await t.user('clerk');
    await t.api.ok('POST', '/authorised/users', { body: { userIds: [clerk.id], assetId: payroll } });
    const as = t.as(helper.token);

    const refused = { code: -1, message: '不能修改账户「clerk」的密码：该账户可以访问您无权访问的资产（payroll-db）' };
    expect((await as.call('POST', `/users/${clerk.id}/change-password`, { body: { password: 'Taken-Over-1' } })).body).toMatchObject(refused);
    expect((await as.call('POST', `/users/${clerk.id}/reset-totp`)).body).toMatchObject({ code: -1, message: '不能重置账户「clerk」的双因素认证：该账户可以访问您无权访问的资产（payroll-db）' });
    // The clerk's password is unchanged: it still logs in with its own.
    expect(await t.sees(clerk.token)).toEqual(['payroll-db']);

    // A grant that has not begun yet counts: the takeover would pay off later.
    const intern = await t.user('intern');
    await t.api.ok('POST', '/authorised/users', { body: { userIds: [intern.id], assetId: wiki, validFrom: t.at(HOUR) } });
    expect((await as.call('PATCH', `/users/${intern.id}/status`, { query: { status: 'disabled' } })).body).toMatchObject({
      code: -1,
      message: '不能启用或停用账户「intern」：该账户可以访问您无权访问的资产（wiki）',
    });
    // One that has ended does not.
    t.h.clock.advance(2 * HOUR);
    await t.api.ok('POST', '/authorised/users', { body: { userIds: [intern.id], assetId: wiki, validUntil: t.at(-1) } });
    await as.ok('PATCH', `/users/${intern.id}/status`, { query: { status: 'disabled' } });

    // Once the helper may open payroll-db itself, the clerk is within its reach.
    await t.api.ok('POST', '/authorised/users', { body: { userIds: [helper.id], assetId: payroll } });
    await as.ok('POST', `/users/${clerk.id}/change-password`, { body: { password: 'Reset-By-Helper-1' } });
  });

  it('counts assets reached through a group, and names a few with the count', async () => {
    const t = await accessHarness();
    const ids = [];
    for (const name of ['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7']) ids.push(await t.asset(name));
    const helper = await adminWith(t.h, ['user', 'user-change-password'], 'helper');
    const member = await t.user('member');
    const team = await t.group('team', [member.id]);
    await t.api.ok('POST', '/authorised/assets', { body: { assetIds: ids, userGroupId: team } });
    expect((await t.as(helper.token).call('POST', `/users/${member.id}/change-password`, { body: { password: 'Taken-Over-1' } })).body).toMatchObject({
      code: -1,
      message: '不能修改账户「member」的密码：该账户可以访问您无权访问的资产（a1、a2、a3、a4、a5 等 7 项）',
    });
  });
});
