import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uuid } from '../../../server/lib/ids.ts';
import { formatDate } from '../../../server/lib/time.ts';
import { CLOSE } from '../../../server/modules/sessions/live.ts';
import { recordingPath } from '../../../server/modules/sessions/ssh/relay.ts';
import { heartbeat, INPUT_STALL_BEATS } from '../../../server/modules/sessions/terminal-session.ts';
import type { HarnessOptions } from '../harness.ts';
import { startSshd, sshdUnavailable, type TestSshd } from '../sshd.ts';
import { eventually, PROMPT, TermClient, terminalWorld } from './helpers.ts';
import WebSocket from 'ws';

/*
 * Running sessions follow access (audit H2 C2, C3) and end when their browser vanishes (C4); typed input never piles
 * up in the server (C5); a recording that cannot start does not cost the session or leak its SSH connection (C6).
 * Real server, real sshd, real sockets.
 */

const INTERVAL = 150;

describe.skipIf(sshdUnavailable())('live sessions and access (real sshd)', () => {
  let sshd: TestSshd;
  const folders: string[] = [];
  beforeAll(async () => {
    heartbeat.intervalMs = INTERVAL;
    sshd = await startSshd();
  });
  afterAll(async () => {
    for (const f of folders) fs.rmSync(f, { recursive: true, force: true });
    await sshd?.stop();
  });

  /** The terminal world with alice (type user) granted the asset under a strategy allowing createDir. */
  async function world(opts: HarnessOptions = {}) {
    const w = await terminalWorld(sshd, opts);
    const alice = await w.h.createUser({ username: 'alice', type: 'user' });
    const aliceToken = await w.h.accessToken(alice);
    const strategy = (await w.api.ok<{ id: string }>('POST', '/strategies', { body: { name: 'files', createDir: true, upload: true } })).id;
    const grant = async (body: Record<string, unknown> = {}, userId = alice) => {
      await w.api.ok('POST', '/authorised/users', { body: { userIds: [userId], assetId: w.web, strategyId: strategy, ...body } });
      return (await w.h.db.selectFrom('authorised').select('id').where('userId', '=', userId).executeTakeFirstOrThrow()).id;
    };
    /** A user's terminal (default alice's): opened, attached, connected, at the prompt. */
    const aliceTerminal = async (token = aliceToken) => {
      const id = await w.open(w.web, token);
      const term = await w.attach(id, token);
      await term.connected();
      expect(term.closedWith, 'the terminal closed instead of connecting').toBeUndefined();
      await w.as(token).ok('POST', `/sessions/${id}/connect`);
      await term.waitOutput(PROMPT);
      return { id, term };
    };
    const mkdir = (id: string) => {
      const dir = `/tmp/jg-live-access-${uuid()}`;
      folders.push(dir);
      return w.as(aliceToken).call('POST', `/sessions/${id}/mkdir?dir=${dir}`);
    };
    return { ...w, alice, aliceToken, strategy, grant, aliceTerminal, mkdir };
  }

  it('a session made while granted is not attached once the grant is gone; the attach takes the current flags (C2)', async () => {
    const w = await world();
    const grantId = await w.grant();
    const stockpiled = await w.open(w.web, w.aliceToken);
    const later = await w.open(w.web, w.aliceToken);
    expect((await w.row(later)).createDir).toBe(1);
    // The strategy narrows before `later` is attached: the row takes the current flags at the attach.
    await w.api.ok('PUT', `/strategies/${w.strategy}`, { body: { name: 'files', createDir: false, upload: true } });
    const t = await w.attach(later, w.aliceToken);
    await t.connected();
    expect(t.frames).toContain('1');
    expect(await w.row(later)).toMatchObject({ status: 'connecting', createDir: 0, upload: 1 });
    expect((await w.mkdir(later)).body).toEqual({ code: -1, message: '禁止操作' });
    await t.close();

    await w.api.ok('DELETE', `/authorised/${grantId}`);
    const term = await w.attach(stockpiled, w.aliceToken);
    await term.closed;
    expect(term.frames).toEqual([`0${CLOSE.denied.message}`]);
    expect(await w.row(stockpiled)).toMatchObject({ status: 'disconnected', code: 802, message: CLOSE.denied.message });
    expect(w.live.get(stockpiled)).toBeUndefined();
  });

  it('live sessions end when the grant is removed or narrowed, the account disabled or deleted, the asset deleted; files read the current strategy (C3)', async () => {
    const w = await world();
    let grantId = await w.grant();
    // A strategy change applies to the running session's file operations at once.
    const a = await w.aliceTerminal();
    expect((await w.mkdir(a.id)).body.code).toBe(1);
    await w.api.ok('PUT', `/strategies/${w.strategy}`, { body: { name: 'files', createDir: false, upload: true } });
    expect((await w.mkdir(a.id)).body).toEqual({ code: -1, message: '禁止操作' });
    expect((await w.row(a.id)).createDir).toBe(0);
    // …and a change back too (the row follows the strategy).
    await w.api.ok('PUT', `/strategies/${w.strategy}`, { body: { name: 'files', createDir: true, upload: true } });
    expect((await w.mkdir(a.id)).body.code).toBe(1);
    // The grant goes: the terminal ends with the reason.
    await w.api.ok('DELETE', `/authorised/${grantId}`);
    await a.term.closed;
    expect(a.term.closedWith).toBe(CLOSE.revoked.message);
    expect(await w.row(a.id)).toMatchObject({ status: 'disconnected', code: 802, message: CLOSE.revoked.message });
    expect(w.live.get(a.id)).toBeUndefined();

    // A bind that replaces the grant with one whose window has not begun: refused from now on, so it ends.
    grantId = await w.grant();
    const b = await w.aliceTerminal();
    await w.grant({ validFrom: formatDate(w.h.clock.now() + 24 * 3600 * 1000) });
    await b.term.closed;
    expect(b.term.closedWith).toBe(CLOSE.revoked.message);

    // Disabled: the token dies and so does the terminal; an admin disabled stops watching too. (The pending grant is
    // the stricter one: removed first, a re-grant never silently widens it.)
    await w.api.ok('DELETE', `/authorised/${grantId}`);
    await w.grant();
    const c = await w.aliceTerminal();
    const c2 = await w.aliceTerminal(); // a second session of alice's: both end
    const watcherRole = await w.h.createRole(['online-session', 'online-session-monitor']);
    const watcher = await w.h.createUser({ username: 'watcher', type: 'admin', roles: [watcherRole] });
    const other = await w.terminal(); // the super admin's session, watched by the admin
    const watching = await w.monitor(other.id, await w.h.accessToken(watcher));
    await w.api.ok('PATCH', `/users/${watcher}/status?status=disabled`);
    await watching.closed;
    expect(watching.closedWith).toBe(CLOSE.accountDisabled.message);
    expect(w.live.get(other.id)).toBeDefined(); // the watched session goes on
    await w.api.ok('PATCH', `/users/${w.alice}/status?status=disabled`);
    await Promise.all([c.term.closed, c2.term.closed]);
    expect(c.term.closedWith).toBe(CLOSE.accountDisabled.message);
    expect(c2.term.closedWith).toBe(CLOSE.accountDisabled.message);
    expect(await w.row(c.id)).toMatchObject({ status: 'disconnected', code: 802 });

    // Deleted.
    const bob = await w.h.createUser({ username: 'bob', type: 'user' });
    await w.grant({}, bob);
    const d = await w.aliceTerminal(await w.h.accessToken(bob));
    const root = await w.terminal(); // the super admin's session on the same asset is not touched
    await w.api.ok('DELETE', `/users/${bob}`);
    await d.term.closed;
    expect(d.term.closedWith).toBe(CLOSE.accountDeleted.message);
    expect(w.live.get(root.id)).toBeDefined();

    // Deleting the asset ends its sessions.
    await w.api.ok('DELETE', `/assets/${w.web}`);
    await root.term.closed;
    expect(root.term.closedWith).toBe(CLOSE.assetDeleted.message);
    expect(await w.row(root.id)).toMatchObject({ status: 'disconnected', code: 802, message: CLOSE.assetDeleted.message });
  });

  it('a browser that stops answering pings is dropped: the session, its SSH connection and its recording end (C4)', async () => {
    const w = await world();
    const id = await w.open();
    // autoPong off: the socket stays open and silent, as a sleeping laptop's or behind a dead NAT.
    const silent = new TermClient(new WebSocket(w.socketUrl(id), { perMessageDeflate: false, autoPong: false }));
    await new Promise((resolve) => silent.ws.once('open', resolve));
    await silent.connected();
    expect(silent.frames).toContain('1');
    await silent.closed; // within about two intervals
    const answering = await w.terminal();
    await eventually('the row disconnected', async () => (await w.row(id)).status === 'disconnected');
    expect(await w.row(id)).toMatchObject({ code: CLOSE.clientGone.code, message: CLOSE.clientGone.message });
    expect(w.live.get(id)).toBeUndefined();
    const cast = fs.readFileSync(recordingPath(w.h.config, id), 'utf8');
    expect(cast.endsWith('\n')).toBe(true);
    for (const line of cast.trim().split('\n')) JSON.parse(line);
    // A browser that answers stays, however long.
    await new Promise((r) => setTimeout(r, 4 * INTERVAL));
    expect(w.live.get(answering.id)).toBeDefined();
    answering.term.type('echo still-$((20+1))\r');
    await answering.term.waitOutput('still-21');
    await answering.term.close();
  });

  it('typed input the remote side does not read is not buffered in the server; the socket is read again on drain (C5)', async () => {
    const w = await world();
    const { id, term } = await w.terminal();
    // Raw mode: the PTY stops taking input once its buffer is full (a canonical line would drop the excess instead).
    term.type('stty raw -echo; sleep 600\r');
    await new Promise((r) => setTimeout(r, 300));
    const frame = `2${'x'.repeat(512 * 1024)}`;
    for (let i = 0; i < 96; i++) term.ws.send(frame); // 48 MiB
    await new Promise((r) => setTimeout(r, 1000));
    // Unbounded, the server read all of it into ssh2's buffer at once; paused, most of it waits on the client's side.
    expect(term.ws.bufferedAmount).toBeGreaterThan(16 * 1024 * 1024);
    expect((await w.row(id)).status).toBe('connected');
    // Input that waits for minutes (here INPUT_STALL_BEATS short intervals) ends the session: nothing can hold it open.
    await eventually('the stalled session ended', () => w.live.get(id) === undefined, INPUT_STALL_BEATS * INTERVAL + 5000);
    expect(await w.row(id)).toMatchObject({ status: 'disconnected', message: CLOSE.inputStalled.message });
    term.ws.terminate();

    // Input the remote side does read flows as before (pause and resume on the channel's drain).
    const b = await w.terminal();
    b.term.type('stty raw -echo; head -c 8388608 | wc -c; stty sane\r');
    await new Promise((r) => setTimeout(r, 300));
    const piece = 'y'.repeat(512 * 1024);
    for (let i = 0; i < 16; i++) b.term.type(piece); // 8 MiB, in frames under the 1 MiB limit
    await b.term.waitOutput(String(8 * 1024 * 1024), 0, 30_000);
    await b.term.close();
  });

  it('a recording that cannot start leaves the session running unrecorded and leaks no SSH connection (C6)', async () => {
    const blocker = fs.mkdtempSync('/tmp/jg-rec-');
    folders.push(blocker);
    fs.writeFileSync(`${blocker}/file`, 'x');
    // Under the `continue` policy (the default `end` refuses such a session: recording-failure.test.ts).
    const w = await world({ env: { JUMPGATE_RECORDING_DIR: `${blocker}/file/recording`, JUMPGATE_RECORDING_FAILURE: 'continue' } });
    const { id, term } = await w.terminal();
    term.type('echo unrecorded-$((3*3))\r');
    await term.waitOutput('unrecorded-9');
    expect(await w.row(id)).toMatchObject({ status: 'connected', recording: '' });
    await term.close();
    await eventually('the row disconnected', async () => (await w.row(id)).status === 'disconnected');
    expect(await w.row(id)).toMatchObject({ code: 0 });
    expect(w.live.get(id)).toBeUndefined();
  });
});
