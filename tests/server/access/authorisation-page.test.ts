import { describe, expect, it } from 'vitest';
import { sign } from '../../../server/lib/ids.ts';
import { adminWith } from '../identity/helpers.ts';
import { accessHarness, type Paged } from './helpers.ts';

// The 资产授权 page's routes: GET /authorised/paging (every grant), POST /authorised/bulk (subjects × assets), and
// DELETE /authorised/:id with a comma list (the page's selection).

interface GrantItem {
  id: string;
  kind: 'user' | 'group';
  userId: string;
  userName: string;
  userGroupId: string;
  userGroupName: string;
  assetId: string;
  assetName: string;
  protocol: string;
  strategyId: string;
  strategyName: string;
  validFrom: string;
  validUntil: string;
  state: string;
  created: string;
}

const HOUR = 3_600_000;

/** A harness with assets web and desk, users ann and ben, group ops (ann), a strategy, and a few grants. */
async function seeded() {
  const t = await accessHarness();
  const web = await t.asset('web');
  const desk = await t.asset('desk', { protocol: 'rdp', port: 3389 });
  const ann = await t.user('ann');
  const ben = await t.user('ben');
  const ops = await t.group('ops', [ann.id]);
  const { id: readOnly } = await t.api.ok<{ id: string }>('POST', '/strategies', {
    body: { name: '只读', upload: false, download: true, delete: false, rename: false, edit: false, createDir: false, copy: true, paste: false },
  });
  const list = (query: Record<string, string> = {}) => t.api.ok<Paged<GrantItem>>('GET', '/authorised/paging', { query: { pageSize: '100', ...query } });
  return { t, web, desk, ann, ben, ops, readOnly, list };
}

