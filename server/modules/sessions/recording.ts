import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config.ts';
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
 */

const WRITE_BUFFER = 8 * 1024 * 1024;
const BATCH_MS = 100;
const BATCH_CHARS = 256 * 1024;


export interface RecordingHeader {
  width: number;
  height: number;
  /** Unix seconds of the start. */
  timestamp: number;
}

export class Recording {
  private readonly stream: fs.WriteStream;
  private failed = false;
  private batch: string[] = [];
  private batchChars = 0;
  private timer: NodeJS.Timeout | undefined;
  private drainWaiters: (() => void)[] = [];
  /** performance.now() at the start: event times are relative to it. */
  readonly startedAt: number;

  private constructor(
    readonly file: string,
    header: RecordingHeader,
    startedAt: number,
  ) {
    this.startedAt = startedAt;
    // A large buffer: the terminal pauses the relay's stream while the file is behind, and the default 16 KB would pause it on
    // every burst for a thread-pool round trip (measured: half the throughput).
    this.stream = fs.createWriteStream(file, { flags: 'w', mode: 0o600, highWaterMark: WRITE_BUFFER });
    // A full disk or a removed folder must not end the user's session: the recording stops, the terminal goes on.
    this.stream.on('error', () => {
      this.failed = true;
    });
    const head = { version: 2, width: header.width, height: header.height, timestamp: header.timestamp, env: { SHELL: '/bin/bash', TERM: 'xterm-256color' } };
    this.stream.write(`${JSON.stringify(head)}\n`);
  }

  /** Creates `<recordingDir>/<sessionId>/` (0700; anything left there by an older session of that id goes) and the file. */
  static start(recordingDir: string, sessionId: string, name: string, header: RecordingHeader, startedAt = performance.now()): Recording {
    fs.mkdirSync(recordingDir, { recursive: true, mode: 0o700 });
    const file = recordingPath({ recordingDir }, sessionId, name);
    const dir = path.dirname(file);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { mode: 0o700 });
    return new Recording(file, header, startedAt);
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

  private add(line: string): void {
    if (this.failed) return;
    this.batch.push(line);
    this.batchChars += line.length;
    if (this.batchChars >= BATCH_CHARS) this.writeBatch();
    else this.timer ??= setTimeout(() => this.writeBatch(), BATCH_MS);
  }

  private writeBatch(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.batch.length === 0 || this.failed) return;
    const text = this.batch.join('');
    this.batch = [];
    this.batchChars = 0;
    this.stream.write(text);
  }

  /** True while the stream holds more than its high-water mark: the terminal pauses the relay's stream until `drained`. */
  get behind(): boolean {
    return !this.failed && this.stream.writableNeedDrain;
  }

  /** Calls `fn` once the stream has caught up (once per drain however often it asks; one listener on the stream). */
  onDrain(fn: () => void): void {
    if (this.drainWaiters.includes(fn)) return;
    if (this.drainWaiters.push(fn) > 1) return;
    this.stream.once('drain', () => {
      const waiters = this.drainWaiters;
      this.drainWaiters = [];
      for (const w of waiters) w();
    });
  }

  /** Writes what is batched, then flushes and closes the file. */
  end(): Promise<void> {
    this.writeBatch();
    return new Promise((resolve) => {
      if (this.stream.closed || this.stream.destroyed) return resolve();
      this.stream.end(() => resolve());
      this.stream.once('error', () => resolve());
    });
  }
}

/** Starts a session's recording (attach.ts); undefined = this session is not recorded. Throws when it cannot start. */
export interface Recorder {
  start(sessionId: string, file: string, header: RecordingHeader): Recording | undefined;
}

/** The product's recorder: every session recorded under the configured folder. */
export const fileRecorder = (config: Pick<Config, 'recordingDir'>): Recorder => ({
  start: (sessionId, file, header) => Recording.start(config.recordingDir, sessionId, file, header),
});
