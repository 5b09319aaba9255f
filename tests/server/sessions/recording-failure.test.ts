import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../server/config.ts';
import { defaultRelays, sessionsModule } from '../../../server/modules/sessions/index.ts';
import { CLOSE } from '../../../server/modules/sessions/live.ts';
import { MSG_RECORDING } from '../../../server/modules/sessions/recording-download.ts';
import { failureReason, type Recorder, Recording, RecordingStartError, recordingStart } from '../../../server/modules/sessions/recording.ts';
import type { RecordingSpace } from '../../../server/modules/overview/recording-space.ts';
import { recordingFolder } from '../../../server/modules/sessions/shared.ts';
import { eventually, sessionsHarness, TermClient } from './helpers.ts';
import { ECHO_RECORDING, echoRelay, startEchoServer } from './echo/relay.ts';

/*
 * Issue 30 §2: a recording that cannot be written never freezes its session, never lies. The recording folder is a
 * small tmpfs that the tests fill (we run as root); the host is the echo relay, so what is typed comes back as output
 * and goes to the recording. A FIFO nobody reads stands for a disk that is slow, then fails.
 */

const TMPFS_SIZE = 256 * 1024;
const mounts: string[] = [];
let scratch: string;
let echo: Awaited<ReturnType<typeof startEchoServer>>;

beforeAll(async () => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'jumpgate-recfail-'));
  echo = await startEchoServer();
});
afterAll(async () => {
  await echo?.stop();
  for (const m of mounts) execFileSync('umount', ['-l', m]);
  fs.rmSync(scratch, { recursive: true, force: true });
});

