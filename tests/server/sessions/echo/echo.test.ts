import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultRelays, sessionsModule } from '../../../../server/modules/sessions/index.ts';
import { CLOSE } from '../../../../server/modules/sessions/live.ts';
import { recordingFolder } from '../../../../server/modules/sessions/shared.ts';
import { eventually, sessionsHarness, TermClient } from '../helpers.ts';
import { ECHO_RECORDING, echoRelay, startEchoServer } from './relay.ts';

/*
 * The seam for the next protocols: a relay written outside the sessions module (./relay.ts, over a TCP echo server)
 * is plugged in by the list the module is built from, with no edit to the core, and gets the core's attach (single
 * attach, the row's states and times), access re-check, recording, monitor and forced disconnect.
 */

let echo: Awaited<ReturnType<typeof startEchoServer>>;
beforeAll(async () => {
  echo = await startEchoServer();
});
afterAll(() => echo?.stop());

async function world() {
  // Named 'sessions': it replaces the app's sessions module (the harness swaps modules by name).
  const r = await sessionsHarness({ modules: [sessionsModule({ relays: [...defaultRelays, echoRelay] })] });
  const base = (await r.h.listen()).replace(/^http/, 'ws');
  const asset = (await r.api.ok<{ id: string }>('POST', '/assets', { body: { name: 'echo', protocol: 'telnet', ip: '127.0.0.1', port: echo.port, accountType: 'custom', username: 'u' } })).id;
  const open = async (token = r.root) => (await r.as(token).ok<{ id: string }>('POST', `/sessions?assetId=${asset}&mode=native`)).id;
  const attach = (id: string, token = r.root) => TermClient.open(`${base}/sessions/${id}/echo?cols=100&rows=30&X-Auth-Token=${encodeURIComponent(token)}`);
  const monitor = (id: string) => TermClient.open(`${base}/sessions/${id}/ssh-monitor?X-Auth-Token=${encodeURIComponent(r.root)}`);
  const row = (id: string) => r.h.db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  /** Opened, attached, connected. */
  const terminal = async (token = r.root) => {
    const id = await open(token);
    const term = await attach(id, token);
    await term.connected();
    expect(term.closedWith, 'the echo terminal closed instead of connecting').toBeUndefined();
    await r.as(token).ok('POST', `/sessions/${id}/connect`);
    return { id, term };
  };
  return { ...r, asset, open, attach, monitor, row, terminal };
}

describe('a relay added from outside the core (echo over TCP)', () => {
  it('attaches once, relays, is watched, recorded, and ends on a forced disconnect with 802', async () => {
    const w = await world();
    const { id, term } = await w.terminal();
    expect(await w.row(id)).toMatchObject({ status: 'connected', protocol: 'telnet', username: 'echo', width: 100, height: 30, code: 0, disconnectedTime: null });
    expect((await w.row(id)).connectedTime).toBeGreaterThan(0);
    expect(w.live.get(id)).toBeDefined();

    term.type('hello echo');
    await term.waitOutput('hello echo');

    // Single attach: a second socket on the same session gets the not-found answer and nothing else.
    const second = await w.attach(id);
    await second.closed;
    expect(second.frames).toEqual([`0${CLOSE.notFound.message}`]);

    // The monitor: an admin watching sees what is echoed from now on.
    const watcher = await w.monitor(id);
    await watcher.until('the screen', () => watcher.frames.length >= 2);
    term.type('watched bytes');
    await watcher.waitOutput('watched bytes');

    // Forced disconnect: the user's terminal and the watcher get the reason, the row keeps 802.
    await w.api.ok('POST', `/sessions/${id}/disconnect`);
    await term.closed;
    expect(term.closedWith).toBe(CLOSE.forced.message);
    await watcher.closed;
    expect(watcher.closedWith).toBe(CLOSE.forced.message);
    await eventually('the row disconnected', async () => (await w.row(id)).status === 'disconnected');
    const ended = await w.row(id);
    expect(ended).toMatchObject({ code: 802, message: CLOSE.forced.message });
    expect(ended.disconnectedTime).toBeGreaterThanOrEqual(ended.connectedTime ?? 0);
    expect(w.live.get(id)).toBeUndefined();

    // The recording: under the relay's own file name, and served by the playback route.
    const file = path.join(recordingFolder(w.config, id), ECHO_RECORDING);
    expect(ended.recording).toBe(file);
    const cast = fs.readFileSync(file, 'utf8');
    expect(JSON.parse(cast.split('\n')[0] as string)).toMatchObject({ version: 2, width: 100, height: 30 });
    expect(cast).toContain('hello echo');
    const played = await w.h.app.inject({ method: 'GET', url: `/sessions/${id}/recording`, headers: { 'x-auth-token': w.root } });
    expect(played.statusCode).toBe(200);
    expect(played.body).toBe(cast);
  });

  it('ends with 802 and the reason when the grant is removed (the access re-check)', async () => {
    const w = await world();
    const alice = await w.h.createUser({ username: 'alice', type: 'user' });
    const aliceToken = await w.h.accessToken(alice);
    await w.api.ok('POST', '/authorised/users', { body: { userIds: [alice], assetId: w.asset } });
    const grant = (await w.h.db.selectFrom('authorised').select('id').where('userId', '=', alice).executeTakeFirstOrThrow()).id;
    const { id, term } = await w.terminal(aliceToken);
    term.type('still here');
    await term.waitOutput('still here');

    await w.api.ok('DELETE', `/authorised/${grant}`);
    await term.closed;
    expect(term.closedWith).toBe(CLOSE.revoked.message);
    await eventually('the row disconnected', async () => (await w.row(id)).status === 'disconnected');
    expect(await w.row(id)).toMatchObject({ code: 802, message: CLOSE.revoked.message });
  });

  it('the product list serves telnet with its own relay; a protocol with no relay is refused text mode as before', async () => {
    const r = await sessionsHarness();
    const telnet = (await r.api.ok<{ id: string }>('POST', '/assets', { body: { name: 'echo', protocol: 'telnet', ip: '127.0.0.1', port: echo.port, accountType: 'custom', username: 'u' } })).id;
    expect((await r.api.call('POST', `/sessions?assetId=${telnet}&mode=native`)).body).toMatchObject({ code: 1 });
    const k8s = (await r.api.ok<{ id: string }>('POST', '/assets', { body: { name: 'k8s', protocol: 'kubernetes', ip: '127.0.0.1', port: echo.port, accountType: 'custom', username: 'u' } })).id;
    expect((await r.api.call('POST', `/sessions?assetId=${k8s}&mode=native`)).body).toEqual({ code: -1, message: 'KUBERNETES 资产不能使用终端模式' });
  });
});
