import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config.ts';
import { text } from '../../lib/i18n.ts';
import { recordingPath } from './shared.ts';

/*
 * Session recordings in asciicast v2 (https://docs.asciinema.org/manual/asciicast/v2/): a header line
 * `{"version":2,"width":…,"height":…,"timestamp":…,"env":{…}}` (lowercase `timestamp`: 1.3.9 wrote `Timestamp`,
 * quirk 24), then one line per event, `[seconds, "o", text]` for output and `[seconds, "r", "COLSxROWS"]` for a
 * resize. The file is appended as the session runs: the lines of the relay's flushes are written together every
 * BATCH_MS or BATCH_CHARS, whichever comes first, so a crash loses at most the last BATCH_MS. (One write per flush
 * cost the server more CPU than the rest of the relay: measured 22.4 vs 9.3 ms per MB relayed.)
 *
 * Where: `<recordingDir>/<sessionId>/<file>` (the relay names the file), folder 0700, file 0600 (what the user typed
 * shows in it). The attach flow asks a Recorder (below) for it: the app's writes files, a benchmark's may write none.
 *
 * A write that fails (a full disk, a quota, an I/O error) stops the recording for good, never the relay: whoever waits
 * for a drain is woken, `behind` is false from then on, and the failure listeners (the terminal: log once, mark the
 * row, apply the configured policy, config.ts `recordingFailure`) hear it once. The file is cut back to its last whole
 * line (a write cut short by ENOSPC can leave half a line), so what was recorded stays playable.
 */

const WRITE_BUFFER = 8 * 1024 * 1024;
const BATCH_MS = 100;
const BATCH_CHARS = 256 * 1024;

/**
 * A recording in another format than asciicast (a desktop's `recording.rfb`, vnc/rfb-recording.ts): its header as it is
 * (a line of text), then binary records (`record`) written in batches like the lines. A failed write cuts the file
 * back to the end of the last batch that was written whole (records are never split across batches).
 */
export interface RawHeader {
  raw: string;
}

/** How long a recording's header may take to be written before the start counts as failed (ETIMEDOUT); tests shorten it. */
export const recordingStart = { timeoutMs: 10_000 };

export interface RecordingHeader {
  width: number;
  height: number;
  /** Unix seconds of the start. */
  timestamp: number;
}

/** Why writing failed: the system's error code (ENOSPC…), `EIO` when the error had none. */
export type FailureListener = (code: string) => void;

/** A recording that could not start (its header could not be written): `code` as a write failure's. */
export class RecordingStartError extends Error {
  constructor(
    readonly code: string,
    cause: unknown,
  ) {
    super(`the recording could not start: ${code}`, { cause });
  }
}

/** The reason for a failure code, in zh-CN (declared in English too): what the close reason and the log say. */
const REASONS: Record<string, string> = {
  ENOSPC: text('磁盘已满', 'the disk is full'),
  EDQUOT: text('超出磁盘配额', 'the disk quota is exceeded'),
  EIO: text('磁盘读写错误', 'a disk I/O error'),
  EROFS: text('文件系统只读', 'the file system is read-only'),
  EACCES: text('没有写入权限', 'no permission to write'),
  EPERM: text('没有写入权限', 'no permission to write'),
  ENOENT: text('录像目录不存在', 'the recording folder is gone'),
  EFBIG: text('录像文件过大', 'the recording file is too large'),
  EMFILE: text('打开的文件过多', 'too many open files'),
  ENFILE: text('打开的文件过多', 'too many open files'),
  EPIPE: text('写入通道已断开', 'the write channel broke'),
  ETIMEDOUT: text('磁盘写入超时', 'writing to the disk timed out'),
};

/** `磁盘已满` for ENOSPC…; an unknown code is said as it is. */
export const failureReason = (code: string): string => REASONS[code] ?? code;

/** The system's error code of a failed write (ENOSPC…); `EIO` for an error without one. */
export const failureCode = (err: unknown): string => {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' && code !== '' ? code : 'EIO';
};

/**
 * The offset just past the last `\n` in [from, size) of the file; `from` when there is none or it cannot be read;
 * undefined when it is not a regular file (nothing to cut; opening a FIFO to read it would block).
 */