describe('GET /authorised/paging', () => {
  it('lists every grant, users and groups alike, with its terms and state; real totals and paging', async () => {
    const { t, web, desk, ann, ben, ops, readOnly, list } = await seeded();
    await t.api.ok('POST', '/authorised/users', { body: { userIds: [ann.id], assetId: web, strategyId: readOnly, validUntil: t.at(HOUR) } });
    t.h.clock.advance(1000);
    await t.api.ok('POST', '/authorised/user-groups', { body: { userGroupIds: [ops], assetId: desk, validFrom: t.at(HOUR) } });
    t.h.clock.advance(1000);
    await t.api.ok('POST', '/authorised/users', { body: { userIds: [ben.id], assetId: desk } });

    const all = await list();
    expect(all.total).toBe(3);
    // Newest first.
    expect(all.items.map((i) => [i.kind, i.userName || i.userGroupName, i.assetName, i.state])).toEqual([
      ['user', 'ben', 'desk', 'active'],
      ['group', 'ops', 'desk', 'pending'],
      ['user', 'ann', 'web', 'active'],
    ]);
    expect(all.items[2]).toEqual({
      id: sign([web, ann.id, '']),
      kind: 'user',
      userId: ann.id,
      userName: 'ann',
      userGroupId: '',
      userGroupName: '',
      assetId: web,
      assetName: 'web',
      protocol: 'ssh',
      strategyId: readOnly,
      strategyName: '只读',
      validFrom: '',
      validUntil: all.items[2]!.validUntil,
      state: 'active',
      created: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
    });
    expect(all.items[1]).toMatchObject({ kind: 'group', userId: '', userName: '', userGroupId: ops, userGroupName: 'ops', protocol: 'rdp', strategyId: '', strategyName: '', validUntil: '' });

    const first = await list({ pageSize: '2', pageIndex: '1' });
    const second = await list({ pageSize: '2', pageIndex: '2' });
    expect([first.total, second.total]).toEqual([3, 3]);
    expect([...first.items, ...second.items].map((i) => i.id)).toEqual(all.items.map((i) => i.id));

    // Search by who (a user's nickname or a group's name) and by asset; filter by kind and by state now.
    expect((await list({ name: 'op' })).items.map((i) => i.userGroupName)).toEqual(['ops']);
    expect((await list({ name: 'n' })).items.map((i) => i.userName)).toEqual(['ben', 'ann']);
    expect((await list({ assetName: 'des' })).total).toBe(2);
    expect((await list({ kind: 'group' })).items.map((i) => i.id)).toEqual([sign([desk, '', ops])]);
    expect((await list({ kind: 'user', assetName: 'desk' })).items.map((i) => i.userName)).toEqual(['ben']);
    expect((await list({ state: 'pending' })).items.map((i) => i.userGroupName)).toEqual(['ops']);
    expect((await list({ assetId: web })).items.map((i) => i.userName)).toEqual(['ann']);
    t.h.clock.advance(2 * HOUR);
    expect((await list({ state: 'expired' })).items.map((i) => i.userName)).toEqual(['ann']);
    expect((await list({ state: 'active' })).items.map((i) => i.userName || i.userGroupName)).toEqual(['ben', 'ops']);
    expect((await list({ kind: '', state: '', name: '' })).total).toBe(3);

    // Sorts by who across both kinds, by asset name, by the end of the window.
    expect((await list({ field: 'name', order: 'ascend' })).items.map((i) => i.userName || i.userGroupName)).toEqual(['ann', 'ben', 'ops']);
    expect((await list({ field: 'assetName', order: 'ascend' })).items.map((i) => i.assetName)).toEqual(['desk', 'desk', 'web']);
    expect((await list({ field: 'userName; drop table users' })).total).toBe(3); // unknown fields fall back to created
  });

  it('refuses bad input with a 400 naming the field', async () => {
    const { t } = await seeded();
    const bad = async (query: Record<string, string>, field: string) =>
      expect((await t.api.call('GET', '/authorised/paging', { query })).body).toMatchObject({ code: 400, message: expect.stringMatching(new RegExp(`^${field}: `)) });
    await bad({ kind: 'robot' }, 'kind');
    await bad({ state: 'soon' }, 'state');
    await bad({ name: 'x'.repeat(129) }, 'name');
    await bad({ assetName: 'x'.repeat(129) }, 'assetName');
    await bad({ pageSize: '0' }, 'pageSize');
    await bad({ pageIndex: 'one' }, 'pageIndex');
  });
});

