import type { RawData, WebSocket } from 'ws';
import { closedFrame } from '../../http/routes.ts';
import { text } from '../../lib/i18n.ts';
import { type PaceHandle, pace } from '../../lib/pace.ts';
import type { SessionDeps } from './deps.ts';
import { type Capabilities, CLOSE, type LiveSession, type Watch } from './live.ts';
import { MSG_WATCHER_TOO_SLOW, WATCHER_MAX_BUFFERED } from './monitor.ts';
import { failureReason, type Recording } from './recording.ts';
import type { DesktopConnection, DesktopLink } from './relay.ts';
import { HIGH_WATER, heartbeat, INPUT_STALL_BEATS } from './terminal-session.ts';
import type { BrowserChannel } from './vnc/rfb-browser.ts';
import { rfbServe } from './vnc/rfb-browser.ts';
import { ClientStream, RfbStreamError, ServerStream } from './vnc/rfb-messages.ts';
import { RfbError } from './vnc/rfb-reader.ts';
import { RfbRecorder } from './vnc/rfb-recording.ts';

/*
 * A desktop of a live session, whatever the protocol that reached it (VNC; RDP through a virtual display served as
 * VNC): the relay hands over an RFB connection the bastion already logged in to (relay.ts DesktopLink), and this
 * drives it as terminal-session.ts drives a terminal — the same attach flow, live registry, close(code, message),
 * heartbeat (`4` answered `4`, ws pings), access re-checks and ends. The wire (the desktop contract): text frames are
 * control frames (`1` connected, `0<reason>` closed, `4` pong), binary frames are RFB bytes. After `1` the bastion
 * plays the RFB server to the browser (security None only, rfb-browser.ts rfbServe), sends the target's ServerInit,
 * then relays both ways through the parsers of vnc/rfb-messages.ts: SetEncodings rewritten, the clipboard per the
 * session's copy / paste flags, whole messages to the recording (vnc/rfb-recording.ts).
 *
 * Back-pressure as the terminal's: the target's socket is paced (lib/pace.ts) and held while the browser's socket
 * holds more than HIGH_WATER unsent bytes or the recording file is behind; the browser's socket is not read while the
 * target does not take its input. A watcher has its own shared connection to the target (the bastion logs in again):
 * it can never slow the user, and is dropped past WATCHER_MAX_BUFFERED.
 */

export const MSG_DESKTOP_HANDSHAKE = text('浏览器的 VNC 客户端未完成握手，会话已结束', "The browser's VNC client did not complete the handshake; the session ended");
export const MSG_WATCH_FAILED = text('无法连接到被监控的桌面', 'Could not connect to the watched desktop');
/** Code of a stream the bastion cannot follow (either side), as a session the server ends. */
const STREAM_CODE = 805;

export interface DesktopSessionArgs {
  id: string;
  creator: string;
  assetId: string;
  link: DesktopLink;
  socket: WebSocket;
  recording: Recording | undefined;
  /** The session's copy (target → browser) and paste (browser → target) flags. */
  clipboard: { copy: boolean; paste: boolean };
}

const asBuffer = (data: RawData): Buffer => (Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data));

/**
 * The browser's socket as the RFB handshake reads it: binary messages are RFB bytes, text messages control frames
 * (`4` answered `4`, anything else ignored). `onText` is told of every text frame.
 */
function controlChannel(socket: WebSocket, heard: () => void): BrowserChannel {
  let data: ((chunk: Buffer) => void) | undefined;
  let end: ((error?: Error) => void) | undefined;
  socket.on('message', (raw: RawData, isBinary: boolean) => {
    heard();
    if (isBinary) data?.(asBuffer(raw));
    else if (raw.toString() === '4' && socket.readyState === socket.OPEN) socket.send('4');
  });
  socket.on('close', () => end?.());
  return {
    send: (bytes) => {
      if (socket.readyState === socket.OPEN) socket.send(bytes, { binary: true });
    },
    listen(onData, onEnd) {
      data = onData;
      end = onEnd;
      return () => {
        data = undefined;
        end = undefined;
      };
    },
  };
}

/** A watcher: its own connection to the desktop, its input cut to what a view needs. */
class DesktopWatchers {
  private readonly sockets = new Map<WebSocket, { userId: string; connection?: DesktopConnection }>();

  constructor(
    private readonly deps: SessionDeps,
    private readonly link: DesktopLink,
  ) {}

