import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordingFolder } from '../../../server/modules/sessions/shared.ts';
import { formatDate } from '../../../server/lib/time.ts';
import { adminWith, type Paged } from '../resources/helpers.ts';
import { startSshd, sshdUnavailable, type TestSshd } from '../sshd.ts';
import { connectLive, sessionsHarness } from './helpers.ts';

interface Item {
  id: string;
  status: string;
  creator: string;
  creatorName: string;
  assetName: string;
  clientIp: string;
  protocol: string;
  recording: string;
  recordingSize: number;
  reviewed: boolean;
  commandCount: number;
  connectedTime: string;
  disconnectedTime: string;
}

const MIN = 60_000;

/** Two users, two assets, and sessions spread over statuses, creators, addresses, protocols and review marks. */
async function world() {
  const r = await sessionsHarness();
  const { h, api } = r;
  const alice = await h.createUser({ username: 'alice' });
  const bob = await h.createUser({ username: 'bob' });
  const asset = async (name: string, protocol = 'ssh') =>
    (await api.ok<{ id: string }>('POST', '/assets', { body: { name, protocol, ip: '10.0.0.9', port: protocol === 'ssh' ? 22 : 3389, accountType: 'custom', username: 'root', password: r.secret('asset-password-9') } })).id;
  const web = await asset('web-01');
  const db1 = await asset('db-01', 'rdp');
  const t0 = h.clock.now();
  const s = {
    a1: await r.seedSession({ creator: alice, assetId: web, clientIp: '192.168.1.10', connectedTime: t0 + 1 * MIN }),
    a2: await r.seedSession({ creator: alice, assetId: db1, protocol: 'rdp', mode: 'guacd', clientIp: '192.168.1.11', connectedTime: t0 + 3 * MIN, reviewed: 1 }),
    b1: await r.seedSession({ creator: bob, assetId: web, clientIp: '10.1.1.1', connectedTime: t0 + 2 * MIN }),
    // Closed while still connecting: never connected, listed after the others by creation time.
    b2: await r.seedSession({ creator: bob, assetId: web, clientIp: '10.1.1.2', connectedTime: null, created: t0 + 5 * MIN }),
    live: await r.seedSession({ creator: alice, assetId: web, status: 'connected', clientIp: '192.168.1.12', connectedTime: t0 + 4 * MIN, disconnectedTime: null }),
  };
  return { ...r, alice, bob, web, db1, s, t0 };
}

const page = (api: Awaited<ReturnType<typeof world>>['api'], query: Record<string, string>) =>
  api.ok<Paged<Item>>('GET', `/sessions/paging?${new URLSearchParams({ pageIndex: '1', pageSize: '10', ...query })}`);