describe('POST /authorised/bulk', () => {
  it('grants every user and group every asset with one set of terms, replacing earlier grants of the same pairs unless they are stricter', async () => {
    const { t, web, desk, ann, ben, ops, readOnly, list } = await seeded();
    await t.api.ok('POST', '/authorised/users', { body: { userIds: [ann.id], assetId: web } });
    const answer = await t.api.ok('POST', '/authorised/bulk', {
      body: { userIds: [ann.id, ben.id, ann.id], userGroupIds: [ops], assetIds: [web, desk], strategyId: readOnly, validFrom: t.at(-HOUR), validUntil: t.at(HOUR) },
    });
    expect(answer).toEqual({ granted: 6 });
    const rows = await t.grants();
    expect(rows).toHaveLength(6);
    expect(new Set(rows.map((r) => r.strategyId))).toEqual(new Set([readOnly]));
    expect(rows.map((r) => r.id).sort()).toEqual(
      [web, desk].flatMap((a) => [sign([a, ann.id, '']), sign([a, ben.id, '']), sign([a, '', ops])]).sort(),
    );
    expect((await list({ state: 'active' })).total).toBe(6);
    expect(await t.sees(ben.token)).toEqual(['desk', 'web']);

    // Only groups, no strategy, open window: broader than the read-only, one-hour grant of that pair, which is never
    // replaced silently (delegation never widens), not even by the super admin: refused, nothing written.
    const before = await t.grants();
    expect((await t.api.call('POST', '/authorised/bulk', { body: { userGroupIds: [ops], assetIds: [web] } })).body).toMatchObject({
      code: -1,
      message: expect.stringMatching(/^已有更严格的授权（web → ops）：现有授权受授权策略「只读」限制，新授权不能没有授权策略；现有授权有效期至 .*请先移除现有授权，再重新授权$/),
      data: [sign([web, '', ops])],
    });
    expect(await t.grants()).toEqual(before);
    // Removed first, then granted again: the pair's row is replaced (strategy gone).
    await t.api.ok('DELETE', `/authorised/${sign([web, '', ops])}`);
    expect(await t.api.ok('POST', '/authorised/bulk', { body: { userGroupIds: [ops], assetIds: [web] } })).toEqual({ granted: 1 });
    expect((await t.grants()).find((r) => r.id === sign([web, '', ops]))).toMatchObject({ strategyId: null, validFrom: null, validUntil: null });
    expect(await t.grants()).toHaveLength(6);
  });

  it('says what is wrong: 400 naming the field for bad input, -1 for unknown records and a reversed window; nothing written', async () => {
    const { t, web, ann, ops } = await seeded();
    const call = (body: unknown) => t.api.call('POST', '/authorised/bulk', { body });
    const bad = async (body: unknown, field: string, text?: string) =>
      expect((await call(body)).body).toMatchObject({ code: 400, message: expect.stringMatching(new RegExp(`^${field}: ${text ?? ''}`)) });
    await bad({ assetIds: [web] }, 'userIds', 'at least one user or user group');
    await bad({ userIds: [], userGroupIds: [], assetIds: [web] }, 'userIds', 'at least one user or user group');
    await bad({ userIds: [ann.id] }, 'assetIds');
    await bad({ userIds: [ann.id], assetIds: [] }, 'assetIds', 'at least one id');
    await bad({ userIds: 'ann', assetIds: [web] }, 'userIds');
    await bad({ userIds: [ann.id], assetIds: [web], validFrom: '12/01/2026' }, 'validFrom');
    await bad({ userIds: [ann.id], assetIds: [web], strategyId: 'x'.repeat(65) }, 'strategyId');
    // At most 5000 pairs: 500 users × 11 assets is refused before anything is looked up.
    const many = Array.from({ length: 500 }, (_, i) => `u${i}`);
    await bad({ userIds: many, assetIds: Array.from({ length: 11 }, (_, i) => `a${i}`) }, 'assetIds', 'at most 5000 grants');
    expect((await call('not json')).body).toMatchObject({ code: 400 });

    expect((await call({ userIds: [ann.id], assetIds: [web, 'nope'] })).body).toMatchObject({ code: -1, message: '资产不存在：nope' });
    expect((await call({ userIds: [ann.id, 'ghost'], assetIds: [web] })).body).toMatchObject({ code: -1, message: '用户不存在：ghost' });
    expect((await call({ userGroupIds: [ops, 'ghosts'], assetIds: [web] })).body).toMatchObject({ code: -1, message: '用户组不存在：ghosts' });
    expect((await call({ userIds: [ann.id], assetIds: [web], strategyId: 'nope' })).body).toMatchObject({ code: -1 });
    expect((await call({ userIds: [ann.id], assetIds: [web], validFrom: t.at(HOUR), validUntil: t.at(HOUR) })).body).toMatchObject({
      code: -1,
      message: '授权结束时间必须晚于开始时间',
    });
    expect(await t.grants()).toEqual([]);
  });
});