/** A fresh 256 KiB tmpfs (unmounted after the file's tests). */
function smallDisk(): string {
  const dir = fs.mkdtempSync(path.join(scratch, 'disk-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${TMPFS_SIZE}`, 'tmpfs', dir]);
  mounts.push(dir);
  return dir;
}

/** Fills the disk of `dir` to the last byte (a new file each time, so a disk freed a little is filled again). */
function fill(dir: string): void {
  const file = path.join(dir, `filler-${Math.random().toString(36).slice(2)}`);
  try {
    fs.writeFileSync(file, Buffer.alloc(2 * TMPFS_SIZE, 'x'));
  } catch (err) {
    expect((err as NodeJS.ErrnoException).code).toBe('ENOSPC');
    return;
  }
  throw new Error('the disk did not fill');
}

/** Every line of the file is JSON (asciicast: a header object, then events): what a player needs. */
function parseLines(file: string): unknown[] {
  const text = fs.readFileSync(file, 'utf8');
  expect(text.endsWith('\n'), 'the file ends with a whole line').toBe(true);
  return text
    .split('\n')
    .slice(0, -1)
    .map((line) => JSON.parse(line) as unknown);
}

async function world(opts: { policy?: 'end' | 'continue'; recordingDir: string; recorder?: Recorder }) {
  const log: Record<string, unknown>[] = [];
  const env: Record<string, string> = { JUMPGATE_RECORDING_DIR: opts.recordingDir };
  if (opts.policy) env.JUMPGATE_RECORDING_FAILURE = opts.policy;
  const r = await sessionsHarness({
    env,
    modules: [sessionsModule({ relays: [...defaultRelays, echoRelay], recorder: opts.recorder })],
    logStream: { write: (line) => log.push(JSON.parse(line) as Record<string, unknown>) },
  });
  const base = (await r.h.listen()).replace(/^http/, 'ws');
  const asset = (await r.api.ok<{ id: string }>('POST', '/assets', { body: { name: 'echo', protocol: 'telnet', ip: '127.0.0.1', port: echo.port, accountType: 'custom', username: 'u' } })).id;
  const open = async () => (await r.api.ok<{ id: string }>('POST', `/sessions?assetId=${asset}&mode=native`)).id;
  const attach = (id: string) => TermClient.open(`${base}/sessions/${id}/echo?cols=100&rows=30&X-Auth-Token=${encodeURIComponent(r.root)}`);
  const row = (id: string) => r.h.db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const terminal = async () => {
    const id = await open();
    const term = await attach(id);
    await term.connected();
    expect(term.closedWith, 'the echo terminal closed instead of connecting').toBeUndefined();
    await r.api.ok('POST', `/sessions/${id}/connect`);
    return { id, term };
  };
  const warnings = (msg: string) => log.filter((l) => l.msg === msg);
  return { ...r, open, attach, row, terminal, warnings };
}

/** Waits until the session's recording file holds `text` (written, not only batched). */
const recorded = (config: { recordingDir: string }, id: string, text: string) =>
  eventually(`${text} in the recording`, () => fs.readFileSync(path.join(recordingFolder(config, id), ECHO_RECORDING), 'utf8').includes(text));

/** Types `n` lines of about 1 KB and waits until all are echoed: output that the recording must write. */
async function typeLines(term: TermClient, tag: string, n: number): Promise<void> {
  const from = term.output.length;
  for (let i = 0; i < n; i++) term.type(`${tag}-${i} ${'y'.repeat(1000)}\n`);
  await term.waitOutput(`${tag}-${n - 1} `, from);
}

describe('settings', () => {
  it('JUMPGATE_RECORDING_FAILURE is end by default, or continue; anything else is refused', () => {
    expect(loadConfig([], {}).recordingFailure).toBe('end');
    expect(loadConfig([], { JUMPGATE_RECORDING_FAILURE: 'continue' }).recordingFailure).toBe('continue');
    expect(loadConfig([], { JUMPGATE_RECORDING_FAILURE: ' end ' }).recordingFailure).toBe('end');
    expect(() => loadConfig([], { JUMPGATE_RECORDING_FAILURE: 'ignore' })).toThrow(ConfigError);
    expect(() => loadConfig([], { JUMPGATE_RECORDING_FAILURE: 'ignore' })).toThrow(/JUMPGATE_RECORDING_FAILURE.*"ignore"/);
    expect(loadConfig([], {}).recordingMinFreeMb).toBe(1024);
    expect(loadConfig([], { JUMPGATE_RECORDING_MIN_FREE_MB: '50' }).recordingMinFreeMb).toBe(50);
    expect(() => loadConfig([], { JUMPGATE_RECORDING_MIN_FREE_MB: '-1' })).toThrow(ConfigError);
  });
});

describe('a Recording whose writes fail', () => {
  it('wakes whoever waits for its drain, and is no longer behind (a slow disk, then a failure: no freeze)', async () => {
    // A FIFO that is opened to read but never read: the pipe fills, then the write blocks in a file thread (a slow
    // disk). Closing the reader makes that write fail (EPIPE).
    const fifo = path.join(scratch, `slow-${Date.now()}`);
    execFileSync('mkfifo', [fifo]);
    const reader = fs.openSync(fifo, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    const recording = await Recording.create(fifo, { width: 80, height: 24, timestamp: 1 });
    const failures: string[] = [];
    recording.onFailure((code) => failures.push(code));
    for (let i = 0; i < 40; i++) recording.output('z'.repeat(256 * 1024));
    expect(recording.behind).toBe(true);
    let woken = 0;
    recording.onDrain(() => woken++);
    await new Promise((r) => setTimeout(r, 200));
    expect(woken, 'still behind: nobody reads the FIFO').toBe(0);
    fs.closeSync(reader);
    await eventually('the drain waiter woken', () => woken === 1, 5000);
    expect(recording.behind).toBe(false);
    expect(failures).toEqual(['EPIPE']);
    // Asked again after the failure: answered at once, never left waiting.
    recording.onDrain(() => woken++);
    expect(woken).toBe(2);
    recording.output('after the failure');
    await recording.end();
    expect(failures).toEqual(['EPIPE']);
  });

  it('is cut back to whole lines on a full disk, and says ENOSPC once', async () => {
    const disk = smallDisk();
    const recording = await Recording.start(disk, 'session-a', 'a.cast', { width: 80, height: 24, timestamp: 1 });
    const failures: string[] = [];
    recording.onFailure((code) => failures.push(code));
    fill(disk);
    // Lines of odd lengths, in several batches: the last page of the file takes part of one, then the disk is full.
    for (let i = 0; i < 200; i++) recording.output(`line ${i} ${'é'.repeat(333 + i)}`);
    await eventually('the failure', () => recording.failed !== undefined, 5000);
    await recording.end();
    expect(failures).toEqual(['ENOSPC']);
    const lines = parseLines(recording.file);
    expect(lines[0]).toMatchObject({ version: 2, width: 80, height: 24 });
    for (const event of lines.slice(1)) expect(event).toEqual([expect.any(Number), 'o', expect.stringMatching(/^line \d+ é+$/)]);
  });

  it('cannot start on a full disk: the start says why, and leaves no empty file behind', async () => {
    const disk = smallDisk();
    fill(disk);
    const started = Recording.start(disk, 'session-b', 'b.cast', { width: 80, height: 24, timestamp: 1 });
    await expect(started).rejects.toBeInstanceOf(RecordingStartError);
    await expect(started).rejects.toMatchObject({ code: 'ENOSPC' });
    expect(fs.existsSync(path.join(disk, 'session-b'))).toBe(false);
  });

  it('does not start when its header cannot be written in time (a hung disk): ETIMEDOUT', async () => {
    const fifo = path.join(scratch, `hung-${Date.now()}`);
    execFileSync('mkfifo', [fifo]);
    const before = recordingStart.timeoutMs;
    recordingStart.timeoutMs = 200;
    try {
      // Nobody opens the FIFO to read: opening it to write waits in a file thread, as on a dead mount.
      await expect(Recording.create(fifo, { width: 80, height: 24, timestamp: 1 })).rejects.toMatchObject({ code: 'ETIMEDOUT' });
    } finally {
      recordingStart.timeoutMs = before;
      fs.closeSync(fs.openSync(fifo, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK)); // lets that thread go
    }
  });

  it('names the usual failures in words, an unknown one by its code', () => {
    expect(failureReason('ENOSPC')).toBe('磁盘已满');
    expect(failureReason('EDQUOT')).toBe('超出磁盘配额');
    expect(failureReason('EIO')).toBe('磁盘读写错误');
    expect(failureReason('EWHATEVER')).toBe('EWHATEVER');
  });
});

describe('a session whose recording fails', () => {
  it('continue: goes on echoing after the disk fills; the row says incomplete, why and when; the file parses; logged once', async () => {
    const disk = smallDisk();
    const w = await world({ policy: 'continue', recordingDir: disk });
    const { id, term } = await w.terminal();
    await typeLines(term, 'before', 5);
    await recorded(w.config, id, 'before-4 ');
    fill(disk);
    const at = w.h.clock.now();
    await typeLines(term, 'full', 40);
    await eventually('the row marked incomplete', async () => (await w.row(id)).recordingFailure !== null);
    expect(await w.row(id)).toMatchObject({ status: 'connected', recordingFailure: 'ENOSPC', recordingFailedAt: at });
    // The relay was never left paused: the session keeps echoing.
    await typeLines(term, 'still', 40);
    term.type('still here\n');
    await term.waitOutput('still here');
    expect(term.closedWith).toBeUndefined();
    await term.close();
    await eventually('disconnected', async () => (await w.row(id)).status === 'disconnected');
    expect(await w.row(id)).toMatchObject({ code: CLOSE.normal.code, recordingFailure: 'ENOSPC', recordingFailedAt: at });

    const file = path.join(recordingFolder(w.config, id), ECHO_RECORDING);
    const lines = parseLines(file);
    expect(lines[0]).toMatchObject({ version: 2, width: 100, height: 30 });
    const kept = lines
      .slice(1)
      .map((e) => (e as [number, string, string])[2])
      .join('');
    expect(kept).toContain('before-4 ');
    expect(kept).not.toContain('still-0 ');
    // Logged once per session, with the session, the file and the code.
    expect(w.warnings('recording could not be written')).toEqual([expect.objectContaining({ sessionId: id, file, code: 'ENOSPC', policy: 'continue' })]);

    // The history says it (additive fields); `recording` stays 1.3.9's.
    const item = (await w.api.ok<{ items: Record<string, unknown>[] }>('GET', '/sessions/paging?status=disconnected')).items.find((s) => s.id === id);
    expect(item).toMatchObject({ recording: '1', recordingIncomplete: true, recordingFailure: 'ENOSPC' });
    expect(item?.recordingFailedAt).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(await w.api.ok('GET', `/sessions/${id}`)).toMatchObject({ recordingIncomplete: true, recordingFailure: 'ENOSPC' });

    // A new session on the full disk goes on, unrecorded, and says so; no empty file, no 200 with nothing.
    fill(disk);
    const next = await w.terminal();
    next.term.type('unrecorded\n');
    await next.term.waitOutput('unrecorded');
    expect(await w.row(next.id)).toMatchObject({ status: 'connected', recording: '', recordingFailure: 'ENOSPC' });
    const played = await w.h.app.inject({ method: 'GET', url: `/sessions/${next.id}/recording`, headers: { 'x-auth-token': w.root } });
    expect(played.statusCode).toBe(200);
    expect(JSON.parse(played.body)).toMatchObject({ code: -1, message: MSG_RECORDING.none });
    expect(w.warnings('recording could not start')).toEqual([expect.objectContaining({ sessionId: next.id, code: 'ENOSPC', policy: 'continue' })]);
    await next.term.close();
  });

  it('end (the default): the session ends with the reason; a new session on the full disk is refused with it', async () => {
    const disk = smallDisk();
    const w = await world({ recordingDir: disk });
    const { id, term } = await w.terminal();
    await typeLines(term, 'before', 5);
    await recorded(w.config, id, 'before-4 ');
    fill(disk);
    for (let i = 0; i < 40; i++) term.type(`full-${i} ${'y'.repeat(1000)}\n`);
    await term.closed;
    const reason = `${CLOSE.recordingFailed.message}：磁盘已满`;
    expect(term.closedWith).toBe(reason);
    await eventually('disconnected', async () => (await w.row(id)).status === 'disconnected');
    expect(await w.row(id)).toMatchObject({ code: CLOSE.recordingFailed.code, message: reason, recordingFailure: 'ENOSPC' });
    parseLines(path.join(recordingFolder(w.config, id), ECHO_RECORDING));
    expect(w.warnings('recording could not be written')).toHaveLength(1);
    // The history says the reason in the reader's language.
    const en = await w.api.ok<{ items: { id: string; message: string }[] }>('GET', '/sessions/paging?status=disconnected&lng=en-US');
    expect(en.items.find((s) => s.id === id)?.message).toBe('The recording could not be written; the session ended: the disk is full');

    fill(disk);
    const refusedId = await w.open();
    const refused = await w.attach(refusedId);
    await refused.closed;
    const refusal = `${CLOSE.recordingRefused.message}：磁盘已满`;
    expect(refused.frames).toEqual([`0${refusal}`]);
    expect(await w.row(refusedId)).toMatchObject({ status: 'disconnected', code: CLOSE.recordingRefused.code, message: refusal, recording: '' });
    expect(fs.existsSync(recordingFolder(w.config, refusedId))).toBe(false);
  });

  it('continue: a relay paused behind a slow recording resumes when the write fails (no freeze)', async () => {
    const fifo = path.join(scratch, `relay-${Date.now()}`);
    execFileSync('mkfifo', [fifo]);
    const reader = fs.openSync(fifo, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    let recording: Recording | undefined;
    const recorder: Recorder = {
      start: async (_id, _file, header) => {
        recording = await Recording.create(fifo, header);
        return recording;
      },
    };
    const w = await world({ policy: 'continue', recordingDir: path.join(scratch, 'unused'), recorder });
    const { id, term } = await w.terminal();
    // More than the recording's 8 MiB buffer: the relay pauses behind it.
    const chunk = 'q'.repeat(512 * 1024);
    for (let i = 0; i < 32; i++) term.type(chunk);
    term.type('END-OF-BURST');
    await eventually('the recording behind', () => recording?.behind === true);
    // The marker is looked for in the last frames only (the output is 16 MiB of 'q').
    const burstEnded = () => term.frames.slice(-2).join('').includes('END-OF-BURST');
    await new Promise((r) => setTimeout(r, 300));
    expect(burstEnded(), 'paused behind the recording').toBe(false);
    fs.closeSync(reader);
    await term.until('the end of the burst', burstEnded, 15_000);
    const mark = term.output.length;
    term.type('typed after\n');
    await term.waitOutput('typed after', mark);
    expect(term.closedWith).toBeUndefined();
    await eventually('the row marked incomplete', async () => (await w.row(id)).recordingFailure === 'EPIPE');
    await term.close();
  });
});

describe('the download', () => {
  it('answers an empty recording file (no header) with an envelope error, never 200 with nothing', async () => {
    const w = await sessionsHarness();
    const id = await w.seedSession();
    w.writeRecording(id, '');
    const res = await w.h.app.inject({ method: 'GET', url: `/sessions/${id}/recording`, headers: { 'x-auth-token': w.root } });
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ code: -1, message: MSG_RECORDING.empty });
  });
});

describe('the monitoring page', () => {
  it('shows the recording folder’s free space and warns below JUMPGATE_RECORDING_MIN_FREE_MB (additive, under disk)', async () => {
    const disk = smallDisk();
    const low = await sessionsHarness({ env: { JUMPGATE_RECORDING_DIR: path.join(disk, 'not-made-yet'), JUMPGATE_RECORDING_MIN_FREE_MB: '1' } });
    const load = await low.api.ok<{ disk: { total: number; recording: RecordingSpace } }>('GET', '/overview/ps');
    expect(load.disk.total).toBe(fs.statfsSync('/').blocks * fs.statfsSync('/').bsize);
    expect(load.disk.recording).toEqual({ total: TMPFS_SIZE, available: TMPFS_SIZE, usedPercent: 0, minFree: 1024 * 1024, low: true });
    fill(disk);
    expect((await low.api.ok<{ disk: { recording: RecordingSpace } }>('GET', '/overview/ps')).disk.recording).toMatchObject({ available: 0, usedPercent: 100, low: true });

    const roomy = await sessionsHarness({ env: { JUMPGATE_RECORDING_DIR: path.join(scratch, 'roomy'), JUMPGATE_RECORDING_MIN_FREE_MB: '1' } });
    const st = fs.statfsSync(scratch);
    expect((await roomy.api.ok<{ disk: { recording: RecordingSpace } }>('GET', '/overview/ps')).disk.recording).toMatchObject({
      total: st.blocks * st.bsize,
      minFree: 1024 * 1024,
      low: false,
    });
  });
});