describe('GET /sessions/paging', () => {
  it('filters by every field of §2.10 plus asset and creator names, newest connection first', async () => {
    const { api, alice, bob, web, s } = await world();
    const ids = async (query: Record<string, string>) => (await page(api, query)).items.map((i) => i.id);

    expect(await ids({ status: 'disconnected' })).toEqual([s.a2, s.b1, s.a1, s.b2]);
    expect(await ids({ status: 'connected' })).toEqual([s.live]);
    // No status: every session (the console always sends one).
    expect(await ids({})).toEqual([s.live, s.a2, s.b1, s.a1, s.b2]);
    expect(await ids({ status: 'disconnected', userId: alice })).toEqual([s.a2, s.a1]);
    expect(await ids({ status: 'disconnected', clientIp: '192.168' })).toEqual([s.a2, s.a1]);
    expect(await ids({ status: 'disconnected', assetId: web })).toEqual([s.b1, s.a1, s.b2]);
    expect(await ids({ status: 'disconnected', protocol: 'rdp' })).toEqual([s.a2]);
    expect(await ids({ status: 'disconnected', reviewed: 'true' })).toEqual([s.a2]);
    expect(await ids({ status: 'disconnected', reviewed: 'false' })).toEqual([s.b1, s.a1, s.b2]);
    expect(await ids({ status: 'disconnected', assetName: 'db-' })).toEqual([s.a2]);
    expect(await ids({ status: 'disconnected', creatorName: 'bo' })).toEqual([s.b1, s.b2]);
    // LIKE takes % and _ literally; empty fields are no filter (the 1.3.9 console sends them).
    expect(await ids({ status: 'disconnected', clientIp: '%' })).toEqual([]);
    expect(await ids({ status: 'disconnected', clientIp: '', userId: '', protocol: '' })).toHaveLength(4);

    const [first] = (await page(api, { status: 'disconnected', userId: bob })).items;
    expect(first).toMatchObject({ id: s.b1, creator: bob, creatorName: 'bob', assetName: 'web-01', clientIp: '10.1.1.1', protocol: 'ssh', reviewed: false, recording: '0', commandCount: 0 });
  });

  it('pages with real LIMIT/OFFSET and a true total; refuses a page over 100 rows and bad filters', async () => {
    const { h, api, s } = await world();
    const one = await page(api, { status: 'disconnected', pageIndex: '2', pageSize: '3' });
    expect(one.total).toBe(4);
    expect(one.items.map((i) => i.id)).toEqual([s.b2]);
    expect((await api.call('GET', '/sessions/paging?pageIndex=1&pageSize=101')).body).toMatchObject({ code: 400, message: expect.stringMatching(/^pageSize: /) });
    expect((await api.call('GET', '/sessions/paging?status=gone')).body).toMatchObject({ code: 400, message: expect.stringMatching(/^status: /) });
    expect((await api.call('GET', '/sessions/paging?protocol=ftp')).body.code).toBe(400);
    // The deleted asset and user leave empty names, not a failure.
    await h.db.deleteFrom('assets').execute();
    expect((await page(api, { status: 'disconnected' })).items.every((i) => i.assetName === '')).toBe(true);
  });

  it('says "1" and the file\'s size in bytes when the recording file exists (0 without), and counts the indexed commands', async () => {
    const { h, api, s, writeRecording } = await world();
    // Multi-byte text: the size is the file's bytes, not its characters.
    const cast = '{"version":2,"width":80,"height":24,"timestamp":1}\n[0.1,"o","你好"]\n';
    writeRecording(s.a1, cast);
    // An empty file (a disk that failed as the session started) is a recording of 0 bytes.
    writeRecording(s.b2, '');
    await h.db
      .insertInto('sessionCommands')
      .values([1, 2, 3].map((n) => ({ sessionId: s.a1, offsetMs: n * 100, command: `ls ${n}`, created: h.clock.now() })))
      .execute();
    const items = (await page(api, { status: 'disconnected' })).items;
    expect(items.find((i) => i.id === s.a1)).toMatchObject({ recording: '1', recordingSize: Buffer.byteLength(cast), commandCount: 3 });
    expect(Buffer.byteLength(cast)).toBeGreaterThan(cast.length);
    expect(items.find((i) => i.id === s.b1)).toMatchObject({ recording: '0', recordingSize: 0, commandCount: 0 });
    expect(items.find((i) => i.id === s.b2)).toMatchObject({ recording: '1', recordingSize: 0 });
    // The detail says the same; a file that grows is measured again.
    expect(await api.ok('GET', `/sessions/${s.a1}`)).toMatchObject({ recording: '1', recordingSize: Buffer.byteLength(cast) });
    writeRecording(s.a1, `${cast}[0.2,"o","ls"]\n`);
    expect((await page(api, { status: 'disconnected' })).items.find((i) => i.id === s.a1)?.recordingSize).toBe(Buffer.byteLength(cast) + 15);
  });

  it('is granted to online-session and offline-session holders only', async () => {
    const { h } = await world();
    for (const key of ['online-session', 'offline-session'] as const) {
      const { token } = await adminWith(h, [key], `holder-${key}`);
      expect((await h.call('GET', '/sessions/paging?status=connected', { token })).body.code).toBe(1);
    }
    const { token } = await adminWith(h, ['offline-session-del'], 'deleter');
    expect((await h.call('GET', '/sessions/paging?status=connected', { token })).body).toEqual({ code: 403, message: 'permission denied' });
  });
});