describe('a narrow admin on the authorisation page', () => {
  it('sees only the grants on assets it may open, grants and removes only within its reach, all or nothing', async () => {
    const { t, web, desk, ann, ben, ops } = await seeded();
    const vault = await t.asset('vault');
    const granter = await adminWith(t.h, ['authorisation', 'authorisation-add', 'authorisation-del'], 'granter');
    const mighty = await adminWith(t.h, ['asset', 'asset-del'], 'mighty');
    const as = t.as(granter.token);
    // The granter may open web and desk, not vault.
    await t.api.ok('POST', '/authorised/bulk', { body: { userIds: [granter.id], assetIds: [web, desk] } });
    await t.api.ok('POST', '/authorised/bulk', { body: { userIds: [ben.id], userGroupIds: [ops], assetIds: [vault] } });
    await t.api.ok('POST', '/authorised/bulk', { body: { userIds: [mighty.id], assetIds: [web] } });

    const seen = await as.ok<Paged<GrantItem>>('GET', '/authorised/paging', { query: { pageSize: '100' } });
    expect(seen.total).toBe(3);
    expect(seen.items.map((i) => `${i.userName}→${i.assetName}`).sort()).toEqual(['granter→desk', 'granter→web', 'mighty→web']);
    // The super admin sees all five.
    expect((await t.api.ok<Paged<GrantItem>>('GET', '/authorised/paging')).total).toBe(5);

    const before = await t.grants();
    expect((await as.call('POST', '/authorised/bulk', { body: { userIds: [ann.id], assetIds: [web, vault] } })).body).toMatchObject({
      code: -1,
      message: '不能授权您自己无权访问的资产：vault',
    });
    // (mighty alone: ann is beyond reach too, and which of two refusals is named first follows their random ids)
    expect((await as.call('POST', '/authorised/bulk', { body: { userIds: [mighty.id], assetIds: [web] } })).body).toMatchObject({
      code: -1,
      message: expect.stringMatching(/^不能调整账户「mighty」的资产授权：该账户拥有您没有的权限（.*asset-del/),
    });
    // A selection holding one row beyond its reach removes nothing.
    const vaultRow = sign([vault, ben.id, '']);
    expect((await as.call('DELETE', `/authorised/${sign([web, granter.id, ''])},${vaultRow}`)).body).toMatchObject({ code: -1, message: '不能授权您自己无权访问的资产：vault' });
    expect((await as.call('DELETE', `/authorised/${sign([web, mighty.id, ''])}`)).body).toMatchObject({ code: -1 });
    expect((await as.call('DELETE', `/authorised/nope,${sign([web, granter.id, ''])}`)).body).toMatchObject({ code: -1, message: '授权不存在：nope' });
    expect(await t.grants()).toEqual(before);

    // Ann reaches vault through ops: acting on her would widen what the granter controls. A user and a group within
    // its reach are granted several assets, and a selection is removed in one call.
    const cid = await t.user('cid');
    const devs = await t.group('devs', [cid.id]);
    expect(await as.ok('POST', '/authorised/bulk', { body: { userIds: [cid.id], userGroupIds: [devs], assetIds: [web, desk] } })).toEqual({ granted: 4 });
    expect(await t.sees(cid.token)).toEqual(['desk', 'web']);
    await as.ok('DELETE', `/authorised/${sign([web, cid.id, ''])},${sign([web, '', devs])}`);
    expect(await t.sees(cid.token)).toEqual(['desk']);
    expect((await as.call('POST', '/authorised/bulk', { body: { userIds: [ann.id], assetIds: [web] } })).body).toMatchObject({
      code: -1,
      message: '不能调整账户「ann」的资产授权：该账户可以访问您无权访问的资产（vault）',
    });
  });

  it('needs the keys: the list with authorisation, the grant with authorisation-add, the removal with authorisation-del', async () => {
    const { t, web, ann } = await seeded();
    const viewer = await adminWith(t.h, ['authorisation'], 'viewer');
    const as = t.as(viewer.token);
    expect((await as.call('GET', '/authorised/paging')).body).toMatchObject({ code: 1 });
    expect((await as.call('POST', '/authorised/bulk', { body: { userIds: [ann.id], assetIds: [web] } })).body).toMatchObject({ code: 403 });
    expect((await as.call('DELETE', '/authorised/x')).body).toMatchObject({ code: 403 });
    expect((await t.as(ann.token).call('GET', '/authorised/paging')).body).toMatchObject({ code: 403 });
  });
});
