import { StringDecoder } from 'node:string_decoder';
import type { WebSocket } from 'ws';
import type { SessionDeps } from './deps.ts';
import { closedFrame } from '../../http/routes.ts';
import { text } from '../../lib/i18n.ts';
import { CommandLog, CommandTracker } from './commands.ts';
import { type Capabilities, CLOSE, type LiveSession, type Watch } from './live.ts';
import { ScreenRing, sizeFrame, Watchers } from './monitor.ts';
import { failureReason, type Recording } from './recording.ts';
import type { TerminalLink } from './relay.ts';

/*
 * The terminal of a live session, whatever the protocol (contract §5.1; the design follows
 * ../shared/reference/terminal-limits.md): the relay's output (a remote PTY, a TCP stream) → `2<text>` frames, the
 * user's frames → the host. Built for the PTY's throughput and a keystroke's latency:
 *  - output is decoded with a StringDecoder (a UTF-8 character split across chunks stays whole) and sent once per
 *    event-loop turn (setImmediate): a key's echo goes out in the turn it arrives, never after a timer;
 *  - while a frame is still being written to the socket, new output waits for that write (up to the cap) instead of
 *    becoming one more small frame: frames grow by themselves when the client or the link is slower than the PTY;
 *  - the cap starts at MIN_CAP and doubles (to MAX_CAP) each time output fills it, halving back when flushes are small;
 *  - backpressure: the relay's stream is paused while the socket holds more than HIGH_WATER unsent bytes, while the
 *    browser asked so (`5` until `6`: its xterm write queue is long), or while the recording file is behind.
 * Every flush also goes to the recording, the command index, the monitor's ring and the watchers.
 */

export const MIN_CAP = 64 * 1024;
export const MAX_CAP = 1024 * 1024;
export const HIGH_WATER = 1024 * 1024;
const MAX_COLS = 1000;
const MAX_ROWS = 500;
/**
 * Resize frames (`3`) are coalesced: the last one of an interval wins, applied at most once per RESIZE_EVERY_MS, and
 * only when it changes the size (then one `setWindow`, one recording event, one row write, one frame to watchers).
 * A dragged window edge sends dozens a second; a hostile client sent 20 000 in a burst, each one a row write, which
 * queued on the database and pushed every other request (`/branding`) to 2 s.
 */
export const RESIZE_EVERY_MS = 100;

export const MSG_SESSION_NOT_FOUND = CLOSE.notFound.message;
export const MSG_RESTARTED = text('服务重启，会话已结束', 'The server restarted; the session ended');

/**
 * The browser's socket is pinged every `intervalMs` (ws ping/pong); one that answered nothing, no pong and no frame, over
 * a whole interval has vanished (sleep, a dropped network: no TCP close ever comes) and is dropped, which ends the
 * session, its connection to the host and its recording. Tests shorten it.
 */
export const heartbeat = { intervalMs: 20_000 };
/**
 * While typed input waits for the remote side (the socket not read), pongs wait unread too: after this many intervals
 * of it (5 minutes by default) the session ends, so a program that never reads cannot hold a vanished browser's
 * session open; the terminal was frozen behind that input anyway (even Ctrl-C waits in the queue).
 */
export const INPUT_STALL_BEATS = 15;

/** Parses a `3` frame: base64 of `{"cols":…,"rows":…}`; undefined when malformed or out of range. */
export function parseResize(content: string): { cols: number; rows: number } | undefined {
  try {
    const v = JSON.parse(Buffer.from(content, 'base64').toString('utf8')) as { cols?: unknown; rows?: unknown };
    const { cols, rows } = v;
    if (typeof cols !== 'number' || typeof rows !== 'number' || !Number.isInteger(cols) || !Number.isInteger(rows)) return undefined;
    if (cols < 1 || rows < 1 || cols > MAX_COLS || rows > MAX_ROWS) return undefined;
    return { cols, rows };
  } catch {
    return undefined;
  }
}

