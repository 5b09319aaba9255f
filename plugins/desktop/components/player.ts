import { PlaybackChannel } from './channel';
import { inflate, keyframeUpdate, RECORD, type Recording, readKeyframe } from './recording';
import { planSeek } from './seek';
import type { CreateViewer, DesktopViewer } from './viewer';

export interface PlayerState {
  positionMs: number;
  playing: boolean;
  ended: boolean;
  /** The viewer finished its handshake (the first screen can show). */
  ready: boolean;
}

export interface PlayerOptions {
  recording: Recording;
  create: CreateViewer;
  target: HTMLElement;
  onState: (state: PlayerState) => void;
  /** The clock (tests pass their own). */
  now?: () => number;
}

/** Speeds the player offers. */
export const SPEEDS = [1, 2, 4, 8] as const;
export type Speed = (typeof SPEEDS)[number];

/**
 * Plays a desktop recording into a view-only viewer through a {@link PlaybackChannel}: the type-0 records at their
 * times (scaled by the speed), pause, and seeking by the last keyframe before the target (or from the start when there
 * is none, in a new viewer).
 */
export class DesktopPlayer {
  private readonly recording: Recording;
  private readonly create: CreateViewer;
  private readonly target: HTMLElement;
  private readonly onState: (state: PlayerState) => void;
  private readonly now: () => number;
  private viewer: DesktopViewer | null = null;
  private channel: PlaybackChannel | null = null;
  /** Records [0, fed) are in the viewer. */
  private fed = 0;
  private basePosition = 0;
  private baseTime = 0;
  private playing = false;
  private speed: Speed = 1;
  private ready = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Seeks run one after the other (a keyframe inflates asynchronously). */
  private work: Promise<void> = Promise.resolve();
  private whenReady: Promise<void> = Promise.resolve();
  private disposed = false;

  constructor(options: PlayerOptions) {
    this.recording = options.recording;
    this.create = options.create;
    this.target = options.target;
    this.onState = options.onState;
    this.now = options.now ?? (() => performance.now());
    this.open();
  }

  get durationMs(): number {
    return this.recording.durationMs;
  }

  get positionMs(): number {
    if (!this.playing) return this.basePosition;
    return Math.min(this.durationMs, this.basePosition + (this.now() - this.baseTime) * this.speed);
  }

  state(): PlayerState {
    const positionMs = this.positionMs;
    return { positionMs, playing: this.playing, ended: this.fed >= this.recording.records.length && positionMs >= this.durationMs, ready: this.ready };
  }

  play(): void {
    if (this.playing || this.disposed) return;
    if (this.state().ended) {
      this.seek(0);
    }
    this.baseTime = this.now();
    this.playing = true;
    this.schedule();
    this.emit();
  }

  pause(): void {
    if (!this.playing) return;
    this.basePosition = this.positionMs;
    this.playing = false;
    clearTimeout(this.timer);
    this.emit();
  }

  setSpeed(speed: Speed): void {
    this.basePosition = this.positionMs;
    this.baseTime = this.now();
    this.speed = speed;
    this.schedule();
    this.emit();
  }

  /** Moves to `ms`: the screen as it was then, playing on if it was playing. */
  seek(ms: number): Promise<void> {
    const target = Math.max(0, Math.min(ms, this.durationMs));
    this.basePosition = target;
    this.baseTime = this.now();
    clearTimeout(this.timer);
    this.work = this.work.then(() => this.moveTo(target)).catch(() => undefined);
    return this.work;
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.timer);
    this.viewer?.disconnect();
    this.channel?.close();
    this.viewer = null;
    this.channel = null;
  }

  /** A new viewer and channel; records flow once the handshake is done. */
  private open(): void {
    this.viewer?.disconnect();
    this.channel?.close();
    this.fed = 0;
    this.ready = false;
    const channel = new PlaybackChannel(this.recording.serverInit);
    let connected: () => void = () => undefined;
    this.whenReady = new Promise<void>((resolve) => {
      connected = resolve;
    });
    this.viewer = this.create(this.target, channel, { viewOnly: true, scale: 'fit' }, {
      connect: () => {
        this.ready = true;
        connected();
        this.emit();
      },
    });
    this.channel = channel;
    channel.start();
  }

  private async moveTo(target: number): Promise<void> {
    const records = this.recording.records;
    const plan = planSeek(records, this.fed, target);
    if (plan.restart) this.open();
    await this.whenReady;
    if (this.disposed) return;
    if (plan.keyframe !== null) {
      const frame = readKeyframe((records[plan.keyframe] as (typeof records)[number]).data);
      if (frame) {
        const pixels = await inflate(frame.compressed);
        if (this.disposed) return;
        this.channel?.push(keyframeUpdate(frame.width, frame.height, pixels));
      }
    }
    this.feed(plan.from, plan.to);
    this.schedule();
    this.emit();
  }

  /** Hands records [from, to) of type 0 to the viewer. */
  private feed(from: number, to: number): void {
    const records = this.recording.records;
    for (let i = from; i < to; i += 1) {
      const record = records[i] as (typeof records)[number];
      if (record.type === RECORD.rfb) this.channel?.push(record.data);
    }
    this.fed = to;
  }

  /** Feeds what is due and waits for the next record (or the end). */
  private schedule(): void {
    clearTimeout(this.timer);
    if (!this.playing || this.disposed) return;
    this.timer = setTimeout(() => {
      if (!this.ready) {
        void this.whenReady.then(() => this.schedule());
        return;
      }
      const records = this.recording.records;
      const position = this.positionMs;
      let to = this.fed;
      while (to < records.length && (records[to] as (typeof records)[number]).ms <= position) to += 1;
      this.feed(this.fed, to);
      const next = records[this.fed];
      if (!next) {
        this.basePosition = this.durationMs;
        this.playing = false;
        this.emit();
        return;
      }
      this.schedule();
    }, this.delay());
  }

  private delay(): number {
    const next = this.recording.records[this.fed];
    if (!next) return 0;
    return Math.max(0, (next.ms - this.positionMs) / this.speed);
  }

  private emit(): void {
    if (!this.disposed) this.onState(this.state());
  }
}
