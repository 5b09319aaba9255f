import { describe, expect, it } from 'vitest';
import { CommandLog, CommandTracker } from '../../../server/modules/sessions/commands.ts';
import { resourcesHarness } from '../resources/helpers.ts';
import { RING_CHARS, ScreenRing } from '../../../server/modules/sessions/monitor.ts';
import { parseResize } from '../../../server/modules/sessions/terminal-session.ts';

const ESC = '\x1b';
const PROMPT = `${ESC}]0;u@h: ~\x07${ESC}[01;32mu@h${ESC}[00m:${ESC}[01;34m~${ESC}[00m$ `;

function tracker() {
  const seen: [number, string][] = [];
  const t = new CommandTracker((offset, command) => seen.push([offset, command]));
  return { t, seen };
}

describe('command tracker', () => {
  it('takes the line as shown at the echo of Enter, without the prompt', () => {
    const { t, seen } = tracker();
    t.output(`last login\r\n${PROMPT}`);
    t.input('l', 10);
    t.output('l');
    t.input('s -l\r', 20);
    t.output('s -l\r\n');
    t.output('total 0\r\nfile\r\n');
    expect(seen).toEqual([[20, 'ls -l']]);
  });

  it('indexes a command at its echo when the echo comes after the Enter, so a seek there shows it typed out', () => {
    const { t, seen } = tracker();
    t.output(PROMPT, 0);
    t.input('echo slow\r', 100);
    t.output('echo s', 90); // the echo lags the typing: the rest comes after the Enter
    t.output('low\r\n', 140);
    t.output(`slow\r\n${PROMPT}`, 150);
    t.input('ls\r', 200);
    t.output('ls\r\n', 180); // an echo recorded before the Enter's moment: the Enter's time stands
    expect(seen).toEqual([
      [140, 'echo slow'],
      [200, 'ls'],
    ]);
  });

  it('a paste of two lines before any echo: two commands, each at its own Enter', () => {
    const { t, seen } = tracker();
    t.output(PROMPT);
    t.input('echo a\recho b\r', 5);
    t.output('echo a\r\na\r\n');
    t.output(`${PROMPT}echo b\r\nb\r\n${PROMPT}`);
    expect(seen).toEqual([
      [5, 'echo a'],
      [5, 'echo b'],
    ]);
  });

  it('follows readline redraws: history recall, cursor moves, deletes, inserts', () => {
    const { t, seen } = tracker();
    t.output(PROMPT);
    t.input('\x1b[A', 1);
    // Recall: the old line is erased and replaced.
    t.output(`\r${PROMPT}${ESC}[Kgit status`);
    // Two left, delete one char, insert one.
    t.input('\x1b[D\x1b[D', 2);
    t.output('\b\b');
    t.output(`${ESC}[1P`); // deletes the "u"
    t.output(`${ESC}[1@U`); // inserts "U"
    t.input('\r', 3);
    t.output('\r\n');
    expect(seen).toEqual([[3, 'git statUs']]);
  });

  it('skips empty lines, Ctrl-C, silent password prompts and the alternate screen', () => {
    const { t, seen } = tracker();
    t.output(PROMPT);
    t.input('\r', 1);
    t.output(`\r\n${PROMPT}`);
    t.input('half typed\x03', 2);
    t.output(`half typed^C\r\n${PROMPT}`);
    t.output('[sudo] password for u: ');
    t.input('hunter22\r', 3);
    t.output('\r\n');
    t.output(`${PROMPT}`);
    t.input('vim\r', 4);
    t.output(`vim\r\n${ESC}[?1049h${ESC}[H${ESC}[2J~\r\n~\r\n`);
    t.input(':wq\r', 5);
    t.output(`${ESC}[?1049l${PROMPT}`);
    expect(seen).toEqual([[4, 'vim']]);
  });

  it('keeps UTF-8 and falls back to the usual prompt ends when the prompt was not seen', () => {
    const { t, seen } = tracker();
    t.input('\r', 7); // typed before anything was shown
    t.output('root@db:/srv# echo 你好\r\n');
    expect(seen).toEqual([[7, 'echo 你好']]);
  });
});

