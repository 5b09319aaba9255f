import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteAbandonedSessions } from '../../../server/modules/sessions/lifecycle.ts';
import { startSshd, type TestSshd } from '../sshd.ts';
import { eventually, PROMPT, terminalWorld } from './helpers.ts';

let sshd: TestSshd;
beforeAll(async () => {
  sshd = await startSshd();
});
afterAll(() => sshd?.stop());

const hasAsciinema = (() => {
  try {
    execFileSync('asciinema', ['--version'], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
})();

type Event = [number, string, string];

function readCast(file: string): { header: Record<string, unknown>; events: Event[] } {
  const [head, ...lines] = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);
  return { header: JSON.parse(head as string) as Record<string, unknown>, events: lines.map((l) => JSON.parse(l) as Event) };
}

describe('recording', () => {
  it('writes asciicast v2 as the session runs: header, output and resize events, times in order; asciinema reads it', async () => {
    const w = await terminalWorld(sshd);
    const { id, term } = await w.terminal();
    const file = path.join(w.h.config.recordingDir, id, 'recording.cast');
    expect((await w.row(id)).recording).toBe(file);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    term.type('echo recorded-$((3*3))\r');
    await term.waitOutput('recorded-9');
    // Written while the session runs, not at its end.
    await eventually('the output in the file', () => fs.readFileSync(file, 'utf8').includes('recorded-9'));
    term.resize(90, 25);
    await eventually('the resize in the file', () => fs.readFileSync(file, 'utf8').includes('"r","90x25"'));
    // Wait for the output, not the echoed command line (which holds the same characters).
    term.type('echo 你好-$((1+1))\r');
    await term.waitOutput('你好-2');
    await term.close();
    await eventually('disconnected', async () => (await w.row(id)).status === 'disconnected');

    const { header, events } = readCast(file);
    expect(header).toEqual({ version: 2, width: 120, height: 40, timestamp: Math.floor(w.h.clock.now() / 1000), env: { SHELL: '/bin/bash', TERM: 'xterm-256color' } });
    expect(events.length).toBeGreaterThan(3);
    for (const [t, type, data] of events) {
      expect(typeof t).toBe('number');
      expect(['o', 'r']).toContain(type);
      expect(typeof data).toBe('string');
    }
    const times = events.map((e) => e[0]);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(events.filter((e) => e[1] === 'r')).toEqual([[expect.any(Number), 'r', '90x25']]);
    const output = events
      .filter((e) => e[1] === 'o')
      .map((e) => e[2])
      .join('');
    // Everything the user saw, in order; the recording may end with output that arrived as they closed (a prompt).
    expect(output.startsWith(term.output)).toBe(true);
    expect(output.length - term.output.length).toBeLessThan(300);
    if (hasAsciinema) {
      // asciinema reads /dev/tty: give it one with script(1).
      const shown = execFileSync('script', ['-qec', `asciinema cat ${file}`, '/dev/null'], { encoding: 'utf8' });
      expect(shown).toContain('recorded-9');
      expect(shown).toContain('你好');
    }
    w.assertNoSecretIn(term);
    expect(fs.readFileSync(file, 'utf8')).not.toContain(sshd.password);
  });
});

describe('command index', () => {
  it('stores each command line as the terminal showed it: typed, edited, recalled, completed, UTF-8; not inside full-screen programs', async () => {
    const w = await terminalWorld(sshd);
    const { id, term } = await w.terminal();
    const run = async (keys: string, marker: string, prompt = true) => {
      const from = term.output.length;
      term.type(keys);
      await term.waitOutput(marker, from);
      if (prompt) await term.waitOutput(PROMPT, from);
    };
    await run('echo hello\r', 'hello\r\n');
    await run('echo typo\x7f\x7f\x7f\x7ffixed\r', 'fixed\r\n');
    await run('echo recall-me\r', 'recall-me\r\n');
    await run('\x1b[A\r', 'recall-me\r\n');
    await run('ech\ttabbed\r', 'tabbed\r\n'); // completion adds `o `
    await run('echo 你好 世界\r', '你好 世界\r\n');
    await run('\r', '\n'); // an empty line is no command
    // In the alternate screen (a full-screen program), lines typed are not commands.
    await run("printf '\\033[?1049h'; read x; read y; printf '\\033[?1049l'\r", '\x1b[?1049h', false);
    term.type('inside-1\r');
    term.type('inside-2\r');
    await term.waitOutput('\x1b[?1049l');
    await term.waitOutput(PROMPT, term.output.lastIndexOf('\x1b[?1049l'));
    await run('echo after\r', 'after\r\n');

    const expected = ['echo hello', 'echo fixed', 'echo recall-me', 'echo recall-me', 'echo tabbed', 'echo 你好 世界', "printf '\\033[?1049h'; read x; read y; printf '\\033[?1049l'", 'echo after'];
    const stored = async () => w.h.db.selectFrom('sessionCommands').selectAll().where('sessionId', '=', id).orderBy('offsetMs').orderBy('id').execute();
    await eventually('every command stored', async () => (await stored()).length >= expected.length);
    const rows = await stored();
    expect(rows.map((r) => r.command)).toEqual(expected);
    expect((await w.row(id)).commandCount).toBe(expected.length);
    const offsets = rows.map((r) => r.offsetMs);
    expect([...offsets].sort((a, b) => a - b)).toEqual(offsets);
    expect(offsets[0]).toBeGreaterThan(0);
    await term.close();
  });
});

describe('monitor', () => {
  it('starts with the current screen, then mirrors output, and ends with the session', async () => {
    const w = await terminalWorld(sshd);
    const { id, term } = await w.terminal();
    term.type('echo before-$((40+2))\r');
    await term.waitOutput('before-42');
    const watcher = await w.monitor(id);
    await watcher.until('the first frames', () => watcher.frames.length > 1);
    // The terminal's size comes first (the screen after it was drawn for that size), as the resize frame is spelled.
    const size = (frame: string | undefined) => (frame?.startsWith('3') ? JSON.parse(Buffer.from(frame.slice(1), 'base64').toString('utf8')) : frame);
    expect(size(watcher.frames[0])).toEqual({ cols: 120, rows: 40 });
    expect(watcher.frames[1]?.startsWith('2\x1bc')).toBe(true);
    expect(watcher.frames[1]).toContain('before-42');
    term.type('echo after-$((1+1))\r');
    await watcher.waitOutput('after-2');
    // The user's resizes follow while watching.
    term.resize(200, 50);
    await watcher.until('the resize frame', () => watcher.frames.some((f) => f.startsWith('3') && f !== watcher.frames[0]));
    expect(size(watcher.frames.find((f, i) => i > 0 && f.startsWith('3')))).toEqual({ cols: 200, rows: 50 });
    const late = await w.monitor(id);
    await late.until('the late first frame', () => late.frames.length > 0);
    expect(size(late.frames[0])).toEqual({ cols: 200, rows: 50 });
    await late.close();
    watcher.ws.send('2echo ignored\r'); // read-only
    expect(watcher.frames).not.toContain('1');
    await w.live.get(id)?.close(802, '管理员强制关闭了此会话');
    await watcher.closed;
    expect(watcher.closedWith).toBe('管理员强制关闭了此会话');
    expect(term.output).not.toContain('ignored');

    // A session not live, an unknown one.
    const idle = await w.open();
    const offline = await w.monitor(idle);
    await offline.closed;
    expect(offline.frames).toEqual(['0会话已离线']);
    const ghost = await w.monitor('no-such-session');
    await ghost.closed;
    expect(ghost.frames).toEqual(['0获取会话失败']);
    // Without online-session-monitor: refused.
    const plain = await w.h.createUser({ username: 'olga', type: 'admin' });
    const denied = await w.monitor(idle, await w.h.accessToken(plain));
    await denied.closed;
    expect(denied.frames).toEqual(['0permission denied']);
    w.assertNoSecretIn(term, watcher);
  });
});

describe('lifecycle', () => {
  it('at start ends sessions a crash left running (recording kept), and sweeps never-attached sessions after an hour', async () => {
    const w = await terminalWorld(sshd);
    const { id, term } = await w.terminal();
    term.type('echo kept\r');
    await term.waitOutput('kept\r\n');
    const file = (await w.row(id)).recording;
    // A crash: the process dies without closing anything (the row stays connected).
    const crashed = await w.open();
    await w.h.db.updateTable('sessions').set({ status: 'connected', connectedTime: w.h.clock.now() }).where('id', '=', crashed).execute();
    const setup = await w.open();
    await w.h.db.updateTable('sessions').set({ status: 'connecting' }).where('id', '=', setup).execute();
    const old = await w.open();
    w.h.clock.advance(2 * 3600_000);
    const fresh = await w.open();

    await w.h.restart();
    // The live one was ended by the stop, which says so (stop.test.ts).
    expect(await w.row(id)).toMatchObject({ status: 'disconnected', code: -1, message: '服务停止，会话已结束' });
    expect(fs.readFileSync(file, 'utf8')).toContain('kept');
    for (const s of [crashed, setup]) expect(await w.row(s)).toMatchObject({ status: 'disconnected', code: -1, message: '服务重启，会话已结束' });
    const ids = (await w.h.db.selectFrom('sessions').select('id').execute()).map((r) => r.id);
    expect(ids).not.toContain(old);
    expect(ids).toContain(fresh);
    // The hourly sweep: by age, never a session younger than an hour.
    expect(await deleteAbandonedSessions({ db: w.h.db, clock: w.h.clock })).toBe(0);
    w.h.clock.advance(3600_001);
    expect(await deleteAbandonedSessions({ db: w.h.db, clock: w.h.clock })).toBe(1);
    await term.closed;
  });
});
