import { describe, expect, it } from 'vitest';
import { identityHarness, type Paged } from './helpers.ts';

interface GroupDetail {
  id: string;
  name: string;
  members: { id: string; name: string }[];
  created: string;
}

describe('user groups', () => {
  it('creates, reads, updates and deletes groups with their members', async () => {
    const { h, api } = await identityHarness();
    const a = await h.createUser({ username: 'ann' });
    const b = await h.createUser({ username: 'ben' });
    const created = await api.ok<{ id: string; members: string[] }>('POST', '/user-groups', { body: { name: ' devs ', members: [b, a, b] } });
    expect(created).toMatchObject({ name: 'devs', members: [b, a] });
    const detail = await api.ok<GroupDetail>('GET', `/user-groups/${created.id}`);
    expect(detail).toEqual({ id: created.id, name: 'devs', members: [{ id: a, name: 'ann' }, { id: b, name: 'ben' }], created: detail.created });
    expect(await api.ok('GET', '/user-groups')).toEqual([{ id: created.id, name: 'devs', created: detail.created, members: null }]);

    await api.ok('PUT', `/user-groups/${created.id}`, { body: { name: 'ops', members: [b] } });
    expect(await api.ok('GET', `/user-groups/${created.id}`)).toMatchObject({ name: 'ops', members: [{ id: b, name: 'ben' }] });
    await api.ok('PUT', `/user-groups/${created.id}`, { body: { name: 'ops', members: null } });
    expect((await api.ok<GroupDetail>('GET', `/user-groups/${created.id}`)).members).toEqual([]);

    await api.ok('DELETE', `/user-groups/${created.id}`);
    expect((await api.call('GET', `/user-groups/${created.id}`)).body).toMatchObject({ code: -1, message: `用户组不存在：${created.id}` });
  });

  it('refuses duplicate names, unknown members and unknown groups; deletes all or nothing', async () => {
    const { h, api } = await identityHarness();
    const a = await h.createUser({ username: 'ann' });
    const g1 = await api.ok<{ id: string }>('POST', '/user-groups', { body: { name: 'g1', members: [a] } });
    const g2 = await api.ok<{ id: string }>('POST', '/user-groups', { body: { name: 'g2', members: [] } });
    expect((await api.call('POST', '/user-groups', { body: { name: 'g1', members: [] } })).body).toMatchObject({ code: -1, message: '用户组名称「g1」已存在' });
    expect((await api.call('PUT', `/user-groups/${g2.id}`, { body: { name: 'g1', members: [] } })).body.code).toBe(-1);
    expect((await api.call('POST', '/user-groups', { body: { name: 'g3', members: [a, 'ghost'] } })).body).toMatchObject({ code: -1, message: '用户不存在：ghost' });
    expect((await api.ok<unknown[]>('GET', '/user-groups')).length).toBe(2); // g3 not half-created
    expect((await api.call('PUT', `/user-groups/${g1.id}`, { body: { name: 'g1', members: ['ghost'] } })).body.code).toBe(-1);
    expect((await api.ok<GroupDetail>('GET', `/user-groups/${g1.id}`)).members).toHaveLength(1); // members kept
    expect((await api.call('PUT', '/user-groups/ghost', { body: { name: 'x', members: [] } })).body).toMatchObject({ code: -1, message: '用户组不存在：ghost' });
    expect((await api.call('POST', '/user-groups', { body: { name: 'x'.repeat(65), members: [] } })).body.message).toBe('name: at most 64 characters');

    expect((await api.call('DELETE', `/user-groups/${g1.id},ghost`)).body.code).toBe(-1);
    expect((await api.ok<unknown[]>('GET', '/user-groups')).length).toBe(2);
    await api.ok('DELETE', `/user-groups/${g1.id},${g2.id}`);
    expect(await api.ok('GET', '/user-groups')).toEqual([]);
    expect(await h.db.selectFrom('userGroupMembers').select('id').execute()).toEqual([]);
  });

  it('pages for real with the name filter and sorting', async () => {
    const { h, api } = await identityHarness();
    for (let i = 0; i < 7; i++) {
      h.clock.advance(1000);
      await api.ok('POST', '/user-groups', { body: { name: `team-${i}`, members: [] } });
    }
    await api.ok('POST', '/user-groups', { body: { name: 'other', members: [] } });
    const page = (q: string) => api.ok<Paged<{ name: string; assetCount: number }>>('GET', `/user-groups/paging?${q}`);
    const p = await page('pageIndex=2&pageSize=3');
    expect(p.total).toBe(8);
    expect(p.items.map((g) => g.name)).toEqual(['team-4', 'team-3', 'team-2']);
    expect(p.items[0]!.assetCount).toBe(0);
    expect((await page('name=team&pageSize=2&field=name&order=ascend')).items.map((g) => g.name)).toEqual(['team-0', 'team-1']);
    expect((await page('name=team')).total).toBe(7);
    expect((await page('pageSize=1&field=name&order=descend')).items[0]!.name).toBe('team-6');
  });
});
