import { describe, expect, it } from 'vitest';
import { dayBounds } from '../../../server/modules/overview/counts.ts';
import { startHarness } from '../harness.ts';
import { adminWith } from '../identity/helpers.ts';
import { insertAsset, insertLoginLog, insertSession, local } from './rows.ts';

interface DateCount {
  date: string;
  value: number;
  type: string;
}

/** value of `type` on `date`. */
const countOn = (rows: DateCount[], date: string, type: string) => rows.find((r) => r.date === date && r.type === type)?.value;

describe('GET /overview/date-counter', () => {
  it('buckets by local day, today included: 23:59 and 00:01 land on different days', async () => {
    const h = await startHarness();
    h.clock.set(local(2026, 3, 10, 12, 0));
    const { token } = await adminWith(h, ['dashboard'], 'watcher');

    // Yesterday: ann at 10:00 and 23:59, bob at 11:00, one failure (not a login). Today: ann at 00:01.
    await insertLoginLog(h.db, { username: 'ann', loginTime: local(2026, 3, 9, 10, 0) });
    await insertLoginLog(h.db, { username: 'ann', loginTime: local(2026, 3, 9, 23, 59, 59) });
    await insertLoginLog(h.db, { username: 'bob', loginTime: local(2026, 3, 9, 11, 0) });
    await insertLoginLog(h.db, { username: 'bob', loginTime: local(2026, 3, 9, 12, 0), state: '0' });
    await insertLoginLog(h.db, { username: 'ann', loginTime: local(2026, 3, 10, 0, 1) });
    // The week's edges: 6 days ago at 00:00 is in, 7 days ago at 23:59:59 is out, tomorrow is out.
    await insertLoginLog(h.db, { username: 'cid', loginTime: local(2026, 3, 4, 0, 0) });
    await insertLoginLog(h.db, { username: 'cid', loginTime: local(2026, 3, 3, 23, 59, 59) });
    await insertLoginLog(h.db, { username: 'cid', loginTime: local(2026, 3, 11, 0, 0) });

    // Sessions: asset x twice today, asset y yesterday at 23:59, one that never connected (no day).
    const x = await insertAsset(h.db);
    const y = await insertAsset(h.db);
    await insertSession(h.db, { assetId: x, connectedTime: local(2026, 3, 10, 0, 1) });
    await insertSession(h.db, { assetId: x, connectedTime: local(2026, 3, 10, 9, 0), status: 'connected' });
    await insertSession(h.db, { assetId: y, connectedTime: local(2026, 3, 9, 23, 59) });
    await insertSession(h.db, { assetId: y, connectedTime: null, status: 'no_connect', created: local(2026, 3, 10, 1, 0) });

    const res = await h.call('GET', '/overview/date-counter', { token, query: { d: 'week' } });
    const rows = res.body.data as DateCount[];
    expect(rows).toHaveLength(7 * 4);
    expect([...new Set(rows.map((r) => r.date))]).toEqual(['2026-03-04', '2026-03-05', '2026-03-06', '2026-03-07', '2026-03-08', '2026-03-09', '2026-03-10']);
    expect(rows.slice(-4)).toEqual([
      { date: '2026-03-10', value: 1, type: '登录次数' },
      { date: '2026-03-10', value: 1, type: '活跃用户' },
      { date: '2026-03-10', value: 1, type: '活跃资产' },
      { date: '2026-03-10', value: 2, type: '会话次数' },
    ]);
    expect(rows.filter((r) => r.date === '2026-03-09')).toEqual([
      { date: '2026-03-09', value: 3, type: '登录次数' },
      { date: '2026-03-09', value: 2, type: '活跃用户' }, // distinct users (1.3.9 said 0 or 1)
      { date: '2026-03-09', value: 1, type: '活跃资产' },
      { date: '2026-03-09', value: 1, type: '会话次数' },
    ]);
    expect(countOn(rows, '2026-03-04', '登录次数')).toBe(1);
    expect(rows.filter((r) => r.date > '2026-03-04' && r.date < '2026-03-09').every((r) => r.value === 0)).toBe(true);

    // The default is the week; the month is 30 days ending today.
    expect((await h.call('GET', '/overview/date-counter', { token })).body.data).toEqual(rows);
    const month = (await h.call('GET', '/overview/date-counter', { token, query: { d: 'month' } })).body.data as DateCount[];
    expect(month).toHaveLength(30 * 4);
    expect(month[0]!.date).toBe('2026-02-09');
    expect(month.at(-1)!.date).toBe('2026-03-10');
    expect(countOn(month, '2026-03-03', '登录次数')).toBe(1);
    expect(month.reduce((sum, r) => sum + (r.type === '登录次数' ? r.value : 0), 0)).toBe(6);
  });

  it('a minute later the same login moves from today to yesterday', async () => {
    const h = await startHarness();
    h.clock.set(local(2026, 3, 10, 23, 59, 30));
    const { token } = await adminWith(h, ['dashboard'], 'watcher');
    await insertLoginLog(h.db, { username: 'ann', loginTime: local(2026, 3, 10, 23, 59) });
    const today = async () => ((await h.call('GET', '/overview/date-counter', { token })).body.data as DateCount[]).slice(-4);
    expect((await today())[0]).toEqual({ date: '2026-03-10', value: 1, type: '登录次数' });
    h.clock.set(local(2026, 3, 11, 0, 1));
    await insertLoginLog(h.db, { username: 'bob', loginTime: local(2026, 3, 11, 0, 1) });
    await insertLoginLog(h.db, { username: 'bob', loginTime: local(2026, 3, 11, 0, 1) });
    const rows = (await h.call('GET', '/overview/date-counter', { token })).body.data as DateCount[];
    expect(countOn(rows, '2026-03-10', '登录次数')).toBe(1);
    expect(countOn(rows, '2026-03-11', '登录次数')).toBe(2);
    expect(countOn(rows, '2026-03-11', '活跃用户')).toBe(1);
  });

  it('refuses another period', async () => {
    const h = await startHarness();
    const { token } = await adminWith(h, ['dashboard'], 'watcher');
    const res = await h.call('GET', '/overview/date-counter', { token, query: { d: 'year' } });
    expect(res.body.code).toBe(400);
    expect(res.body.message).toMatch(/^d: /);
  });

  it('day bounds are local midnights, today included, built by calendar (a DST day keeps its true length)', () => {
    const now = local(2026, 3, 10, 12, 0);
    const bounds = dayBounds(now, 7);
    expect(bounds).toHaveLength(8);
    expect(bounds[0]).toBe(local(2026, 3, 4));
    expect(bounds.at(-2)).toBe(local(2026, 3, 10));
    expect(bounds.at(-1)).toBe(local(2026, 3, 11));
    for (const b of bounds) expect(new Date(b).getHours()).toBe(0);
  });
});
