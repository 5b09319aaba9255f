import { describe, expect, it } from 'vitest';
import { sign, uuid } from '../../../server/lib/ids.ts';
import { SUPER_ADMIN_ID } from '../../../server/permissions/effective.ts';
import { accessHarness, type Paged, type PortalItem } from './helpers.ts';

// Past 2 000 matches the portal list walks the order's index instead of sorting every match (assets/list.ts
// SORT_FROM_IDS): both ways must give the same pages and totals.
describe('a portal list larger than the sort-from-ids limit', () => {
  it('pages, counts, filters and sorts like a small one', async () => {
    const t = await accessHarness();
    const u = await t.user('ursula');
    const g = await t.group('big', [u.id]);
    const now = t.h.clock.now();
    const assets = Array.from({ length: 3000 }, (_, i) => ({
      id: uuid(),
      name: `host-${String((i * 7919) % 3000).padStart(4, '0')}`, // names not in creation order
      protocol: 'ssh' as const,
      ip: '10.0.0.1',
      port: 22,
      accountType: 'custom' as const,
      username: 'root',
      password: null,
      privateKey: null,
      passphrase: null,
      credentialId: null,
      accessGatewayId: null,
      description: '',
      active: 1,
      activeMessage: '',
      created: now - 10_000 + i,
      lastAccessTime: null,
      owner: SUPER_ADMIN_ID,
    }));
    for (let i = 0; i < assets.length; i += 200) await t.h.db.insertInto('assets').values(assets.slice(i, i + 200)).execute();
    // Every asset but one in 10 is granted to the group (2 700 > 2 000); one in 30 of those has expired.
    const granted = assets.filter((_, i) => i % 10 !== 0);
    const rows = granted.map((a, k) => ({ id: sign([a.id, '', g]), assetId: a.id, userId: null, userGroupId: g, strategyId: null, commandFilterId: null, validFrom: null, validUntil: k % 30 === 0 ? now : null, created: now }));
    for (let i = 0; i < rows.length; i += 200) await t.h.db.insertInto('authorised').values(rows.slice(i, i + 200)).execute();
    const visible = granted.filter((_, k) => k % 30 !== 0);
    expect(visible.length).toBe(2610);

    const list = (query: Record<string, string>) => t.as(u.token).ok<Paged<PortalItem>>('GET', '/worker/assets/paging', { query });
    const newest = [...visible].sort((a, b) => b.created - a.created).map((a) => a.name);
    expect(await list({ pageSize: '10' })).toMatchObject({ total: 2610 });
    expect((await list({ pageSize: '10' })).items.map((i) => i.name)).toEqual(newest.slice(0, 10));
    expect((await list({ pageSize: '25', pageIndex: '40' })).items.map((i) => i.name)).toEqual(newest.slice(975, 1000));
    const byName = [...visible].map((a) => a.name).sort();
    expect((await list({ pageSize: '10', field: 'name', order: 'ascend' })).items.map((i) => i.name)).toEqual(byName.slice(0, 10));
    const filtered = await list({ pageSize: '1000', name: 'host-1' });
    expect(filtered.total).toBe(visible.filter((a) => a.name.includes('host-1')).length);
    expect(filtered.items.map((i) => i.name)).toEqual(newest.filter((n) => n.includes('host-1')));
    expect(await list({ pageSize: '10', pageIndex: '262' })).toMatchObject({ total: 2610, items: [] });
  });
});
