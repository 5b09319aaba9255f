import { describe, expect, it } from 'vitest';
import { sign } from '../../../server/lib/ids.ts';
import { SUPER_ADMIN_ID } from '../../../server/permissions/effective.ts';
import { adminWith } from '../identity/helpers.ts';
import { accessHarness, type Paged } from './helpers.ts';

interface UserItem {
  id: string;
  userId: string;
  userName: string;
  strategyId: string;
  strategyName: string;
  created: string;
  validFrom: string;
  validUntil: string;
  state: string;
}

const HOUR = 3_600_000;

describe('binding and unbinding', () => {
  it('from the asset side: users and groups, listed with real totals, `selected`, unbind', async () => {
    const t = await accessHarness();
    const a = await t.asset('a');
    const b = await t.asset('b');
    const users = await Promise.all(['ann', 'ben', 'cid'].map((n) => t.user(n)));
    const [ann, ben, cid] = users as [(typeof users)[0], (typeof users)[0], (typeof users)[0]];
    const g = await t.group('ops', [ann.id]);
    const g2 = await t.group('dev', []);

    await t.api.ok('POST', '/authorised/users', { body: { userIds: [ann.id, ben.id, ann.id], assetId: a, validFrom: t.at(HOUR), validUntil: t.at(2 * HOUR) } });
    await t.api.ok('POST', '/authorised/users', { body: { userIds: [cid.id], assetId: b, strategyId: '' } });
    // 1.3.9 declares `UserGroupIds`; the console sends `userGroupIds`: both work.
    await t.api.ok('POST', '/authorised/user-groups', { body: { UserGroupIds: [g], assetId: a } });
    await t.api.ok('POST', '/authorised/user-groups', { body: { userGroupIds: [g2], assetId: b } });

    const page = await t.api.ok<Paged<UserItem>>('GET', '/authorised/users/paging', { query: { assetId: a, pageSize: '1' } });
    expect(page.total).toBe(2); // the users of asset a, not a count of another table (quirk 15)
    expect(page.items).toHaveLength(1);
    const all = await t.api.ok<Paged<UserItem>>('GET', '/authorised/users/paging', { query: { assetId: a, field: 'userName', order: 'ascend' } });
    expect(all.items.map((i) => i.userName)).toEqual(['ann', 'ben']);
    expect(all.items[0]).toEqual({
      id: sign([a, ann.id, '']),
      userId: ann.id,
      userName: 'ann',
      strategyId: '',
      strategyName: '',
      created: all.items[0]!.created,
      validFrom: t.at(HOUR),
      validUntil: t.at(2 * HOUR),
      state: 'pending',
    });
    expect((await t.api.ok<Paged<UserItem>>('GET', '/authorised/users/paging', { query: { assetId: a, name: 'be' } })).items.map((i) => i.userName)).toEqual(['ben']);
    expect((await t.api.ok<Paged<UserItem>>('GET', '/authorised/users/paging', { query: { assetId: a, userName: 'an' } })).total).toBe(1);

    const groups = await t.api.ok<Paged<Record<string, unknown>>>('GET', '/authorised/user-groups/paging', { query: { assetId: a } });
    expect(groups).toEqual({ total: 1, items: [expect.objectContaining({ userGroupId: g, userGroupName: 'ops', validFrom: '', validUntil: '', state: 'active', strategyId: '' })] });
    expect((await t.api.ok<Paged<unknown>>('GET', '/authorised/user-groups/paging', { query: { assetId: a, userGroupName: 'nope' } })).total).toBe(0);

    expect((await t.api.ok<string[]>('GET', '/authorised/selected', { query: { key: 'userId', assetId: a } })).sort()).toEqual([ann.id, ben.id].sort());
    expect(await t.api.ok('GET', '/authorised/selected', { query: { key: 'userGroupId', assetId: a } })).toEqual([g]);
    expect((await t.api.ok<string[]>('GET', '/authorised/selected', { query: { key: 'assetId', userId: ann.id } }))).toEqual([a]);
    expect((await t.api.call('GET', '/authorised/selected', { query: { key: 'owner' } })).body).toMatchObject({ code: 400, message: expect.stringMatching(/^key: /) });

    await t.api.ok('DELETE', `/authorised/${sign([a, ben.id, ''])}`);
    expect((await t.api.ok<Paged<UserItem>>('GET', '/authorised/users/paging', { query: { assetId: a } })).items.map((i) => i.userName)).toEqual(['ann']);
    expect((await t.api.call('DELETE', `/authorised/${sign([a, ben.id, ''])}`)).body).toMatchObject({ code: -1, message: `授权不存在：${sign([a, ben.id, ''])}` });
  });

  it('from the user and group side: assets, listed with protocol, re-authorising replaces the row', async () => {
    const t = await accessHarness();
    const a = await t.asset('alpha');
    const b = await t.asset('beta', { protocol: 'rdp', port: 3389 });
    const c = await t.asset('gamma');
    const u = await t.user('ursula');
    const g = await t.group('ops', [u.id]);
    await t.api.ok('POST', '/authorised/assets', { body: { assetIds: [a, b], userId: u.id, userGroupId: '' } });
    await t.api.ok('POST', '/authorised/assets', { body: { assetIds: [c], userGroupId: g } });

    const mine = await t.api.ok<Paged<Record<string, unknown>>>('GET', '/authorised/assets/paging', { query: { userId: u.id, field: 'assetName', order: 'ascend' } });
    expect(mine.total).toBe(2);
    expect(mine.items.map((i) => [i.assetName, i.protocol, i.state])).toEqual([
      ['alpha', 'ssh', 'active'],
      ['beta', 'rdp', 'active'],
    ]);
    expect((await t.api.ok<Paged<unknown>>('GET', '/authorised/assets/paging', { query: { userId: u.id, name: 'bet' } })).total).toBe(1);
    expect((await t.api.ok<Paged<unknown>>('GET', '/authorised/assets/paging', { query: { userId: u.id, assetName: 'alp' } })).total).toBe(1);
    expect(await t.api.ok('GET', '/authorised/assets/paging', { query: { userGroupId: g } })).toMatchObject({ total: 1, items: [{ assetId: c, assetName: 'gamma' }] });

    // Again, now with a window: the same row (same id), new terms.
    await t.api.ok('POST', '/authorised/assets', { body: { assetIds: [a], userId: u.id, validUntil: t.at(HOUR) } });
    const rows = await t.grants();
    expect(rows).toHaveLength(3);
    expect(rows.find((r) => r.id === sign([a, u.id, '']))).toMatchObject({ validFrom: null, validUntil: t.h.clock.now() + HOUR });

    expect(await t.sees(u.token)).toEqual(['alpha', 'beta', 'gamma']);
    await t.api.ok('DELETE', `/authorised/${sign([c, g, ''])}`);
    expect(await t.sees(u.token)).toEqual(['alpha', 'beta']);
  });

  it('validates: exactly one subject, ids that exist, the window order and format', async () => {
    const t = await accessHarness();
    const a = await t.asset('a');
    const u = await t.user('ursula');
    const g = await t.group('ops', [u.id]);
    const refused = async (url: string, body: unknown, expected: Record<string, unknown>) => {
      expect((await t.api.call('POST', url, { body })).body, JSON.stringify(body)).toMatchObject(expected);
    };
    const one = { code: -1, message: '授权对象必须是一个用户或一个用户组（二者选其一）' };
    await refused('/authorised/assets', { assetIds: [a], userId: u.id, userGroupId: g }, one);
    await refused('/authorised/assets', { assetIds: [a] }, one);
    await refused('/authorised/assets', { assetIds: [a], userId: '', userGroupId: '' }, one);
    await refused('/authorised/assets', { assetIds: [a, 'nope', 'nada'], userId: u.id }, { code: -1, message: '资产不存在：nope, nada' });
    await refused('/authorised/assets', { assetIds: [a], userId: 'ghost' }, { code: -1, message: '用户不存在：ghost' });
    await refused('/authorised/assets', { assetIds: [a], userGroupId: 'nogroup' }, { code: -1, message: '用户组不存在：nogroup' });
    await refused('/authorised/users', { userIds: [u.id, 'ghost'], assetId: a }, { code: -1, message: '用户不存在：ghost' });
    await refused('/authorised/users', { userIds: [u.id], assetId: 'nope' }, { code: -1, message: '资产不存在：nope' });
    await refused('/authorised/user-groups', { userGroupIds: ['nogroup'], assetId: a }, { code: -1, message: '用户组不存在：nogroup' });
    await refused('/authorised/users', { userIds: [], assetId: a }, { code: 400, message: 'userIds: at least one id' });
    await refused('/authorised/user-groups', { assetId: a }, { code: 400, message: expect.stringMatching(/^userGroupIds: /) });
    const window = { code: -1, message: '授权结束时间必须晚于开始时间' };
    await refused('/authorised/users', { userIds: [u.id], assetId: a, validFrom: t.at(HOUR), validUntil: t.at(HOUR) }, window);
    await refused('/authorised/assets', { assetIds: [a], userGroupId: g, validFrom: t.at(2 * HOUR), validUntil: t.at(HOUR) }, window);
    await refused('/authorised/users', { userIds: [u.id], assetId: a, validFrom: '2026-13-01 00:00:00' }, { code: 400, message: 'validFrom: expected YYYY-MM-DD HH:mm:ss' });
    await refused('/authorised/users', { userIds: [u.id], assetId: a, validUntil: '2026-01-15T10:00:00Z' }, { code: 400, message: 'validUntil: expected YYYY-MM-DD HH:mm:ss' });
    expect(await t.grants()).toEqual([]);

    // The zero date and null mean "open", as ''.
    await t.api.ok('POST', '/authorised/users', { body: { userIds: [u.id], assetId: a, validFrom: '0001-01-01 00:00:00', validUntil: null } });
    expect(await t.grants()).toMatchObject([{ validFrom: null, validUntil: null, userGroupId: null }]);
    // The database holds the rule too: a row with both subjects, or neither, cannot be written.
    const row = { id: 'x', assetId: a, userId: u.id, userGroupId: g, strategyId: null, commandFilterId: null, validFrom: null, validUntil: null, created: 0 };
    await expect(t.h.db.insertInto('authorised').values(row).execute()).rejects.toThrow(/CHECK/);
    await expect(t.h.db.insertInto('authorised').values({ ...row, userId: null, userGroupId: null }).execute()).rejects.toThrow(/CHECK/);
  });

  it('refuses to grant to, or take from, accounts the caller may not act on; nothing changes', async () => {
    const t = await accessHarness();
    const a = await t.asset('a');
    const b = await t.asset('b');
    // A granting admin with the authorisation keys only, and a mightier admin it may not act on.
    const granter = await adminWith(t.h, ['asset-authorised-user', 'asset-authorised-user-add', 'asset-authorised-user-del', 'asset-authorised-user-group', 'asset-authorised-user-group-add', 'asset-authorised-user-group-del', 'user-bind-asset', 'user-unbind-asset', 'user-group-bind-asset', 'user-group-unbind-asset'], 'granter');
    const mighty = await adminWith(t.h, ['asset', 'asset-del', 'user', 'user-del'], 'mighty');
    const plain = await t.user('plain');
    const mixed = await t.group('mixed', [plain.id, mighty.id]);
    const easy = await t.group('easy', [plain.id]);
    const as = t.as(granter.token);
    // Assets are handed out only by someone who may open them: the granter may open a and b, not c.
    const c = await t.asset('c');
    await t.api.ok('POST', '/authorised/assets', { body: { assetIds: [a, b], userId: granter.id } });
    expect((await as.call('POST', '/authorised/users', { body: { userIds: [plain.id], assetId: c } })).body).toMatchObject({ code: -1, message: '不能授权您自己无权访问的资产：c' });
    expect((await as.call('POST', '/authorised/assets', { body: { assetIds: [a, c], userGroupId: easy } })).body).toMatchObject({ code: -1, message: '不能授权您自己无权访问的资产：c' });
    const granterOwn = await t.grants();

    const beyond = (what: string) => ({ code: -1, message: expect.stringMatching(new RegExp(`^不能调整账户「mighty」的资产授权：该账户拥有您没有的权限（.*${what}`)) });
    expect((await as.call('POST', '/authorised/users', { body: { userIds: [plain.id, mighty.id], assetId: a } })).body).toMatchObject(beyond('asset-del'));
    expect((await as.call('POST', '/authorised/assets', { body: { assetIds: [a, b], userId: mighty.id } })).body).toMatchObject(beyond('asset-del'));
    expect((await as.call('POST', '/authorised/assets', { body: { assetIds: [a], userGroupId: mixed } })).body).toMatchObject(beyond('user-del'));
    expect((await as.call('POST', '/authorised/user-groups', { body: { userGroupIds: [easy, mixed], assetId: a } })).body).toMatchObject(beyond('asset'));
    expect((await as.call('POST', '/authorised/users', { body: { userIds: [SUPER_ADMIN_ID], assetId: a } })).body).toMatchObject({ code: -1, message: '只有超级管理员本人可以修改超级管理员账户' });
    expect(await t.grants()).toEqual(granterOwn);

    // Grants the super admin made to those accounts cannot be taken away by the granter either.
    await t.api.ok('POST', '/authorised/users', { body: { userIds: [mighty.id], assetId: a } });
    await t.api.ok('POST', '/authorised/user-groups', { body: { userGroupIds: [mixed], assetId: b } });
    const before = await t.grants();
    expect((await as.call('DELETE', `/authorised/${sign([a, mighty.id, ''])}`)).body).toMatchObject(beyond('asset-del'));
    expect((await as.call('DELETE', `/authorised/${sign([b, mixed, ''])}`)).body).toMatchObject(beyond('asset-del'));
    expect(await t.grants()).toEqual(before);

    // Within its reach it binds and unbinds.
    await as.ok('POST', '/authorised/assets', { body: { assetIds: [a, b], userGroupId: easy } });
    await as.ok('POST', '/authorised/users', { body: { userIds: [plain.id], assetId: a } });
    await as.ok('DELETE', `/authorised/${sign([a, plain.id, ''])}`);
    expect(await t.sees(plain.token)).toEqual(['a', 'b']);
  });
});