/** Who the session is and what it runs on (attach.ts builds it once the relay is connected). */
export interface TerminalSessionArgs {
  id: string;
  creator: string;
  assetId: string;
  link: TerminalLink;
  socket: WebSocket;
  recording: Recording | undefined;
  /** The terminal's columns and rows (the attach's, then every resize's): told to watchers. */
  size: { cols: number; rows: number };
  /** The relay's capabilities; the terminal adds `watch`. */
  capabilities?: Omit<Capabilities, 'watch'>;
}

export class TerminalSession implements LiveSession {
  readonly id: string;
  readonly creator: string;
  readonly assetId: string;
  readonly capabilities: Capabilities;
  private readonly link: TerminalLink;
  private readonly stream: TerminalLink['stream'];
  private readonly socket: WebSocket;
  private readonly recording: Recording | undefined;
  private size: { cols: number; rows: number };
  private readonly decoder = new StringDecoder('utf8');
  private readonly errDecoder = new StringDecoder('utf8');
  private pending: string[] = [];
  private pendingSize = 0;
  private cap = MIN_CAP;
  private scheduled = false;
  private inFlight = 0;
  private paused = false;
  private clientPaused = false;
  private finished: Promise<void> | undefined;
  private readonly ring = new ScreenRing();
  private readonly watchers = new Watchers();
  private readonly tracker: CommandTracker;
  private readonly commands: CommandLog;
  /** A pong or a frame arrived since the last ping. */
  private alive = true;
  private readonly pinger: NodeJS.Timeout;
  /** The socket is not read while the stream holds more typed input than the host takes (until it drains). */
  private inputPaused = false;
  private stalledBeats = 0;
  /** The last resize frame not applied yet (its content), the timer that applies it, and when the last one was applied. */
  private wantedSize: string | undefined;
  private resizeTimer: NodeJS.Timeout | undefined;
  private lastResizeAt = Number.NEGATIVE_INFINITY;
  /** Set once the recording failed: the row's recordingFailure / recordingFailedAt. */
  private recordingFailure: { recordingFailure: string; recordingFailedAt: number } | undefined;

  constructor(
    private readonly deps: SessionDeps,
    args: TerminalSessionArgs,
  ) {
    ({ id: this.id, creator: this.creator, assetId: this.assetId, link: this.link, socket: this.socket, recording: this.recording, size: this.size } = args);
    this.stream = this.link.stream;
    const watch: Watch = {
      watch: (socket, userId) => this.watchers.add(socket, this.ring.screen(), userId, this.size),
      drop: (userIds, message) => this.watchers.drop(userIds, message),
    };
    this.capabilities = { ...args.capabilities, watch };
    const { id, stream, socket, link } = this;
    this.commands = new CommandLog(deps.db, id, () => deps.clock.now(), (err) => deps.log.error({ err }, 'command index write failed'));
    this.tracker = new CommandTracker((offsetMs, command) => this.commands.add(offsetMs, command));
    stream.on('data', (chunk: Buffer) => this.output(this.decoder.write(chunk)));
    link.errors?.on('data', (chunk: Buffer) => this.output(this.errDecoder.write(chunk)));
    stream.on('close', () => void this.finish(CLOSE.tunnelClosed.code, CLOSE.tunnelClosed.message));
    // A stream error is followed by its close (above), which ends the session.
    stream.on('error', (err: Error) => deps.log.debug({ err }, 'terminal stream error'));
    link.onGone?.(() => void this.finish(CLOSE.tunnelClosed.code, CLOSE.tunnelClosed.message));
    socket.on('message', (data: Buffer) => this.input(data.toString('utf8')));
    socket.on('close', () => void this.finish(CLOSE.normal.code, CLOSE.normal.message));
    socket.on('pong', this.heard);
    this.pinger = setInterval(this.beat, heartbeat.intervalMs);
    this.pinger.unref();
    this.recording?.onFailure(this.recordingFailed);
  }

