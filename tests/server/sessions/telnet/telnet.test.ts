import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOSE } from '../../../../server/modules/sessions/live.ts';
import { recordingFolder } from '../../../../server/modules/sessions/shared.ts';
import { DEFAULT_PATTERNS, parsePattern, patternsOf } from '../../../../server/modules/sessions/telnet/login.ts';
import { MSG_LOGIN_FAILED, TELNET_RECORDING } from '../../../../server/modules/sessions/telnet/relay.ts';
import { eventually, sessionsHarness, TermClient } from '../helpers.ts';
import { freePort } from '../../sshd.ts';
import { startTelnetd, type TestTelnetd, telnetAsset, telnetdUnavailable } from './telnetd.ts';

/*
 * The Telnet relay end to end: the real app, a real telnetd (inetutils, through inetd) on loopback with a test login
 * script, the browser's WebSocket. The bastion types the account at the host's prompts; the session has the core's
 * recording, command index, monitor and access re-check like SSH's.
 */

const PROMPT = /\$ $/;

describe('login patterns', () => {
  it('reads (?i) as the i flag and refuses what is not an expression', () => {
    expect(parsePattern('(?i)login:\\s*$')?.flags).toBe('i');
    expect(parsePattern('(?i)login:\\s*$')?.test('LOGIN: ')).toBe(true);
    expect(parsePattern('password:$')?.test('Password:')).toBe(false);
    expect(parsePattern('(?i)login:(')).toBeUndefined();
    expect(parsePattern('(?x)a')).toBeUndefined();
    expect(parsePattern('')).toBeUndefined();
    const { patterns, invalid } = patternsOf(new Map([['password-regex', '[']]));
    expect(invalid).toEqual(['password-regex']);
    expect(patterns.password).toBe(DEFAULT_PATTERNS.password);
  });
});

