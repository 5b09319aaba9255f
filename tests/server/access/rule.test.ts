import { describe, expect, it } from 'vitest';
import { SUPER_ADMIN_ID } from '../../../server/permissions/effective.ts';
import { accessHarness, type Paged, type PortalItem } from './helpers.ts';

const HOUR = 3_600_000;

describe('the access rule × /worker/assets/paging, /account/assets, explain', () => {
  it('nothing granted: nothing seen, explain says no', async () => {
    const t = await accessHarness();
    const a = await t.asset('a');
    const u = await t.user('ursula');
    expect(await t.sees(u.token)).toEqual([]);
    expect(await t.explain(u.id, a)).toEqual({ allowed: false, strategy: null, via: null, grants: [] });
  });

  it('the owner opens its asset without any grant', async () => {
    const t = await accessHarness();
    const a = await t.asset('a');
    await t.asset('b');
    const u = await t.user('ursula');
    await t.api.ok('POST', `/assets/${a}/change-owner`, { query: { owner: u.id } });
    expect(await t.sees(u.token)).toEqual(['a']);
    expect(await t.explain(u.id, a)).toEqual({ allowed: true, strategy: null, via: 'owner', grants: [] });
  });

  it('a direct grant, then its removal (next request)', async () => {
    const t = await accessHarness();
    const a = await t.asset('a');
    await t.asset('b');
    const u = await t.user('ursula');
    await t.api.ok('POST', '/authorised/users', { body: { userIds: [u.id], assetId: a } });
    expect(await t.sees(u.token)).toEqual(['a']);
    const ex = await t.explain(u.id, a);
    expect(ex).toMatchObject({ allowed: true, via: 'user', strategy: null });
    expect(ex.grants).toEqual([{ id: ex.grants[0]!.id, kind: 'user', strategyId: '', strategyName: '', validFrom: '', validUntil: '', state: 'active', wins: true }]);

    await t.api.ok('DELETE', `/authorised/${ex.grants[0]!.id}`);
    expect(await t.sees(u.token)).toEqual([]);
    expect(await t.explain(u.id, a)).toMatchObject({ allowed: false, via: null, grants: [] });
  });

  it('a grant through a group; leaving the group or deleting it ends it', async () => {
    const t = await accessHarness();
    const a = await t.asset('a');
    const b = await t.asset('b');
    const u = await t.user('ursula');
    const other = await t.user('otto');
    const g = await t.group('ops', [u.id, other.id]);
    await t.api.ok('POST', '/authorised/user-groups', { body: { userGroupIds: [g], assetId: a } });
    expect(await t.sees(u.token)).toEqual(['a']);
    expect(await t.sees(other.token)).toEqual(['a']);
    const ex = await t.explain(u.id, a);
    expect(ex).toMatchObject({ allowed: true, via: 'group', grants: [{ kind: 'group', userGroupId: g, userGroupName: 'ops', state: 'active', wins: true }] });
    expect(await t.explain(u.id, b)).toMatchObject({ allowed: false, grants: [] });

    await t.api.ok('PUT', `/user-groups/${g}`, { body: { name: 'ops', members: [other.id] } });
    expect(await t.sees(u.token)).toEqual([]);
    expect(await t.explain(u.id, a)).toMatchObject({ allowed: false, via: null, grants: [] });
    expect(await t.sees(other.token)).toEqual(['a']);

    await t.api.ok('DELETE', `/user-groups/${g}`);
    expect(await t.sees(other.token)).toEqual([]);
    expect(await t.grants()).toEqual([]); // the group's grants went with it
  });

  it('a pending window counts once it opens, an expired one no more', async () => {
    const t = await accessHarness();
    const a = await t.asset('a');
    const b = await t.asset('b');
    const u = await t.user('ursula');
    const g = await t.group('ops', [u.id]);
    await t.api.ok('POST', '/authorised/users', { body: { userIds: [u.id], assetId: a, validFrom: t.at(HOUR), validUntil: t.at(3 * HOUR) } });
    await t.api.ok('POST', '/authorised/user-groups', { body: { userGroupIds: [g], assetId: b, validFrom: '', validUntil: t.at(2 * HOUR) } });

    expect(await t.sees(u.token)).toEqual(['b']);
    expect(await t.explain(u.id, a)).toMatchObject({ allowed: false, grants: [{ state: 'pending', wins: false }] });

    t.h.clock.advance(HOUR); // a opens
    expect(await t.sees(u.token)).toEqual(['a', 'b']);
    t.h.clock.advance(HOUR); // b's window ends (validUntil is exclusive)
    expect(await t.sees(u.token)).toEqual(['a']);
    const exB = await t.explain(u.id, b);
    expect(exB).toMatchObject({ allowed: false, via: null, grants: [{ kind: 'group', state: 'expired', wins: false }] });
    expect(exB.grants[0]!.validUntil).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(exB.grants[0]!.validFrom).toBe('');
    t.h.clock.advance(HOUR);
    expect(await t.sees(u.token)).toEqual([]);
    expect(await t.explain(u.id, a)).toMatchObject({ allowed: false, grants: [{ state: 'expired' }] });
  });

  it('several grants: the direct one wins over a group’s, the newest among equals', async () => {
    const t = await accessHarness();
    const a = await t.asset('a');
    const u = await t.user('ursula');
    const g1 = await t.group('g1', [u.id]);
    const g2 = await t.group('g2', [u.id]);
    await t.api.ok('POST', '/authorised/user-groups', { body: { userGroupIds: [g1], assetId: a } });
    t.h.clock.advance(1000);
    await t.api.ok('POST', '/authorised/user-groups', { body: { userGroupIds: [g2], assetId: a } });
    let ex = await t.explain(u.id, a);
    expect(ex.via).toBe('group');
    expect(ex.grants.find((x) => x.wins)?.userGroupName).toBe('g2');
    expect(ex.grants.filter((x) => x.wins)).toHaveLength(1);

    t.h.clock.advance(1000);
    await t.api.ok('POST', '/authorised/users', { body: { userIds: [u.id], assetId: a } });
    t.h.clock.advance(1000);
    await t.api.ok('POST', '/authorised/user-groups', { body: { userGroupIds: [g1], assetId: a } }); // newer, but a group's
    ex = await t.explain(u.id, a);
    expect(ex.via).toBe('user');
    expect(ex.grants).toHaveLength(3);
    expect(ex.grants.find((x) => x.wins)?.kind).toBe('user');

    // An expired direct grant does not win: the group's active one does.
    const direct = ex.grants.find((x) => x.kind === 'user')!;
    await t.h.db.updateTable('authorised').set({ validUntil: t.h.clock.now() }).where('id', '=', direct.id).execute();
    ex = await t.explain(u.id, a);
    expect(ex).toMatchObject({ allowed: true, via: 'group' });
    expect(ex.grants.find((x) => x.wins)?.userGroupName).toBe('g1');
  });

  it('a deleted asset takes its grants with it', async () => {
    const t = await accessHarness();
    const a = await t.asset('a');
    const b = await t.asset('b');
    const u = await t.user('ursula');
    await t.api.ok('POST', '/authorised/assets', { body: { assetIds: [a, b], userId: u.id } });
    expect(await t.sees(u.token)).toEqual(['a', 'b']);
    await t.api.ok('DELETE', `/assets/${a}`);
    expect(await t.sees(u.token)).toEqual(['b']);
    expect((await t.grants()).map((r) => r.assetId)).toEqual([b]);
  });

  it('a type-user sees only its assets, address and owner hidden; filters, tags and paging within them', async () => {
    const t = await accessHarness();
    const a = await t.asset('web-a', { tags: 'prod,web', ip: '10.9.9.1', port: 2201 });
    const b = await t.asset('db-b', { tags: 'prod,db' });
    await t.asset('hidden', { tags: 'secret' });
    const r = await t.asset('rdp-c', { protocol: 'rdp', port: 3389, tags: 'win' });
    const u = await t.user('ursula');
    await t.api.ok('POST', '/authorised/assets', { body: { assetIds: [a, b, r], userId: u.id } });

    const page = await t.as(u.token).ok<Paged<PortalItem>>('GET', '/worker/assets/paging', { query: { pageSize: '2' } });
    expect(page.total).toBe(3);
    expect(page.items.map((i) => i.name)).toEqual(['rdp-c', 'db-b']); // newest first, real LIMIT
    for (const item of page.items) expect(item).toMatchObject({ ip: '', port: 0, owner: '', ownerName: '' });
    const second = await t.as(u.token).ok<Paged<PortalItem>>('GET', '/worker/assets/paging', { query: { pageSize: '2', pageIndex: '2' } });
    expect(second).toMatchObject({ total: 3, items: [{ name: 'web-a', tags: 'prod,web', protocol: 'ssh' }] });
    expect(second.items[0]!.ip).toBe('');

    expect(await t.sees(u.token, { name: 'b' })).toEqual(['db-b', 'web-a']);
    expect(await t.sees(u.token, { protocol: 'rdp' })).toEqual(['rdp-c']);
    expect(await t.sees(u.token, { tags: 'prod' })).toEqual(['db-b', 'web-a']);
    expect(await t.sees(u.token, { tags: 'secret' })).toEqual([]);
    // The address can neither filter nor order the list (it would leak back).
    expect(await t.sees(u.token, { ip: '10.9.9.1' })).toEqual(['db-b', 'rdp-c', 'web-a']);
    const byName = await t.as(u.token).ok<Paged<PortalItem>>('GET', '/worker/assets/paging', { query: { field: 'name', order: 'ascend' } });
    expect(byName.items.map((i) => i.name)).toEqual(['db-b', 'rdp-c', 'web-a']);

    expect(await t.as(u.token).ok('GET', '/worker/assets/tags')).toEqual(['db', 'prod', 'web', 'win']);
    const nobody = await t.user('nobody');
    expect(await t.as(nobody.token).ok('GET', '/worker/assets/tags')).toEqual([]);
  });

  it('admins other than the super admin follow the same rule; the super admin sees every asset', async () => {
    const t = await accessHarness();
    const a = await t.asset('a');
    await t.asset('b');
    const admin = await t.user('adele', 'admin');
    expect(await t.sees(admin.token)).toEqual([]);
    await t.api.ok('POST', '/authorised/users', { body: { userIds: [admin.id], assetId: a } });
    expect(await t.sees(admin.token)).toEqual(['a']);
    expect(await t.sees(t.root)).toEqual(['a', 'b']);
    expect(await t.explain(SUPER_ADMIN_ID, a)).toMatchObject({ allowed: true, via: 'super-admin', strategy: null });
    expect(await t.as(t.root).ok('GET', '/worker/assets/tags')).toEqual(['prod', 'web']);
  });

  it('explain names unknown users and assets', async () => {
    const t = await accessHarness();
    const a = await t.asset('a');
    const u = await t.user('ursula');
    expect((await t.api.call('GET', '/authorised/explain', { query: { userId: 'ghost', assetId: a } })).body).toMatchObject({ code: -1, message: '用户不存在：ghost' });
    expect((await t.api.call('GET', '/authorised/explain', { query: { userId: u.id, assetId: 'nope' } })).body).toMatchObject({ code: -1, message: '资产不存在：nope' });
    expect((await t.api.call('GET', '/authorised/explain', { query: { userId: u.id } })).body).toMatchObject({ code: 400, message: expect.stringMatching(/^assetId: /) });
  });
});