  /**
   * The recording could not be written (recording.ts has already woken the paused relay): logged once, the row marked
   * incomplete at once, and under the `end` policy the session ends with the reason (config.ts recordingFailure).
   */
  private readonly recordingFailed = (code: string): void => {
    const { deps, id } = this;
    const policy = deps.config.recordingFailure;
    this.recordingFailure = { recordingFailure: code, recordingFailedAt: deps.clock.now() };
    deps.log.warn({ sessionId: id, file: this.recording?.file, code, policy }, 'recording could not be written');
    // A failure while ending (the last batch) is stored by end() with the rest of the row.
    if (this.finished) return;
    if (policy === 'end') {
      void this.finish(CLOSE.recordingFailed.code, `${CLOSE.recordingFailed.message}：${failureReason(code)}`);
      return;
    }
    deps.db
      .updateTable('sessions')
      .set(this.recordingFailure)
      .where('id', '=', id)
      .execute()
      .catch((err) => deps.log.error({ err }, 'recording failure not stored'));
  };

  private readonly heard = (): void => {
    this.alive = true;
  };

  private readonly beat = (): void => {
    if (this.finished) return;
    // While the socket is not read (input backpressure), its pongs wait unread: that is not silence, up to a limit.
    if (this.inputPaused) {
      if (++this.stalledBeats < INPUT_STALL_BEATS) return;
      this.socket.terminate();
      void this.finish(CLOSE.inputStalled.code, CLOSE.inputStalled.message);
      return;
    }
    if (!this.alive) {
      this.socket.terminate(); // no close handshake with a peer that is gone
      void this.finish(CLOSE.clientGone.code, CLOSE.clientGone.message);
      return;
    }
    this.alive = false;
    this.socket.ping();
  };

  private readonly resumeInput = (): void => {
    this.inputPaused = false;
    this.stalledBeats = 0;
    this.alive = true;
    if (!this.finished) this.socket.resume();
  };

  close(code: number, message: string): Promise<void> {
    return this.finish(code, message);
  }

  private input(frame: string): void {
    if (this.finished) return;
    this.alive = true;
    const content = frame.slice(1);
    switch (frame[0]) {
      case '2':
        // The stream buffers what the host does not take yet (a remote window): past its high-water mark the
        // socket is no longer read (ws pause) until it drains, so typed or pasted input never piles up in the server.
        if (!this.stream.write(content) && !this.inputPaused) {
          this.inputPaused = true;
          this.socket.pause();
          this.stream.once('drain', this.resumeInput);
        }
        this.tracker.input(content, this.recording?.offsetMs() ?? 0);
        break;
      case '3':
        // Kept as it came: only the interval's last frame is parsed (a flood costs no decoding per frame).
        this.wantedSize = content;
        this.resizeTimer ??= setTimeout(this.applyResize, Math.max(0, this.lastResizeAt + RESIZE_EVERY_MS - performance.now()));
        break;
      case '4':
        // The host side has its own keep-alive if its protocol has one; this answers the browser's.
        this.socket.send('4');
        break;
      case '5':
        this.clientPaused = true;
        this.updatePause();
        break;
      case '6':
        this.clientPaused = false;
        this.updatePause();
        break;
      // Unknown types are ignored (contract: the server reads only the first character).
    }
  }

  /** Applies the last resize frame received, if it is well-formed and changes the size (RESIZE_EVERY_MS). */
  private readonly applyResize = (): void => {
    this.resizeTimer = undefined;
    const size = this.wantedSize === undefined ? undefined : parseResize(this.wantedSize);
    this.wantedSize = undefined;
    if (!size || this.finished || (size.cols === this.size.cols && size.rows === this.size.rows)) return;
    this.lastResizeAt = performance.now();
    this.link.resize?.(size.cols, size.rows);
    this.recording?.resize(size.cols, size.rows);
    this.size = size;
    if (this.watchers.count > 0) this.watchers.send(sizeFrame(size.cols, size.rows));
    this.deps.db
      .updateTable('sessions')
      .set({ width: size.cols, height: size.rows })
      .where('id', '=', this.id)
      .execute()
      .catch((err) => this.deps.log.error({ err }, 'session resize not stored'));
  };