describe.skipIf(telnetdUnavailable())('the Telnet relay (real telnetd)', () => {
  let telnetd: TestTelnetd;
  beforeAll(async () => {
    telnetd = await startTelnetd();
  });
  afterAll(() => telnetd?.stop());

  async function world() {
    const r = await sessionsHarness();
    const base = (await r.h.listen()).replace(/^http/, 'ws');
    // Declared a secret: the harness fails any HTTP answer that carries it.
    r.secret(telnetd.password);
    const asset = async (name: string, extra: Record<string, string | number> = {}) => (await r.api.ok<{ id: string }>('POST', '/assets', { body: telnetAsset(telnetd, name, extra) })).id;
    const open = async (assetId: string, token = r.root) => (await r.as(token).ok<{ id: string }>('POST', `/sessions?assetId=${assetId}&mode=native`)).id;
    const attach = (id: string, token = r.root) => TermClient.open(`${base}/sessions/${id}/telnet?cols=100&rows=30&X-Auth-Token=${encodeURIComponent(token)}`);
    const monitor = (id: string) => TermClient.open(`${base}/sessions/${id}/telnet-monitor?X-Auth-Token=${encodeURIComponent(r.root)}`);
    const row = (id: string) => r.h.db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const terminal = async (assetId: string, token = r.root) => {
      const id = await open(assetId, token);
      const term = await attach(id, token);
      await term.connected();
      expect(term.closedWith, 'the terminal closed instead of connecting').toBeUndefined();
      await r.as(token).ok('POST', `/sessions/${id}/connect`);
      await term.waitOutput(PROMPT);
      return { id, term };
    };
    return { ...r, asset, open, attach, monitor, row, terminal };
  }

  it('logs in at the prompts, runs commands with TERM xterm-256color, follows resizes, is watched and recorded; the password shows nowhere', async () => {
    const w = await world();
    const web = await w.asset('switch');
    const { id, term } = await w.terminal(web);
    // What the host showed during the login: the prompts and the user name, not the password.
    expect(term.output).toContain('login: tuser');
    expect(term.output).toContain('Password:');
    expect(await w.row(id)).toMatchObject({ status: 'connected', protocol: 'telnet', username: telnetd.username, width: 100, height: 30, fileSystem: 0 });

    const watcher = await w.monitor(id);
    await watcher.waitOutput('$ ');

    let from = term.output.length;
    term.type('echo "term=$TERM"\r');
    await term.waitOutput('term=xterm-256color', from);
    await term.waitOutput(PROMPT, from);
    from = term.output.length;
    term.type('stty size\r');
    await term.waitOutput(/30 100\r?\n/, from);
    term.resize(132, 43);
    await eventually('the row resized', async () => (await w.row(id)).width === 132);
    from = term.output.length;
    term.type('stty size\r');
    await term.waitOutput(/43 132\r?\n/, from);
    from = term.output.length;
    term.type('echo watched-$((6*7))\r');
    await term.waitOutput('watched-42', from);
    await watcher.waitOutput('watched-42');

    await term.close();
    await eventually('the session ended', async () => (await w.row(id)).status === 'disconnected');
    await watcher.closed;
    expect(await w.row(id)).toMatchObject({ code: CLOSE.normal.code, message: CLOSE.normal.message });

    // The command index has the commands as the terminal showed them.
    const commands = (await w.h.db.selectFrom('sessionCommands').select('command').where('sessionId', '=', id).orderBy('offsetMs').execute()).map((c) => c.command);
    expect(commands).toEqual(['echo "term=$TERM"', 'stty size', 'stty size', 'echo watched-$((6*7))']);
    const recording = fs.readFileSync(path.join(recordingFolder(w.config, id), TELNET_RECORDING), 'utf8');
    expect(recording).toContain('watched-42');
    expect(recording).toContain('login: tuser');
    expect(recording).toContain('"r","132x43"');

    // The password: in no frame of the user's or the watcher's, not in the recording, not in the command index.
    for (const text of [term.frames.join('\n'), watcher.frames.join('\n'), recording, commands.join('\n')]) expect(text.includes(telnetd.password)).toBe(false);
  });

  it('a wrong password ends the attach with the login failure, said without detail; nothing leaks', async () => {
    const w = await world();
    const bad = await w.asset('bad', { password: 'Not-The-Password-1' });
    const id = await w.open(bad);
    const term = await w.attach(id);
    await term.closed;
    expect(term.closedWith).toBe(MSG_LOGIN_FAILED);
    expect(term.frames.join('\n').includes('Not-The-Password-1')).toBe(false);
    expect(await w.row(id)).toMatchObject({ status: 'disconnected', code: 806, message: MSG_LOGIN_FAILED });
  });

  it('a refused connection closes with a fixed reason; the row keeps the address for admins', async () => {
    const w = await world();
    const closed = await w.asset('closed', { port: await freePort() });
    const id = await w.open(closed);
    const term = await w.attach(id);
    await term.closed;
    expect(term.closedWith).toBe('创建Telnet连接失败：连接被拒绝');
    const row = await w.row(id);
    expect(row).toMatchObject({ status: 'disconnected', code: 806 });
    expect(row.message).toMatch(/^创建Telnet连接失败：连接被拒绝（127\.0\.0\.1:\d+）$/);
  });

  it('with no user name on the asset, the user logs in by hand', async () => {
    const w = await world();
    const manual = await w.asset('manual', { username: '', password: '' });
    const id = await w.open(manual);
    const term = await w.attach(id);
    await term.connected();
    expect(term.closedWith).toBeUndefined();
    await term.waitOutput(/login: $/);
    term.type(`${telnetd.username}\r`);
    await term.waitOutput(/Password: $/);
    term.type(`${telnetd.password}\r`);
    await term.waitOutput(PROMPT);
    const from = term.output.length;
    term.type('echo by-hand\r');
    await term.waitOutput('by-hand\r\n', from);
    // Typed by the user, the password is not echoed by the host: the terminal never shows it.
    expect(term.output.includes(telnetd.password)).toBe(false);
    expect(await w.row(id)).toMatchObject({ username: '' });
    await term.close();
  });

  it("the asset's patterns: a bad one is refused at save, one stored anyway falls back to the default, a failure pattern is obeyed", async () => {
    const w = await world();
    const refused = await w.api.call('POST', '/assets', { body: telnetAsset(telnetd, 'bad-re', { 'username-regex': '(?i)login:(' }) });
    expect((refused.body as { code: number }).code).not.toBe(1);
    // The failure pattern takes the banner after the password, so the login "fails" where it would succeed.
    const odd = await w.asset('odd', { 'login-failure-regex': '(?i)welcome' });
    // A value the routes would refuse, stored anyway (an older server, a direct write): the default prompt is used.
    await w.h.db.deleteFrom('assetAttributes').where('assetId', '=', odd).where('name', '=', 'username-regex').execute();
    await w.h.db.insertInto('assetAttributes').values({ id: 'bad-username-regex', assetId: odd, name: 'username-regex', value: '(?i)login:(' }).execute();
    const id = await w.open(odd);
    const term = await w.attach(id);
    await term.closed;
    expect(term.closedWith).toBe(MSG_LOGIN_FAILED);
  });

  it('access re-checked: removing the grant ends a running Telnet session with 802', async () => {
    const w = await world();
    const web = await w.asset('granted');
    const alice = await w.h.createUser({ username: 'alice', type: 'user' });
    const aliceToken = await w.h.accessToken(alice);
    const strategy = (await w.api.ok<{ id: string }>('POST', '/strategies', { body: { name: 'plain' } })).id;
    await w.api.ok('POST', '/authorised/users', { body: { userIds: [alice], assetId: web, strategyId: strategy } });
    const grantId = (await w.h.db.selectFrom('authorised').select('id').where('userId', '=', alice).executeTakeFirstOrThrow()).id;
    const { id, term } = await w.terminal(web, aliceToken);
    await w.api.ok('DELETE', `/authorised/${grantId}`);
    await term.closed;
    expect(term.closedWith).toBe(CLOSE.revoked.message);
    expect(await w.row(id)).toMatchObject({ status: 'disconnected', code: 802, message: CLOSE.revoked.message });
  });
});
