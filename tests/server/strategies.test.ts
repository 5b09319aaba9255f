import { describe, expect, it } from 'vitest';
import { sign } from '../../server/lib/ids.ts';
import { accessHarness } from './access/helpers.ts';
import { adminWith, type Paged, resourcesHarness } from './resources/helpers.ts';

interface Strategy {
  id: string;
  name: string;
  upload: boolean;
  download: boolean;
  delete: boolean;
  rename: boolean;
  edit: boolean;
  createDir: boolean;
  copy: boolean;
  paste: boolean;
  created: string;
}

const OFF = { upload: false, download: false, delete: false, rename: false, edit: false, createDir: false, copy: false, paste: false };

describe('strategies', () => {
  it('creates, reads, lists, updates (flags can be turned off) and deletes', async () => {
    const { h, api } = await resourcesHarness();
    const { id } = await api.ok<{ id: string }>('POST', '/strategies', { body: { name: ' read-only ', ...OFF, download: true, copy: true } });
    const stored = await h.db.selectFrom('strategies').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ name: 'read-only', upload: 0, download: 1, delete: 0, createDir: 0, copy: 1, paste: 0 });
    const detail = await api.ok<Strategy>('GET', `/strategies/${id}`);
    expect(detail).toEqual({ id, name: 'read-only', ...OFF, download: true, copy: true, created: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/) });
    expect(await api.ok('GET', '/strategies')).toEqual([detail]);

    // 1.3.9 could not turn a flag off (quirk 19); absent flags are off.
    expect(await api.ok('PUT', `/strategies/${id}`, { body: { name: 'all', upload: true, download: false, delete: true, rename: true, edit: true, createDir: true, copy: false } })).toBe('');
    expect(await api.ok<Strategy>('GET', `/strategies/${id}`)).toMatchObject({ name: 'all', upload: true, download: false, createDir: true, copy: false, paste: false });

    expect((await api.call('GET', '/strategies/ghost')).body).toEqual({ code: -1, message: '授权策略不存在：ghost' });
    expect((await api.call('PUT', '/strategies/ghost', { body: { name: 'x' } })).body).toEqual({ code: -1, message: '授权策略不存在：ghost' });
    await api.ok('DELETE', `/strategies/${id}`);
    expect(await h.db.selectFrom('strategies').select('id').execute()).toEqual([]);
  });

  it('keeps names unique (create and rename) and validates the body', async () => {
    const { h, api } = await resourcesHarness();
    const a = await api.ok<{ id: string }>('POST', '/strategies', { body: { name: 'a' } });
    await api.ok('POST', '/strategies', { body: { name: 'b' } });
    expect((await api.call('POST', '/strategies', { body: { name: ' a' } })).body).toEqual({ code: -1, message: '授权策略名称「a」已存在' });
    expect((await api.call('PUT', `/strategies/${a.id}`, { body: { name: 'b' } })).body).toEqual({ code: -1, message: '授权策略名称「b」已存在' });
    await api.ok('PUT', `/strategies/${a.id}`, { body: { name: 'a', upload: true } }); // its own name is free
    expect((await api.call('POST', '/strategies', { body: { name: '' } })).body).toEqual({ code: 400, message: 'name: required' });
    expect((await api.call('POST', '/strategies', { body: { name: 'x'.repeat(65) } })).body.code).toBe(400);
    expect((await api.call('POST', '/strategies', { body: { name: 'c', upload: 'true' } })).body).toMatchObject({ code: 400, message: expect.stringMatching(/^upload: /) });
    expect((await api.call('POST', '/strategies', { body: { name: 'c', paste: 1 } })).body.code).toBe(400);
    expect(await h.db.selectFrom('strategies').select('name').orderBy('name').execute()).toEqual([{ name: 'a' }, { name: 'b' }]);
  });

  it('pages for real, filters by name (escaped LIKE), sorts by name or created', async () => {
    const { h, api } = await resourcesHarness();
    for (const name of ['ops', 'dev', 'audit', 'dev-ro', '100%']) {
      h.clock.advance(1000);
      await api.ok('POST', '/strategies', { body: { name } });
    }
    const page = (q: string) => api.ok<Paged<Strategy>>('GET', `/strategies/paging?${q}`);
    const names = (p: Paged<Strategy>) => p.items.map((s) => s.name);
    expect(await page('')).toMatchObject({ total: 5 });
    expect(names(await page(''))).toEqual(['100%', 'dev-ro', 'audit', 'dev', 'ops']);
    expect(await page('pageIndex=2&pageSize=2')).toMatchObject({ total: 5, items: [{ name: 'audit' }, { name: 'dev' }] });
    expect(await page('pageIndex=3&pageSize=2')).toMatchObject({ total: 5, items: [{ name: 'ops' }] });
    expect(names(await page('name=dev'))).toEqual(['dev-ro', 'dev']);
    expect((await page('name=dev')).total).toBe(2);
    expect(names(await page('name=%25'))).toEqual(['100%']);
    expect(names(await page('name=_'))).toEqual([]);
    expect(names(await page('field=name&order=ascend'))).toEqual(['100%', 'audit', 'dev', 'dev-ro', 'ops']);
    expect(names(await page('field=bogus&order=ascend'))).toEqual(['ops', 'dev', 'audit', 'dev-ro', '100%']);
    expect((await page('pageSize=1')).items[0]).toEqual({ id: expect.any(String), name: '100%', ...OFF, created: expect.any(String) });
    // GET /strategies: everything, by name.
    expect((await api.ok<Strategy[]>('GET', '/strategies')).map((s) => s.name)).toEqual(['100%', 'audit', 'dev', 'dev-ro', 'ops']);
  });

  it('deletes comma lists all or nothing', async () => {
    const { h, api } = await resourcesHarness();
    const a = await api.ok<{ id: string }>('POST', '/strategies', { body: { name: 'a' } });
    const b = await api.ok<{ id: string }>('POST', '/strategies', { body: { name: 'b' } });
    expect((await api.call('DELETE', `/strategies/${a.id},ghost,${b.id}`)).body).toEqual({ code: -1, message: '授权策略不存在：ghost', data: ['ghost'] });
    expect(await h.db.selectFrom('strategies').select('id').execute()).toHaveLength(2);
    await api.ok('DELETE', `/strategies/${b.id}, ${a.id},${a.id}`);
    expect(await h.db.selectFrom('strategies').select('id').execute()).toEqual([]);
  });

  it('gates each route by its key, method included', async () => {
    const { h, api, as } = await resourcesHarness();
    const { id } = await api.ok<{ id: string }>('POST', '/strategies', { body: { name: 'a' } });
    const lister = as((await adminWith(h, ['strategy'], 'lister')).token);
    expect((await lister.call('GET', '/strategies/paging')).body.code).toBe(1);
    expect((await lister.call('GET', '/strategies')).body.code).toBe(1);
    expect((await lister.call('GET', `/strategies/${id}`)).body.code).toBe(403);
    expect((await lister.call('POST', '/strategies', { body: { name: 'x' } })).body.code).toBe(403);
    const detail = as((await adminWith(h, ['strategy-detail'], 'viewer')).token);
    expect((await detail.call('GET', `/strategies/${id}`)).body.code).toBe(1);
    expect((await detail.call('PUT', `/strategies/${id}`, { body: { name: 'b' } })).body.code).toBe(403);
    expect((await detail.call('DELETE', `/strategies/${id}`)).body.code).toBe(403);
    const editor = as((await adminWith(h, ['strategy-edit'], 'editor')).token);
    expect((await editor.call('PUT', `/strategies/${id}`, { body: { name: 'b' } })).body.code).toBe(1);
    expect((await editor.call('DELETE', `/strategies/${id}`)).body.code).toBe(403);
    // The grant dialogs pick a strategy from GET /strategies.
    for (const key of ['asset-authorised-user', 'asset-authorised-user-group', 'user-bind-asset', 'user-group-bind-asset'] as const) {
      const picker = as((await adminWith(h, [key], `picker-${key}`)).token);
      expect((await picker.call('GET', '/strategies')).body.code, key).toBe(1);
      expect((await picker.call('GET', '/strategies/paging')).body.code, key).toBe(403);
    }
    const deleter = as((await adminWith(h, ['strategy-del'], 'deleter')).token);
    await deleter.ok('DELETE', `/strategies/${id}`);
  });

  it('works with the authorisations: a strategy in use is not deleted, an unknown one is not bound, explain names it', async () => {
    const { h, api } = await resourcesHarness();
    const userId = await h.createUser({ username: 'alice', type: 'user' });
    const asset = async (name: string) =>
      (await api.ok<{ id: string }>('POST', '/assets', { body: { name, protocol: 'ssh', ip: '10.0.0.7', port: 22, accountType: 'custom', username: 'root' } })).id;
    const [web, db] = [await asset('web'), await asset('db')];
    const used = (await api.ok<{ id: string }>('POST', '/strategies', { body: { name: 'used', download: true } })).id;
    const free = (await api.ok<{ id: string }>('POST', '/strategies', { body: { name: 'free' } })).id;
    await api.ok('POST', '/authorised/assets', { body: { assetIds: [web, db], userId, strategyId: used } });

    expect((await api.call('DELETE', `/strategies/${free},${used}`)).body).toEqual({ code: -1, message: '授权策略「used」仍被 2 个授权使用，不能删除', data: { [used]: 2 } });
    expect(await h.db.selectFrom('strategies').select('name').orderBy('name').execute()).toEqual([{ name: 'free' }, { name: 'used' }]);

    const grants = () => h.db.selectFrom('authorised').select(['assetId', 'strategyId']).orderBy('assetId').execute();
    const before = await grants();
    expect((await api.call('POST', '/authorised/users', { body: { userIds: [userId], assetId: web, strategyId: 'ghost' } })).body).toEqual({ code: -1, message: '授权策略不存在：ghost' });
    expect(await grants()).toEqual(before);

    const explained = await api.ok<{ allowed: boolean; strategy: unknown; grants: { strategyName: string }[] }>('GET', `/authorised/explain?userId=${userId}&assetId=${web}`);
    expect(explained).toMatchObject({ allowed: true, strategy: { id: used, name: 'used', download: true, upload: false }, grants: [{ strategyName: 'used' }] });

    // Once no grant uses it, it goes.
    await api.ok('POST', '/authorised/assets', { body: { assetIds: [web, db], userId, strategyId: free } });
    await api.ok('DELETE', `/strategies/${used}`);
    expect((await api.call('DELETE', `/strategies/${free}`)).body.message).toBe('授权策略「free」仍被 2 个授权使用，不能删除');
  });
});