  add(socket: WebSocket, userId: string): void {
    const entry: { userId: string; connection?: DesktopConnection } = { userId };
    this.sockets.set(socket, entry);
    let stop: (() => void) | undefined;
    const channel = controlChannel(socket, () => {});
    socket.on('close', () => {
      this.sockets.delete(socket);
      stop?.();
      entry.connection?.socket.destroy();
    });
    void (async () => {
      try {
        const connection = await this.link.watcher();
        entry.connection = connection;
        if (!this.sockets.has(socket) || socket.readyState !== socket.OPEN) {
          connection.socket.destroy();
          return;
        }
        const target = connection.socket;
        socket.send('1');
        const served = await rfbServe(channel);
        if (!this.sockets.has(socket)) return;
        channel.send(connection.init.raw);
        const server = new ServerStream({
          pixelBytes: connection.init.bitsPerPixel / 8,
          copy: false,
          forward: (bytes) => {
            if (socket.readyState !== socket.OPEN) return;
            if (socket.bufferedAmount > WATCHER_MAX_BUFFERED) return this.closeOne(socket, MSG_WATCHER_TOO_SLOW);
            socket.send(bytes, { binary: true });
          },
        });
        const client = new ClientStream({
          paste: false,
          watchOnly: true,
          forward: (bytes) => target.write(bytes),
          pixelFormat: (format) => server.setPixelBytes((format[0] as number) / 8),
        });
        stop = served.handOff(
          (chunk) => {
            try {
              client.push(chunk);
            } catch (err) {
              this.closeOne(socket, err instanceof RfbStreamError ? err.message : MSG_WATCH_FAILED);
            }
          },
          () => {},
        );
        target.on('data', (chunk: Buffer) => {
          try {
            server.push(chunk);
          } catch (err) {
            this.closeOne(socket, err instanceof RfbStreamError ? err.message : MSG_WATCH_FAILED);
          }
        });
        target.on('close', () => this.closeOne(socket, CLOSE.tunnelClosed.message));
        target.on('error', (err: Error) => this.deps.log.debug({ err }, 'desktop watcher connection error'));
        pace(target);
        target.resume();
      } catch (err) {
        this.deps.log.info({ err: err instanceof RfbError ? err.full : err }, 'desktop watcher could not connect');
        this.closeOne(socket, err instanceof RfbError ? err.message : MSG_WATCH_FAILED);
      }
    })();
  }

  private closeOne(socket: WebSocket, message: string): void {
    const entry = this.sockets.get(socket);
    this.sockets.delete(socket);
    entry?.connection?.socket.destroy();
    if (socket.readyState === socket.OPEN) {
      socket.send(closedFrame(message));
      socket.close(1000);
    }
  }

  drop(userIds: ReadonlySet<string>, message: string): number {
    let dropped = 0;
    for (const [socket, entry] of [...this.sockets]) {
      if (!userIds.has(entry.userId)) continue;
      this.closeOne(socket, message);
      dropped++;
    }
    return dropped;
  }

  close(message: string): void {
    for (const socket of [...this.sockets.keys()]) this.closeOne(socket, message);
  }
}

export class DesktopSession implements LiveSession {
  readonly id: string;
  readonly creator: string;
  readonly assetId: string;
  readonly capabilities: Capabilities;
  private readonly link: DesktopLink;
  private readonly socket: WebSocket;
  private readonly recording: Recording | undefined;
  private readonly recorder: RfbRecorder | undefined;
  private readonly target: DesktopConnection['socket'];
  private readonly channel: BrowserChannel;
  private readonly server: ServerStream;
  private readonly client: ClientStream;
  private readonly watchers: DesktopWatchers;
  private paced: PaceHandle | undefined;
  private held = false;
  private stopBrowser: (() => void) | undefined;
  private finished: Promise<void> | undefined;
  private alive = true;
  private readonly pinger: NodeJS.Timeout;
  private inputPaused = false;
  private stalledBeats = 0;
  private recordingFailure: { recordingFailure: string; recordingFailedAt: number } | undefined;

  constructor(
    private readonly deps: SessionDeps,
    args: DesktopSessionArgs,
  ) {
    ({ id: this.id, creator: this.creator, assetId: this.assetId, link: this.link, socket: this.socket, recording: this.recording } = args);
    const { init } = this.link.connection;
    this.target = this.link.connection.socket;
    this.watchers = new DesktopWatchers(deps, this.link);
    const watch: Watch = {
      watch: (socket, userId) => this.watchers.add(socket, userId),
      drop: (userIds, message) => this.watchers.drop(userIds, message),
    };
    this.capabilities = { watch };
    const bpp = init.bitsPerPixel / 8;
    const recorder = this.recording ? new RfbRecorder(this.recording, { width: init.width, height: init.height, bpp }) : undefined;
    this.recorder = recorder;
    this.server = new ServerStream({
      pixelBytes: bpp,
      copy: args.clipboard.copy,
      forward: (bytes) => this.toBrowser(bytes),
      message: recorder ? (bytes, kind) => recorder.message(bytes, kind) : undefined,
      screen: recorder?.screen,
    });
    this.client = new ClientStream({
      paste: args.clipboard.paste,
      forward: (bytes) => this.toTarget(bytes),
      pixelFormat: (format) => {
        this.server.setPixelBytes((format[0] as number) / 8);
        recorder?.pixelFormat(format);
      },
    });
    this.channel = controlChannel(this.socket, this.heard);
    this.socket.on('close', () => void this.finish(CLOSE.normal.code, CLOSE.normal.message));
    this.socket.on('pong', this.heard);
    this.target.on('close', () => void this.finish(CLOSE.tunnelClosed.code, CLOSE.tunnelClosed.message));
    this.target.on('error', (err: Error) => deps.log.debug({ err }, 'desktop connection error'));
    this.pinger = setInterval(this.beat, heartbeat.intervalMs);
    this.pinger.unref();
    this.recording?.onFailure(this.recordingFailed);
  }