  private output(text: string): void {
    if (text.length === 0) return;
    this.pending.push(text);
    this.pendingSize += text.length;
    if (this.pendingSize >= this.cap) this.flush(true);
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.tick);
    }
  }

  private readonly tick = (): void => {
    this.scheduled = false;
    // A frame is still being written: let output gather until its write completes (or the cap fills).
    if (this.inFlight > 0 || this.pendingSize === 0) return;
    this.flush(false);
  };

  private readonly sent = (): void => {
    this.inFlight--;
    if (this.inFlight === 0 && this.pendingSize > 0 && !this.scheduled) this.flush(false);
    this.updatePause();
  };

  private flush(full: boolean): void {
    if (this.pendingSize === 0) return;
    const data = this.pending.length === 1 ? (this.pending[0] as string) : this.pending.join('');
    this.pending = [];
    this.pendingSize = 0;
    if (full) this.cap = Math.min(this.cap * 2, MAX_CAP);
    else if (data.length < this.cap / 4) this.cap = Math.max(MIN_CAP, this.cap / 2);

    const at = performance.now();
    this.recording?.output(data, at);
    // The same moment, rounded up: a seek to a command's offset includes the output that echoed it.
    this.tracker.output(data, this.recording ? Math.ceil(at - this.recording.startedAt) : 0);
    this.ring.push(data);
    const frame = `2${data}`;
    if (this.socket.readyState === this.socket.OPEN) {
      this.inFlight++;
      this.socket.send(frame, this.sent);
    }
    if (this.watchers.count > 0) this.watchers.send(frame);
    this.updatePause();
  }

  private readonly recheckPause = (): void => this.updatePause();

  private updatePause(): void {
    if (this.finished) return;
    const behind = this.recording?.behind ?? false;
    const pause = this.clientPaused || this.socket.bufferedAmount > HIGH_WATER || behind;
    if (pause && !this.paused) {
      this.paused = true;
      this.stream.pause();
    } else if (!pause && this.paused) {
      this.paused = false;
      this.stream.resume();
    }
    if (behind) this.recording?.onDrain(this.recheckPause);
  }

  /** Ends the session once (whoever asks first decides the code); resolves when the row and the files are written. */
  private finish(code: number, message: string): Promise<void> {
    if (this.finished) return this.finished;
    // Set before any of the ending runs, so that events it causes see the session as ending.
    let done!: () => void;
    this.finished = new Promise<void>((resolve) => {
      done = resolve;
    });
    void this.end(code, message).then(done);
    return this.finished;
  }

  private async end(code: number, message: string): Promise<void> {
    clearInterval(this.pinger);
    clearTimeout(this.resizeTimer);
    const tail = this.decoder.end() + this.errDecoder.end();
    if (tail) this.pending.push(tail);
    this.pendingSize += tail.length;
    this.flush(false);
    if (this.socket.readyState === this.socket.OPEN) {
      this.socket.send(closedFrame(message));
      this.socket.close(1000);
    }
    this.watchers.close(message);
    this.stream.destroy();
    this.link.end();
    try {
      await this.recording?.end();
      await this.commands.flush();
      await this.deps.db
        .updateTable('sessions')
        .set({ status: 'disconnected', disconnectedTime: this.deps.clock.now(), code, message, ...this.recordingFailure })
        .where('id', '=', this.id)
        .execute();
    } catch (err) {
      this.deps.log.error({ err }, 'session end not stored');
    } finally {
      this.deps.live.remove(this);
    }
  }
}