describe('GET /sessions/:id', () => {
  it('answers the whole session without secrets; an unknown id is named', async () => {
    const { api, alice, s } = await world();
    const detail = await api.ok<Record<string, unknown>>('GET', `/sessions/${s.a1}`);
    expect(detail).toMatchObject({ id: s.a1, creator: alice, creatorName: 'alice', assetName: 'web-01', status: 'disconnected', upload: '1', createDir: '1', fileSystem: '1', reviewed: false, accessGatewayId: '' });
    for (const secret of ['password', 'privateKey', 'passphrase']) expect(detail).not.toHaveProperty(secret);
    expect((await api.call('GET', '/sessions/ghost')).body).toEqual({ code: -1, message: '会话不存在：ghost', data: ['ghost'] });
  });
});

describe('review marks', () => {
  it('marks comma ids reviewed and unreviewed, all-or-nothing; marks everything reviewed', async () => {
    const { h, api, s } = await world();
    const reviewed = async () => (await h.db.selectFrom('sessions').select(['id', 'reviewed']).where('reviewed', '=', 1).execute()).map((r) => r.id).sort();
    await api.ok('POST', `/sessions/${s.a1},${s.b1}/reviewed`);
    expect(await reviewed()).toEqual([s.a1, s.a2, s.b1].sort());
    expect((await api.call('POST', `/sessions/${s.b2},ghost/reviewed`)).body).toEqual({ code: -1, message: '会话不存在：ghost', data: ['ghost'] });
    expect(await reviewed()).toEqual([s.a1, s.a2, s.b1].sort());
    await api.ok('POST', `/sessions/${s.a1},${s.a2}/unreviewed`);
    expect(await reviewed()).toEqual([s.b1]);
    await api.ok('POST', '/sessions/reviewed');
    expect(await reviewed()).toEqual(Object.values(s).sort());
  });
});

describe('delete and clear', () => {
  it('deletes comma ids all-or-nothing with their recordings; refuses a running session', async () => {
    const { h, api, s, config, writeRecording } = await world();
    for (const id of [s.a1, s.b1, s.live]) writeRecording(id, 'x');
    await h.db.insertInto('sessionCommands').values({ sessionId: s.a1, offsetMs: 1, command: 'ls', created: 1 }).execute();
    const left = async () => (await h.db.selectFrom('sessions').select('id').execute()).map((r) => r.id).sort();

    expect((await api.call('DELETE', `/sessions/${s.a1},ghost`)).body).toEqual({ code: -1, message: '会话不存在：ghost', data: ['ghost'] });
    expect((await api.call('DELETE', `/sessions/${s.a1},${s.live}`)).body).toEqual({ code: -1, message: `会话仍在进行中，请先断开后再删除：${s.live}`, data: [s.live] });
    expect(await left()).toHaveLength(5);
    expect(fs.existsSync(recordingFolder(config, s.a1))).toBe(true);

    await api.ok('DELETE', `/sessions/${s.a1},${s.b1}`);
    expect(await left()).toEqual([s.a2, s.b2, s.live].sort());
    expect(fs.existsSync(recordingFolder(config, s.a1))).toBe(false);
    expect(fs.existsSync(recordingFolder(config, s.b1))).toBe(false);
    expect(fs.existsSync(recordingFolder(config, s.live))).toBe(true);
    // The command index goes with its session.
    expect(await h.db.selectFrom('sessionCommands').selectAll().execute()).toEqual([]);
  });

  it('clears every disconnected session and its recording, and nothing else', async () => {
    const { h, api, s, config, writeRecording } = await world();
    for (const id of Object.values(s)) writeRecording(id, 'x');
    const pending = await h.db.selectFrom('sessions').select('id').execute();
    expect(pending).toHaveLength(5);
    await api.ok('POST', '/sessions/clear');
    expect((await h.db.selectFrom('sessions').select('id').execute()).map((r) => r.id)).toEqual([s.live]);
    for (const id of [s.a1, s.a2, s.b1, s.b2]) expect(fs.existsSync(recordingFolder(config, id))).toBe(false);
    expect(fs.existsSync(recordingFolder(config, s.live))).toBe(true);
  });
});