  /** After `1`: the RFB handshake with the browser (None), the ServerInit, then the relay both ways. */
  start(): void {
    void rfbServe(this.channel).then(
      (served) => {
        if (this.finished) return served.stop();
        this.channel.send(this.link.connection.init.raw);
        this.stopBrowser = served.handOff(
          (chunk) => this.fromBrowser(chunk),
          () => {},
        );
        this.target.on('data', (chunk: Buffer) => this.fromTarget(chunk));
        this.paced = pace(this.target);
        this.target.resume();
      },
      (err: unknown) => {
        if (err instanceof RfbError && (err.kind === 'closed' || err.kind === 'aborted')) return void this.finish(CLOSE.normal.code, CLOSE.normal.message);
        this.deps.log.info({ sessionId: this.id, reason: err instanceof RfbError ? err.full : String(err) }, 'desktop handshake with the browser failed');
        void this.finish(STREAM_CODE, err instanceof RfbError ? err.message : MSG_DESKTOP_HANDSHAKE);
      },
    );
  }

  close(code: number, message: string): Promise<void> {
    return this.finish(code, message);
  }

  private readonly heard = (): void => {
    this.alive = true;
  };

  private readonly beat = (): void => {
    if (this.finished) return;
    if (this.inputPaused) {
      if (++this.stalledBeats < INPUT_STALL_BEATS) return;
      this.socket.terminate();
      void this.finish(CLOSE.inputStalled.code, CLOSE.inputStalled.message);
      return;
    }
    if (!this.alive) {
      this.socket.terminate();
      void this.finish(CLOSE.clientGone.code, CLOSE.clientGone.message);
      return;
    }
    this.alive = false;
    this.socket.ping();
  };

  private readonly recordingFailed = (code: string): void => {
    const { deps, id } = this;
    const policy = deps.config.recordingFailure;
    this.recordingFailure = { recordingFailure: code, recordingFailedAt: deps.clock.now() };
    deps.log.warn({ sessionId: id, file: this.recording?.file, code, policy }, 'recording could not be written');
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

  private fromBrowser(chunk: Buffer): void {
    if (this.finished) return;
    try {
      this.client.push(chunk);
    } catch (err) {
      this.streamBroke(err);
    }
  }

  private fromTarget(chunk: Buffer): void {
    if (this.finished) return;
    try {
      this.server.push(chunk);
    } catch (err) {
      this.streamBroke(err);
    }
  }

  private streamBroke(err: unknown): void {
    if (!(err instanceof RfbStreamError)) throw err;
    this.deps.log.warn({ sessionId: this.id, side: err.side, detail: err.detail }, 'desktop stream broke the protocol');
    void this.finish(err.side === 'target' ? CLOSE.tunnelClosed.code : STREAM_CODE, err.message);
  }

  private toTarget(bytes: Buffer): void {
    if (!this.target.write(bytes) && !this.inputPaused) {
      this.inputPaused = true;
      this.socket.pause();
      this.target.once('drain', this.resumeInput);
    }
  }

  private readonly resumeInput = (): void => {
    this.inputPaused = false;
    this.stalledBeats = 0;
    this.alive = true;
    if (!this.finished) this.socket.resume();
  };

  private toBrowser(bytes: Buffer): void {
    if (this.socket.readyState === this.socket.OPEN) this.socket.send(bytes, { binary: true }, this.recheck);
    this.updateHold();
  }

  private readonly recheck = (): void => this.updateHold();

  private updateHold(): void {
    if (this.finished || !this.paced) return;
    const behind = this.recording?.behind ?? false;
    const hold = this.socket.bufferedAmount > HIGH_WATER || behind;
    if (hold && !this.held) {
      this.held = true;
      this.paced.hold();
    } else if (!hold && this.held) {
      this.held = false;
      this.paced.release();
    }
    if (behind) this.recording?.onDrain(this.recheck);
  }

  private finish(code: number, message: string): Promise<void> {
    if (this.finished) return this.finished;
    let done!: () => void;
    this.finished = new Promise<void>((resolve) => {
      done = resolve;
    });
    void this.end(code, message).then(done);
    return this.finished;
  }

  private async end(code: number, message: string): Promise<void> {
    clearInterval(this.pinger);
    this.stopBrowser?.();
    if (this.socket.readyState === this.socket.OPEN) {
      this.socket.send(closedFrame(message));
      this.socket.close(1000);
    }
    this.watchers.close(message);
    this.target.destroy();
    this.link.end();
    try {
      if (this.recorder) await this.recorder.end();
      else await this.recording?.end();
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