describe('strategy edits never widen (issue 28, rule 1)', () => {
  const strategyOf = async (t: Awaited<ReturnType<typeof accessHarness>>, id: string) => t.api.ok<Strategy>('GET', `/strategies/${id}`);

  it('a strategy-edit holder cannot loosen the strategy that restricts its own grant (the reproduction), directly or through a group', async () => {
    const t = await accessHarness();
    const a = await t.asset('prod-db');
    const b = await t.asset('web');
    const readOnly = (await t.api.ok<{ id: string }>('POST', '/strategies', { body: { name: '只读', ...OFF, download: true } })).id;
    const viaGroup = (await t.api.ok<{ id: string }>('POST', '/strategies', { body: { name: '组策略', ...OFF } })).id;
    const editor = await adminWith(t.h, ['strategy', 'strategy-edit', 'strategy-del'], 'editor');
    await t.api.ok('POST', '/authorised/users', { body: { userIds: [editor.id], assetId: a, strategyId: readOnly } });
    const g = await t.group('ops', [editor.id]);
    await t.api.ok('POST', '/authorised/user-groups', { body: { userGroupIds: [g], assetId: b, strategyId: viaGroup } });
    const as = t.as(editor.token);

    const before = await strategyOf(t, readOnly);
    expect((await as.call('PUT', `/strategies/${readOnly}`, { body: { name: '只读', ...OFF, download: true, upload: true, paste: true } })).body).toEqual({
      code: -1,
      message: '不能修改授权策略「只读」：它限制着授予您自己或您所在用户组的授权',
      data: [readOnly],
    });
    expect(await strategyOf(t, readOnly)).toEqual(before);
    expect((await t.explain(editor.id, a)).strategy).toMatchObject({ upload: false, paste: false });
    expect((await as.call('PUT', `/strategies/${viaGroup}`, { body: { name: '组策略', ...OFF, copy: true } })).body).toMatchObject({ code: -1, message: '不能修改授权策略「组策略」：它限制着授予您自己或您所在用户组的授权' });
    expect((await as.call('DELETE', `/strategies/${readOnly}`)).body).toMatchObject({ code: -1, message: '不能修改授权策略「只读」：它限制着授予您自己或您所在用户组的授权' });
    expect(await strategyOf(t, viaGroup)).toMatchObject({ copy: false });
    // A rename changes no right.
    await as.ok('PUT', `/strategies/${readOnly}`, { body: { name: '只读（生产）', ...OFF, download: true } });
    // The super admin may.
    await t.api.ok('PUT', `/strategies/${readOnly}`, { body: { name: '只读', ...OFF, download: true, upload: true } });
  });

  it('re-states every grant carrying it: the editor acts on their holders, opens their assets, and widens no grant beyond its own', async () => {
    const t = await accessHarness();
    const a = await t.asset('prod-db');
    const b = await t.asset('web');
    const dl = (await t.api.ok<{ id: string }>('POST', '/strategies', { body: { name: 'dl', ...OFF, download: true } })).id;
    const shared = (await t.api.ok<{ id: string }>('POST', '/strategies', { body: { name: 'shared', ...OFF, download: true } })).id;
    const editor = await adminWith(t.h, ['strategy', 'strategy-edit'], 'editor');
    await t.api.ok('POST', '/authorised/users', { body: { userIds: [editor.id], assetId: a, strategyId: dl } });
    const ann = await t.user('ann');
    await t.api.ok('POST', '/authorised/users', { body: { userIds: [ann.id], assetId: a, strategyId: shared } });
    const as = t.as(editor.token);

    // Turning upload on would let ann upload to prod-db, where the editor itself may only download.
    expect((await as.call('PUT', `/strategies/${shared}`, { body: { name: 'shared', ...OFF, download: true, upload: true } })).body).toMatchObject({
      code: -1,
      message: '不能授予比您自己的授权更宽的授权：资产「prod-db」上，新授权的授权策略「shared」允许您的授权的授权策略「dl」不允许的操作（上传）',
    });
    expect(await strategyOf(t, shared)).toMatchObject({ upload: false, download: true });
    // Narrowing is within its reach.
    await as.ok('PUT', `/strategies/${shared}`, { body: { name: 'shared', ...OFF } });

    // A holder it may not act on (keys it lacks), or an asset it cannot open: refused, even narrowing.
    const mighty = await adminWith(t.h, ['asset', 'asset-del'], 'mighty');
    await t.api.ok('POST', '/authorised/users', { body: { userIds: [mighty.id], assetId: a, strategyId: shared } });
    expect((await as.call('PUT', `/strategies/${shared}`, { body: { name: 'shared', ...OFF, download: true } })).body).toMatchObject({
      code: -1,
      message: expect.stringMatching(/^不能调整账户「mighty」的资产授权：该账户拥有您没有的权限（asset, asset-del）/),
    });
    await t.api.ok('DELETE', `/authorised/${sign([a, mighty.id, ''])}`);
    await t.api.ok('POST', '/authorised/users', { body: { userIds: [ann.id], assetId: b, strategyId: shared } });
    expect((await as.call('PUT', `/strategies/${shared}`, { body: { name: 'shared', ...OFF, download: true } })).body).toMatchObject({
      code: -1,
      message: '不能授权您自己无权访问的资产：web',
    });
    expect(await strategyOf(t, shared)).toMatchObject({ download: false });
  });
});