describe('GET /sessions/:id/commands/paging', () => {
  it('pages the command index by offset, filtered by command text', async () => {
    const { h, api, s } = await world();
    const at = h.clock.now();
    await h.db
      .insertInto('sessionCommands')
      .values([
        { sessionId: s.a1, offsetMs: 5000, command: 'cat /etc/hosts', created: at + 5000 },
        { sessionId: s.a1, offsetMs: 1200, command: 'ls -la', created: at + 1200 },
        { sessionId: s.a1, offsetMs: 9000, command: 'ls /tmp', created: at + 9000 },
        { sessionId: s.b1, offsetMs: 10, command: 'ls other', created: at },
      ])
      .execute();
    const all = await api.ok<Paged<{ id: number; offsetMs: number; command: string; created: string }>>('GET', `/sessions/${s.a1}/commands/paging?pageIndex=1&pageSize=10`);
    expect(all.total).toBe(3);
    expect(all.items.map((c) => [c.offsetMs, c.command])).toEqual([
      [1200, 'ls -la'],
      [5000, 'cat /etc/hosts'],
      [9000, 'ls /tmp'],
    ]);
    expect(all.items[0]).toEqual({ id: expect.any(Number), offsetMs: 1200, command: 'ls -la', created: formatDate(at + 1200) });
    const ls = await api.ok<Paged<{ command: string }>>('GET', `/sessions/${s.a1}/commands/paging?pageIndex=2&pageSize=1&command=ls`);
    expect(ls).toEqual({ total: 2, items: [expect.objectContaining({ command: 'ls /tmp' })] });
    expect((await api.call('GET', '/sessions/ghost/commands/paging')).body).toMatchObject({ code: -1, message: '会话不存在：ghost' });
    // Holders of the playback key see it too (the player's command list).
    const { token } = await adminWith(h, ['offline-session-playback'], 'player');
    expect((await h.call('GET', `/sessions/${s.a1}/commands/paging`, { token })).body.code).toBe(1);
  });
});

describe.skipIf(sshdUnavailable())('POST /sessions/:id/disconnect against a real sshd', () => {
  let sshd: TestSshd;
  beforeAll(async () => {
    sshd = await startSshd();
  });
  afterAll(() => sshd?.stop());

  it('closes a live session with 802; marks a row left connected with nothing behind it', async () => {
    const { h, api, live, s, alice, web, seedSession } = await world();
    const running = await connectLive(live, sshd, { id: s.live, creator: alice, assetId: web });
    // A row left connected by a process that died: nothing runs behind it here.
    await seedSession({ id: 'orphan', creator: alice, assetId: web, status: 'connected', disconnectedTime: null });
    h.clock.advance(MIN);

    expect((await api.call('POST', `/sessions/${s.live},ghost/disconnect`)).body).toMatchObject({ code: -1, message: '会话不存在：ghost' });
    expect(running.closed).toEqual([]);

    await api.ok('POST', `/sessions/${s.live},orphan,${s.a1}/disconnect`);
    expect(running.closed).toEqual([{ code: 802, message: '管理员强制关闭了此会话' }]);
    expect(live.get(s.live)).toBeUndefined();
    const rows = await h.db.selectFrom('sessions').selectAll().where('id', 'in', ['orphan', s.a1]).orderBy('id').execute();
    expect(rows.find((r) => r.id === 'orphan')).toMatchObject({ status: 'disconnected', code: 802, message: '管理员强制关闭了此会话', disconnectedTime: h.clock.now() });
    // Already disconnected: untouched.
    expect(rows.find((r) => r.id === s.a1)).toMatchObject({ code: 0, message: '' });
    // Only holders of online-session-disconnect.
    const { token } = await adminWith(h, ['online-session'], 'watcher');
    expect((await h.call('POST', `/sessions/${s.a1}/disconnect`, { token })).body.code).toBe(403);
  });
});