async function lastLineEnd(file: string, from: number): Promise<number | undefined> {
  if (!(await fs.promises.stat(file)).isFile()) return undefined;
  const chunk = Buffer.alloc(64 * 1024);
  const fd = await fs.promises.open(file, 'r');
  try {
    let end = (await fd.stat()).size;
    while (end > from) {
      const start = Math.max(from, end - chunk.length);
      const { bytesRead } = await fd.read(chunk, 0, end - start, start);
      const nl = chunk.subarray(0, bytesRead).lastIndexOf(0x0a);
      if (nl >= 0) return start + nl + 1;
      end = start;
    }
    return from;
  } finally {
    await fd.close();
  }
}

export class Recording {
  private readonly stream: fs.WriteStream;
  /** The failure's code once a write failed; nothing is written after it. */
  private failure: string | undefined;
  /** Bytes the file holds in whole lines: the end of the last batch whose write completed. */
  private written = 0;
  /** The file cut back to whole lines after a failure (end() waits for it). */
  private repaired: Promise<void> = Promise.resolve();
  private readonly failureListeners: FailureListener[] = [];
  private batch: (string | Buffer)[] = [];
  /** Binary records (a RawHeader): cut back to the last whole batch, not to a newline. */
  private binary = false;
  private batchChars = 0;
  private timer: NodeJS.Timeout | undefined;
  private drainWaiters: (() => void)[] = [];
  /** performance.now() at the start: event times are relative to it. */
  readonly startedAt: number;

  private constructor(
    readonly file: string,
    startedAt: number,
  ) {
    this.startedAt = startedAt;
    // A large buffer: the terminal pauses the relay's stream while the file is behind, and the default 16 KB would pause it on
    // every burst for a thread-pool round trip (measured: half the throughput).
    this.stream = fs.createWriteStream(file, { flags: 'w', mode: 0o600, highWaterMark: WRITE_BUFFER });
    this.stream.on('error', (err) => this.fail(err));
  }

  /**
   * Creates `<recordingDir>/<sessionId>/` (0700; anything left there by an older session of that id goes) and the file,
   * and resolves once its header is written. Throws a RecordingStartError when it cannot (the folder is then removed:
   * no empty file stands for a recording).
   */
  static async start(recordingDir: string, sessionId: string, name: string, header: RecordingHeader | RawHeader, startedAt = performance.now()): Promise<Recording> {
    const file = recordingPath({ recordingDir }, sessionId, name);
    const dir = path.dirname(file);
    try {
      fs.mkdirSync(recordingDir, { recursive: true, mode: 0o700 });
      fs.rmSync(dir, { recursive: true, force: true });
      fs.mkdirSync(dir, { mode: 0o700 });
    } catch (err) {
      throw new RecordingStartError(failureCode(err), err);
    }
    try {
      return await Recording.create(file, header, startedAt);
    } catch (err) {
      fs.rmSync(dir, { recursive: true, force: true });
      throw err;
    }
  }

  /** Writes the recording to `file` (created 0600, or opened as it is: a test's FIFO); resolves once the header is written. */
  static async create(file: string, header: RecordingHeader | RawHeader, startedAt = performance.now()): Promise<Recording> {
    const recording = new Recording(file, startedAt);
    recording.binary = 'raw' in header;
    const head =
      'raw' in header
        ? undefined
        : { version: 2, width: header.width, height: header.height, timestamp: header.timestamp, env: { SHELL: '/bin/bash', TERM: 'xterm-256color' } };
    await new Promise<void>((resolve, reject) => {
      // A disk that hangs (a dead network mount) would hold the attach forever: past the limit it counts as failed.
      const timer = setTimeout(() => {
        const err = Object.assign(new Error('the recording header was not written in time'), { code: 'ETIMEDOUT' });
        recording.stream.destroy(err);
        reject(new RecordingStartError('ETIMEDOUT', err));
      }, recordingStart.timeoutMs);
      recording.write('raw' in header ? header.raw : `${JSON.stringify(head)}\n`, (err) => {
        clearTimeout(timer);
        if (err) reject(new RecordingStartError(recording.failure ?? failureCode(err), err));
        else resolve();
      });
    });
    return recording;
  }

  /** Seconds since the start, to the microsecond (asciicast times are floats). */
  private time(now: number): number {
    return Math.round((now - this.startedAt) * 1000) / 1_000_000;
  }

  /** Milliseconds since the start (the command index's offsets use the same origin). */
  offsetMs(now = performance.now()): number {
    return Math.max(0, Math.round(now - this.startedAt));
  }

  output(data: string, now = performance.now()): void {
    this.add(`[${this.time(now)},"o",${JSON.stringify(data)}]\n`);
  }

