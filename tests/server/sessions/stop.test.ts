import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultRelays, sessionsModule } from '../../../server/modules/sessions/index.ts';
import { CLOSE, createLiveSessions, type LiveSession } from '../../../server/modules/sessions/live.ts';
import { recordingFolder } from '../../../server/modules/sessions/shared.ts';
import { sessionsHarness, TermClient } from './helpers.ts';
import { ECHO_RECORDING, echoRelay, startEchoServer } from './echo/relay.ts';

/*
 * A clean stop says why (issue 30 §3): app.close() — what SIGTERM runs (server/main.ts) — ends the live sessions
 * before any socket is closed: each terminal and each monitor gets `0<reason>` in its own language and a close 1000,
 * each row the stop's code and message (not 0 / 用户正常退出), each recording is flushed; and the stop is bounded.
 */

let echo: Awaited<ReturnType<typeof startEchoServer>>;
beforeAll(async () => {
  echo = await startEchoServer();
});
afterAll(() => echo?.stop());

/** A socket and the close code it ended with. */
function withCloseCode(client: TermClient): Promise<number> {
  return new Promise((resolve) => client.ws.once('close', (code: number) => resolve(code)));
}

async function world() {
  const r = await sessionsHarness({ modules: [sessionsModule({ relays: [...defaultRelays, echoRelay] })] });
  const base = (await r.h.listen()).replace(/^http/, 'ws');
  const asset = (await r.api.ok<{ id: string }>('POST', '/assets', { body: { name: 'echo', protocol: 'telnet', ip: '127.0.0.1', port: echo.port, accountType: 'custom', username: 'u' } })).id;
  const token = encodeURIComponent(r.root);
  /** Opened, attached (in `lng`), connected. */
  const terminal = async (lng: 'zh-CN' | 'en-US') => {
    const id = (await r.api.ok<{ id: string }>('POST', `/sessions?assetId=${asset}&mode=native`)).id;
    const term = await TermClient.open(`${base}/sessions/${id}/echo?cols=100&rows=30&lng=${lng}&X-Auth-Token=${token}`);
    const code = withCloseCode(term);
    await term.connected();
    expect(term.closedWith, 'the echo terminal closed instead of connecting').toBeUndefined();
    await r.api.ok('POST', `/sessions/${id}/connect`);
    return { id, term, code };
  };
  const monitor = async (id: string) => {
    const watcher = await TermClient.open(`${base}/sessions/${id}/ssh-monitor?X-Auth-Token=${token}`);
    const code = withCloseCode(watcher);
    await watcher.until('the screen', () => watcher.frames.length >= 2);
    return { watcher, code };
  };
  const row = (id: string) => r.h.db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  return { ...r, terminal, monitor, row };
}

describe('stopping the server with live sessions', () => {
  it('ends every session first: its reason to each terminal and monitor (in their language), close 1000, the row says the stop, the recording is whole', async () => {
    const w = await world();
    const zh = await w.terminal('zh-CN');
    const en = await w.terminal('en-US');
    zh.term.type('before the stop');
    await zh.term.waitOutput('before the stop');
    en.term.type('english side');
    await en.term.waitOutput('english side');
    const { watcher, code: watcherCode } = await w.monitor(zh.id);

    const started = performance.now();
    await w.h.app.close(); // what SIGTERM runs (server/main.ts)
    const took = performance.now() - started;
    await Promise.all([zh.term.closed, en.term.closed, watcher.closed]);

    // The reason is the last frame, before a clean close (not the bare close of 1005).
    expect(zh.term.frames.at(-1)).toBe(`0${CLOSE.serverStopped.message}`);
    expect(zh.term.closedWith).toBe('服务停止，会话已结束');
    expect(await zh.code).toBe(1000);
    expect(en.term.frames.at(-1)).toBe('0The server stopped; the session ended');
    expect(await en.code).toBe(1000);
    expect(watcher.frames.at(-1)).toBe(`0${CLOSE.serverStopped.message}`);
    expect(await watcherCode).toBe(1000);
    // Ending the sessions is not a wait on a timer: it is done in well under the stop's deadline.
    expect(took).toBeLessThan(4000);

    // Each row: the stop's code and message, whatever the socket's close would have said.
    for (const id of [zh.id, en.id]) {
      const ended = await w.row(id);
      expect(ended).toMatchObject({ status: 'disconnected', code: CLOSE.serverStopped.code, message: CLOSE.serverStopped.message });
      expect(ended.disconnectedTime).toBeGreaterThan(0);
    }
    // The recording was flushed before the process could go: whole lines, the output in it.
    const cast = fs.readFileSync(path.join(recordingFolder(w.config, zh.id), ECHO_RECORDING), 'utf8');
    const lines = cast.split('\n').filter((line) => line !== '');
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
    expect(cast).toContain('before the stop');
    expect(w.live.all()).toEqual([]);
  });

  it('after a stop and a start, the rows still say the stop (not the restart that ends orphans)', async () => {
    const w = await world();
    const { id, term } = await w.terminal('zh-CN');
    await w.h.restart(); // app.close(), then a new app on the same data folder
    await term.closed;
    expect(term.closedWith).toBe(CLOSE.serverStopped.message);
    expect(await w.row(id)).toMatchObject({ status: 'disconnected', code: CLOSE.serverStopped.code, message: CLOSE.serverStopped.message });
    // The history says it in the reader's language.
    const history = (lng: string) => w.api.ok<{ items: { id: string; message: string }[] }>('GET', `/sessions/paging?pageIndex=1&pageSize=10&status=disconnected&lng=${lng}`);
    expect((await history('zh-CN')).items.find((s) => s.id === id)?.message).toBe('服务停止，会话已结束');
    expect((await history('en-US')).items.find((s) => s.id === id)?.message).toBe('The server stopped; the session ended');
  });
});

describe('the live registry at a stop (closeAll)', () => {
  /** A session whose close is seen, and resolves only when `release()` is called (a slow or stuck disk). */
  function slowSession(id: string) {
    const calls: { code: number; message: string }[] = [];
    let release = () => {};
    const done = new Promise<void>((resolve) => {
      release = resolve;
    });
    const session: LiveSession = {
      id,
      creator: 'u',
      assetId: 'a',
      capabilities: {},
      close: (code, message) => {
        calls.push({ code, message });
        return done;
      },
    };
    return { session, calls, release };
  }

  it('does not wait past its deadline for a session that cannot finish, and says so', async () => {
    const live = createLiveSessions();
    const stuck = slowSession('s1');
    live.add(stuck.session);
    const started = performance.now();
    const result = await live.closeAll(undefined, 100);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(result).toEqual({ ended: 1, unfinished: 1 });
    expect(stuck.calls).toEqual([{ code: CLOSE.serverStopped.code, message: CLOSE.serverStopped.message }]);
    stuck.release();
  });

  it('ends a session registered during the stop at once, with the stop’s reason', async () => {
    const live = createLiveSessions();
    expect(await live.closeAll()).toEqual({ ended: 0, unfinished: 0 });
    expect(live.stopping).toEqual(CLOSE.serverStopped);
    const late = slowSession('s2');
    late.release();
    live.add(late.session);
    expect(late.calls).toEqual([{ code: CLOSE.serverStopped.code, message: CLOSE.serverStopped.message }]);
  });
});