describe('command tracker bounds (audit H2 C1)', () => {
  const heapMb = () => process.memoryUsage().heapUsed / 1e6;

  it('a cursor-forward storm and a line with no newline keep memory bounded; the next commands are indexed', () => {
    const { t, seen } = tracker();
    t.output(PROMPT);
    const before = heapMb();
    // 10,000 × 4096 columns: unbounded, a 41-million-element line (40,000 of them made V8 abort the process).
    t.output(`${ESC}[4096C`.repeat(10_000));
    t.output('X');
    // A 16 MB line (a one-line file cat'ed), in relay-sized pieces.
    const chunk = 'a'.repeat(1024 * 1024);
    for (let i = 0; i < 16; i++) t.output(chunk);
    expect(heapMb() - before).toBeLessThan(64);
    t.output(`\r\n${PROMPT}`);
    t.input('echo after\r', 9);
    t.output('echo after\r\nafter\r\n');
    expect(seen).toEqual([[9, 'echo after']]);
  });

  it('erase and insert storms cost bounded work: the line is dropped, the next one is indexed', () => {
    const { t, seen } = tracker();
    t.output(PROMPT);
    const started = performance.now();
    // Each `ESC[4096X` on a full line rewrites 4,096 elements: unbudgeted, 4 MB of it took seconds of CPU.
    t.output(`${'a'.repeat(4096)}\r${`${ESC}[4096X`.repeat(600_000)}`);
    t.output(`${ESC}[1K`.repeat(100_000));
    expect(performance.now() - started).toBeLessThan(1000);
    t.input('\r', 3); // an Enter on the dropped line gives no command
    t.output(`\r\n${PROMPT}`);
    t.input('ls\r', 4);
    t.output('ls\r\nfile\r\n');
    expect(seen).toEqual([[4, 'ls']]);
  });
});

describe('monitor ring', () => {
  it('keeps the last output from a line start, after a reset', () => {
    const ring = new ScreenRing();
    ring.push('first line\r\n');
    expect(ring.screen()).toBe('\x1bcfirst line\r\n');
    for (let i = 0; i < 20_000; i++) ring.push(`${ESC}[32mline ${i}${ESC}[0m\r\n`);
    const screen = ring.screen();
    expect(screen.length).toBeLessThanOrEqual(RING_CHARS + 2);
    expect(screen.startsWith(`\x1bc${ESC}[32mline `)).toBe(true);
    expect(screen.endsWith(`line 19999${ESC}[0m\r\n`)).toBe(true);
  });
});

describe('resize frames', () => {
  const frame = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64');
  it('reads base64 JSON {cols, rows} within bounds, and nothing else', () => {
    expect(parseResize(frame({ cols: 120, rows: 40 }))).toEqual({ cols: 120, rows: 40 });
    expect(parseResize(frame({ cols: 0, rows: 40 }))).toBeUndefined();
    expect(parseResize(frame({ cols: 1.5, rows: 40 }))).toBeUndefined();
    expect(parseResize(frame({ cols: '80', rows: 40 }))).toBeUndefined();
    expect(parseResize(frame({ cols: 100_000, rows: 40 }))).toBeUndefined();
    expect(parseResize(frame(null))).toBeUndefined();
    expect(parseResize('%%%')).toBeUndefined();
  });
});

describe('command log', () => {
  it('writes batches of any size in one transaction per flush and keeps commandCount equal', async () => {
    const { h, api } = await resourcesHarness();
    const asset = await api.ok<{ id: string }>('POST', '/assets', { body: { name: 'a', protocol: 'ssh', ip: '10.0.0.1', port: 22, accountType: 'custom', username: 'u', password: 'Some-Password-1' } });
    const { id } = await api.ok<{ id: string }>('POST', `/sessions?assetId=${asset.id}&mode=native`);
    const errors: unknown[] = [];
    const log = new CommandLog(h.db, id, () => h.clock.now(), (e) => errors.push(e));
    for (let i = 0; i < 450; i++) log.add(i, `echo ${i}`);
    await log.flush();
    log.add(1000, 'last');
    await log.flush();
    const rows = await h.db.selectFrom('sessionCommands').select(['offsetMs', 'command']).where('sessionId', '=', id).orderBy('offsetMs').execute();
    expect(rows).toHaveLength(451);
    expect(rows[449]).toEqual({ offsetMs: 449, command: 'echo 449' });
    expect((await h.db.selectFrom('sessions').select('commandCount').where('id', '=', id).executeTakeFirstOrThrow()).commandCount).toBe(451);
    expect(errors).toEqual([]);
  });
});
