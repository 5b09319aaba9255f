import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { mapBounded, TCPING_PARALLEL } from '../../../server/modules/assets/tcping.ts';
import { adminWith, assetHarness, sshAsset, storedAsset } from './helpers.ts';

const servers: net.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** A loopback port with a listener on it. */
async function listening(): Promise<number> {
  const server = net.createServer((socket) => socket.destroy());
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as net.AddressInfo).port;
}

/** A loopback port nobody listens on (bound, then released). */
async function closed(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('POST /assets/:id/tcping', () => {
  it('marks a new asset, and one whose address moved, as not checked (inactive, no message); a rename keeps the state', async () => {
    const { h, api } = await assetHarness();
    const port = await listening();
    const { id } = await api.ok<{ id: string }>('POST', '/assets', { body: sshAsset({ name: 'fresh', ip: '127.0.0.1', port }) });
    expect(await api.ok('GET', `/assets/${id}`)).toMatchObject({ active: false, activeMessage: '' });

    expect(await api.ok('POST', `/assets/${id}/tcping`)).toEqual({ active: true, message: '' });
    await api.ok('PUT', `/assets/${id}`, { body: sshAsset({ name: 'renamed', ip: '127.0.0.1', port }) });
    expect(await storedAsset(h, 'renamed')).toMatchObject({ active: 1, activeMessage: '' });

    await api.ok('PUT', `/assets/${id}`, { body: sshAsset({ name: 'renamed', ip: '127.0.0.1', port: await closed() }) });
    expect(await storedAsset(h, 'renamed')).toMatchObject({ active: 0, activeMessage: '' });
  });

  it('connects for real: a listening port is active, a closed one is not; the outcome is stored on the asset', async () => {
    const { h, api } = await assetHarness();
    const up = await api.ok<{ id: string }>('POST', '/assets', { body: sshAsset({ name: 'up', ip: '127.0.0.1', port: await listening() }) });
    const downPort = await closed();
    const down = await api.ok<{ id: string }>('POST', '/assets', { body: sshAsset({ name: 'down', ip: '127.0.0.1', port: downPort }) });

    expect(await api.ok('POST', `/assets/${up.id}/tcping`)).toEqual({ active: true, message: '' });
    const result = await api.ok<{ active: boolean; message: string }>('POST', `/assets/${down.id}/tcping`);
    expect(result).toEqual({ active: false, message: `连接被拒绝：connect ECONNREFUSED 127.0.0.1:${downPort}` });

    expect(await storedAsset(h, 'down')).toMatchObject({ active: 0, activeMessage: result.message });
    expect(await storedAsset(h, 'up')).toMatchObject({ active: 1, activeMessage: '' });
    expect(await api.ok('GET', `/assets/${down.id}`)).toMatchObject({ active: false, activeMessage: result.message });
    expect(await api.ok('GET', '/assets/paging', { query: { active: 'false' } })).toMatchObject({ total: 1, items: [{ name: 'down', active: false, activeMessage: result.message }] });

    // Back up: the state follows.
    await h.db.updateTable('assets').set({ port: (await storedAsset(h, 'up')).port }).where('id', '=', down.id).execute();
    expect(await api.ok('POST', `/assets/${down.id}/tcping`)).toEqual({ active: true, message: '' });
    expect(await storedAsset(h, 'down')).toMatchObject({ active: 1, activeMessage: '' });
    expect((await api.call('POST', '/assets/ghost/tcping')).body).toMatchObject({ code: -1, message: '资产不存在：ghost' });
  });
});

describe('POST /assets/tcping', () => {
  it('probes every id given and answers in their order; an unknown id probes nothing', async () => {
    const { h, api } = await assetHarness();
    const [open, shut] = [await listening(), await closed()];
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      ids.push((await api.ok<{ id: string }>('POST', '/assets', { body: sshAsset({ name: `a${i}`, ip: '127.0.0.1', port: i % 3 === 0 ? shut : open }) })).id);
    }
    await h.db.updateTable('assets').set({ active: 0, activeMessage: 'stale' }).execute();

    expect((await api.call('POST', '/assets/tcping', { body: { ids: [ids[0], 'ghost'] } })).body).toMatchObject({ code: -1, message: '资产不存在：ghost' });
    expect(await h.db.selectFrom('assets').select('activeMessage').distinct().execute()).toEqual([{ activeMessage: 'stale' }]);

    const results = await api.ok<{ id: string; active: boolean; message: string }[]>('POST', '/assets/tcping', { body: { ids } });
    expect(results.map((r) => r.id)).toEqual(ids);
    expect(results.map((r) => r.active)).toEqual(ids.map((_, i) => i % 3 !== 0));
    const stored = await h.db.selectFrom('assets').select(['id', 'active']).execute();
    expect(Object.fromEntries(stored.map((a) => [a.id, a.active]))).toEqual(Object.fromEntries(ids.map((id, i) => [id, i % 3 === 0 ? 0 : 1])));
  });

  it('takes 1 to 1000 ids and is gated by asset-conn-test', async () => {
    const { h, api } = await assetHarness();
    expect((await api.call('POST', '/assets/tcping', { body: { ids: [] } })).body).toMatchObject({ code: 400, message: 'ids: at least one id' });
    expect((await api.call('POST', '/assets/tcping', { body: { ids: Array.from({ length: 1001 }, (_, i) => `id-${i}`) } })).body).toMatchObject({ code: 400, message: 'ids: at most 1000 ids' });
    const tester = await adminWith(h, ['asset-conn-test'], 'tester');
    const editor = await adminWith(h, ['asset-edit'], 'editor');
    expect((await h.call('POST', '/assets/tcping', { token: tester.token, body: { ids: ['x'] } })).body.code).toBe(-1);
    expect((await h.call('POST', '/assets/tcping', { token: editor.token, body: { ids: ['x'] } })).body.code).toBe(403);
  });
});

describe('mapBounded (the batch’s scheduler)', () => {
  it(`runs at most ${TCPING_PARALLEL} at a time, as many as that when there is work, and keeps the order`, async () => {
    let running = 0;
    let peak = 0;
    const waiting: (() => void)[] = [];
    const run = mapBounded(
      Array.from({ length: 20 }, (_, i) => i),
      TCPING_PARALLEL,
      async (i) => {
        running++;
        peak = Math.max(peak, running);
        await new Promise<void>((resolve) => waiting.push(resolve));
        running--;
        return i * 2;
      },
    );
    // Release the probes one by one, each after the scheduler had a chance to start more.
    for (let released = 0; released < 20; released++) {
      await new Promise((resolve) => setImmediate(resolve));
      expect(running).toBeLessThanOrEqual(TCPING_PARALLEL);
      waiting.shift()?.();
    }
    expect(await run).toEqual(Array.from({ length: 20 }, (_, i) => i * 2));
    expect(peak).toBe(TCPING_PARALLEL);
  });
});
