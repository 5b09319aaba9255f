import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseAddr } from '../../server/config.ts';
import { pageOf, pagingQuery } from '../../server/http/paging.ts';
import { Semaphore } from '../../server/lib/semaphore.ts';
import { formatDate, ZERO_DATE } from '../../server/lib/time.ts';
import { SUPER_ADMIN_ID } from '../../server/permissions/effective.ts';
import { startHarness } from './harness.ts';
import { withProbe } from './probe.ts';

describe('paging helper (quirk 14)', () => {
  it('pages with real LIMIT/OFFSET, sorts by whitelisted fields, and rejects bad numbers', async () => {
    const h = await startHarness(withProbe);
    const token = await h.accessToken(SUPER_ADMIN_ID);
    await h.db
      .insertInto('loginLogs')
      .values(Array.from({ length: 25 }, (_, i) => ({ id: `log-${String(i).padStart(2, '0')}`, username: `user${i}`, clientIp: '', clientUserAgent: '', loginTime: 1_000_000 + i * 1000, logoutTime: null, remember: 0, state: '1' as const, reason: '' })))
      .execute();
    const get = (query: Record<string, string>) => h.call('GET', '/probe-logs/paging', { token, query });

    const first = (await get({})).body.data as { total: number; items: { id: string }[] };
    expect(first.total).toBe(25);
    expect(first.items.map((i) => i.id)).toEqual(Array.from({ length: 10 }, (_, i) => `log-${24 - i}`)); // default: created DESC

    const third = (await get({ pageIndex: '3', pageSize: '10', order: 'ascend' })).body.data as { total: number; items: { id: string }[] };
    expect(third.total).toBe(25);
    expect(third.items.map((i) => i.id)).toEqual(['log-20', 'log-21', 'log-22', 'log-23', 'log-24']);

    const byName = (await get({ pageSize: '3', field: 'username', order: 'ascend' })).body.data as { items: { username: string }[] };
    expect(byName.items.map((i) => i.username)).toEqual(['user0', 'user1', 'user10']);
    // An unknown or hostile field falls back to the default column (never reaches SQL).
    const hostile = await get({ field: 'id; DROP TABLE users', pageSize: '1' });
    expect(hostile.body.code).toBe(1);

    const filtered = (await get({ username: 'user2' })).body.data as { total: number };
    expect(filtered.total).toBe(6); // user2, user20..user24

    expect((await get({ pageIndex: '4' })).body.data).toEqual({ total: 25, items: [] });
    const bads: Record<string, string>[] = [{ pageSize: 'abc' }, { pageSize: '0' }, { pageSize: '5000' }, { pageIndex: '0' }, { pageIndex: '-1' }, { pageIndex: '1.5' }];
    for (const bad of bads) {
      const res = await get(bad);
      expect(res.body.code, JSON.stringify(bad)).toBe(400);
      expect(res.body.code).toBe(400);
      expect(res.body.message).toMatch(/^page(Size|Index): /);
    }
  });

  it('pageOf maps order and field', () => {
    const q = pagingQuery.parse({ pageIndex: '2', pageSize: '20', order: 'descend', field: 'name' });
    expect(pageOf(q, { name: 'name' }, 'created')).toEqual({ limit: 20, offset: 20, sort: 'name', direction: 'desc' });
    expect(pageOf(pagingQuery.parse({ field: 'constructor' }), { name: 'name' }, 'created').sort).toBe('created');
  });
});

describe('dates', () => {
  it('formats local time and the zero date', () => {
    const ms = new Date(2026, 0, 2, 3, 4, 5).getTime();
    expect(formatDate(ms)).toBe('2026-01-02 03:04:05');
    expect(formatDate(null)).toBe(ZERO_DATE);
    expect(formatDate(0)).toBe('0001-01-01 00:00:00');
  });

});

describe('config', () => {
  it('reads flags over environment over defaults', () => {
    const c = loadConfig([], {});
    expect([c.host, c.port]).toEqual(['127.0.0.1', 8088]);
    expect(c.dataDir).toMatch(/\/data$/);
    expect(c.database).toBe(`sqlite:${c.dataDir}/jumpgate.db`);
    expect(c.trustProxy).toBe(false);
    expect(c.adminPassword).toBeUndefined();

    const e = loadConfig(['--addr=0.0.0.0:9000', '--data', '/tmp/jg-x'], { JUMPGATE_ADDR: '1.2.3.4:1', JUMPGATE_DATA: '/nope', JUMPGATE_TRUST_PROXY: 'true', JUMPGATE_ADMIN_PASSWORD: 'pw' });
    expect([e.host, e.port, e.dataDir, e.database, e.trustProxy, e.adminPassword]).toEqual(['0.0.0.0', 9000, '/tmp/jg-x', 'sqlite:/tmp/jg-x/jumpgate.db', true, 'pw']);
    expect(loadConfig([], { JUMPGATE_DATABASE: 'sqlite:/tmp/other.db' }).database).toBe('sqlite:/tmp/other.db');
    expect(c.distDir).toMatch(/\/dist$/);
    expect(loadConfig([], { JUMPGATE_DIST: '/tmp/jg-build' }).distDir).toBe('/tmp/jg-build');
  });

  it('rejects bad addresses and unsupported databases clearly', () => {
    expect(parseAddr('[::1]:8088')).toEqual({ host: '::1', port: 8088 });
    expect(parseAddr(':8088')).toEqual({ host: '127.0.0.1', port: 8088 });
    expect(() => parseAddr('localhost')).toThrow(ConfigError);
    expect(() => parseAddr('h:99999')).toThrow(ConfigError);
    expect(() => loadConfig([], { JUMPGATE_DATABASE: 'postgres://x' })).toThrow(/only sqlite/);
    expect(() => loadConfig(['--addr'], {})).toThrow(/needs a value/);
  });
});

describe('Semaphore (the bound on parallel bcrypt runs)', () => {
  it('runs at most `size` tasks at once, in arrival order, and frees the slot when a task throws', async () => {
    const gate = new Semaphore(2);
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    const task = (i: number) =>
      gate.run(async () => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, 5));
        order.push(i);
        running--;
        if (i === 0) throw new Error('boom');
        return i;
      });
    const results = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => task(i)));
    expect(peak).toBe(2);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(7);
    expect(order.slice(2)).toEqual([2, 3, 4, 5, 6, 7]);
  });
});
