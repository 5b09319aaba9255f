import { describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../harness.ts';
import { adminWith, type Paged } from '../identity/helpers.ts';
import { insertAsset, insertStorageLog, local } from '../overview/rows.ts';

interface StorageLogItem {
  id: string;
  assetId: string;
  sessionId: string;
  userId: string;
  action: string;
  fileName: string;
  created: string;
  assetName: string;
  userName: string;
}

const page = async (h: Harness, token: string, query: Record<string, string> = {}) => {
  const res = await h.call('GET', '/storage-logs/paging', { token, query: { pageIndex: '1', pageSize: '10', ...query } });
  expect(res.body.code, res.text).toBe(1);
  return res.body.data as Paged<StorageLogItem>;
};

async function seedLogs(h: Harness) {
  const web = await insertAsset(h.db, { name: 'web-1' });
  const db1 = await insertAsset(h.db, { name: 'db-1' });
  const ann = await h.createUser({ username: 'ann' });
  await h.db.updateTable('users').set({ nickname: 'Ann A.' }).where('id', '=', ann).execute();
  const bob = await h.createUser({ username: 'bob' });
  const actions = ['upload', 'download', 'mkdir', 'rm', 'rename', 'edit'] as const;
  const ids: string[] = [];
  for (let i = 0; i < 12; i++) {
    ids.push(
      await insertStorageLog(h.db, {
        assetId: i % 3 ? web : db1,
        userId: i % 2 ? ann : bob,
        action: actions[i % 6]!,
        fileName: i % 6 === 4 ? `/tmp/a${i} -> /tmp/b${i}` : `/tmp/f${i}`,
        created: local(2026, 4, 1, 9, i),
        sessionId: `s-${i}`,
      }),
    );
  }
  return { web, db1, ann, bob, ids };
}

describe('GET /storage-logs/paging', () => {
  it('newest first, real paging, filters by asset, user and action, with the asset name and user nickname', async () => {
    const h = await startHarness();
    const { token } = await adminWith(h, ['storage-log'], 'auditor');
    const { web, db1, ann, bob } = await seedLogs(h);

    const first = await page(h, token, { pageSize: '5' });
    expect(first.total).toBe(12);
    expect(first.items.map((r) => r.sessionId)).toEqual(['s-11', 's-10', 's-9', 's-8', 's-7']);
    expect(first.items[0]).toEqual({
      id: expect.any(String),
      assetId: web,
      sessionId: 's-11',
      userId: ann,
      action: 'edit',
      fileName: '/tmp/f11',
      created: '2026-04-01 09:11:00',
      assetName: 'web-1',
      userName: 'Ann A.',
    });
    expect((await page(h, token, { pageSize: '5', pageIndex: '3' })).items.map((r) => r.sessionId)).toEqual(['s-1', 's-0']);
    expect((await page(h, token, { order: 'ascend' })).items[0]!.sessionId).toBe('s-0');
    // `field` is whitelisted: anything else is the default order, never SQL (quirk 5).
    expect((await page(h, token, { field: 'created; drop table storage_logs' })).items[0]!.sessionId).toBe('s-11');

    expect((await page(h, token, { assetId: db1 })).items.map((r) => r.sessionId)).toEqual(['s-9', 's-6', 's-3', 's-0']);
    expect((await page(h, token, { userId: bob })).total).toBe(6);
    expect((await page(h, token, { action: 'rename' })).items.map((r) => r.fileName)).toEqual(['/tmp/a10 -> /tmp/b10', '/tmp/a4 -> /tmp/b4']);
    expect((await page(h, token, { action: 'rm', userId: ann })).items.map((r) => r.sessionId)).toEqual(['s-9', 's-3']);
    expect((await page(h, token, { action: 'rm', userId: ann, assetId: web })).total).toBe(0);
    expect((await page(h, token, { action: '' })).total).toBe(12);
    expect((await h.call('GET', '/storage-logs/paging', { token, query: { action: 'format' } })).body.code).toBe(400);
  });

  it("keeps the rows of a deleted asset or user, their names then ''", async () => {
    const h = await startHarness();
    const { token } = await adminWith(h, ['storage-log'], 'auditor');
    const { db1, bob } = await seedLogs(h);
    await h.db.deleteFrom('assets').where('id', '=', db1).execute();
    await h.db.deleteFrom('users').where('id', '=', bob).execute();
    const { items, total } = await page(h, token, { pageSize: '20' });
    expect(total).toBe(12);
    const s0 = items.find((r) => r.sessionId === 's-0')!;
    expect(s0).toMatchObject({ assetId: db1, assetName: '', userId: bob, userName: '' });
    expect(items.find((r) => r.sessionId === 's-1')).toMatchObject({ assetName: 'web-1', userName: 'Ann A.' });
  });
});

describe('DELETE /storage-logs/:id and POST /storage-logs/clear', () => {
  it('deletes comma ids all-or-nothing, naming an unknown id; clear empties the table', async () => {
    const h = await startHarness();
    const { token: del } = await adminWith(h, ['storage-log-del'], 'deleter');
    const { token: clear } = await adminWith(h, ['storage-log-clear'], 'clearer');
    const { ids } = await seedLogs(h);
    const count = async () => (await h.db.selectFrom('storageLogs').select('id').execute()).length;

    expect((await h.call('DELETE', `/storage-logs/${ids[0]},missing`, { token: del })).body).toEqual({ code: -1, message: '文件日志不存在：missing', data: ['missing'] });
    expect(await count()).toBe(12);
    expect((await h.call('DELETE', `/storage-logs/${ids[0]},${ids[1]}`, { token: del })).body).toEqual({ code: 1, message: 'success', data: null });
    expect(await count()).toBe(10);
    expect(await h.db.selectFrom('storageLogs').select('id').where('id', 'in', [ids[0]!, ids[1]!]).execute()).toEqual([]);

    expect((await h.call('POST', '/storage-logs/clear', { token: del })).body.code).toBe(403);
    expect((await h.call('POST', '/storage-logs/clear', { token: clear })).body.code).toBe(1);
    expect(await count()).toBe(0);
  });
});