  resize(cols: number, rows: number, now = performance.now()): void {
    this.add(`[${this.time(now)},"r","${cols}x${rows}"]\n`);
  }

  /** The failure's code (ENOSPC…) once writing failed: the recording stops there. */
  get failed(): string | undefined {
    return this.failure;
  }

  /** Calls `fn` once when writing fails (at once if it has already). */
  onFailure(fn: FailureListener): void {
    if (this.failure !== undefined) fn(this.failure);
    else this.failureListeners.push(fn);
  }

  /** One binary record, whole (a RawHeader's recording); written with the next batch. */
  record(bytes: Buffer): void {
    this.add(bytes);
  }

  private add(line: string | Buffer): void {
    if (this.failure !== undefined) return;
    this.batch.push(line);
    this.batchChars += line.length;
    if (this.batchChars >= BATCH_CHARS) this.writeBatch();
    else this.timer ??= setTimeout(() => this.writeBatch(), BATCH_MS);
  }

  private writeBatch(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.batch.length === 0 || this.failure !== undefined) return;
    const text = this.binary ? Buffer.concat(this.batch.map((b) => (typeof b === 'string' ? Buffer.from(b) : b))) : this.batch.join('');
    this.batch = [];
    this.batchChars = 0;
    this.write(text);
  }

  /** One batch of whole lines; `written` moves past it once it is on disk. */
  private write(text: string | Buffer, done?: (err?: Error | null) => void): void {
    const bytes = typeof text === 'string' ? Buffer.byteLength(text) : text.length;
    this.stream.write(text, (err) => {
      if (!err) this.written += bytes;
      done?.(err);
    });
  }

  /** The first failure stops everything: the file is cut back to whole lines, waiters are woken, listeners told. */
  private fail(err: unknown): void {
    if (this.failure !== undefined) return;
    this.failure = failureCode(err);
    clearTimeout(this.timer);
    this.timer = undefined;
    this.batch = [];
    this.batchChars = 0;
    const from = this.written;
    // Batches are whole lines and the bytes past `written` are those of writes that did not all complete: keep what
    // ends with a newline there (a writev may have landed several batches before failing), drop the rest.
    this.repaired = (this.binary ? fs.promises.stat(this.file).then((st) => (st.isFile() ? from : undefined)) : lastLineEnd(this.file, from))
      .catch(() => from)
      .then((end) => (end === undefined ? undefined : fs.promises.truncate(this.file, end)))
      .catch(() => {}); // a file that cannot even be cut back (removed, read-only) stays as it is
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const w of waiters) w();
    const listeners = this.failureListeners.splice(0);
    for (const l of listeners) l(this.failure);
  }

  /** True while the stream holds more than its high-water mark: the terminal pauses the relay's stream until `drained`. */
  get behind(): boolean {
    return this.failure === undefined && this.stream.writableNeedDrain;
  }

  /**
   * Calls `fn` once the stream has caught up or failed (once however often it asks; one listener on the stream).
   * After a failure it is called at once: nothing is behind any more.
   */
  onDrain(fn: () => void): void {
    if (this.failure !== undefined) {
      fn();
      return;
    }
    if (this.drainWaiters.includes(fn)) return;
    if (this.drainWaiters.push(fn) > 1) return;
    this.stream.once('drain', () => {
      const waiters = this.drainWaiters;
      this.drainWaiters = [];
      for (const w of waiters) w();
    });
  }

  /** Writes what is batched, then flushes and closes the file (cut back to whole lines if writing failed). */
  async end(): Promise<void> {
    this.writeBatch();
    await new Promise<void>((resolve) => {
      if (this.failure !== undefined || this.stream.closed || this.stream.destroyed) return resolve();
      this.stream.once('error', () => resolve());
      this.stream.end(() => resolve());
    });
    await this.repaired;
  }
}

/**
 * Starts a session's recording (attach.ts); undefined = this session is not recorded. Rejects (a RecordingStartError
 * for a write failure) when it cannot start.
 */
export interface Recorder {
  start(sessionId: string, file: string, header: RecordingHeader | RawHeader): Promise<Recording | undefined> | Recording | undefined;
}

/** The product's recorder: every session recorded under the configured folder. */
export const fileRecorder = (config: Pick<Config, 'recordingDir'>): Recorder => ({
  start: (sessionId, file, header) => Recording.start(config.recordingDir, sessionId, file, header),
});
