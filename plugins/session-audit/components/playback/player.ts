import { type Cast, type CastEvent, parseSize } from './asciicast';
import { type AdvanceOptions, advance, indexAfter } from './clock';
import { type Keyframe, keyframeBefore } from './keyframes';

/** The part of xterm's Terminal the player drives (XtermView's `term` is one; tests pass a real or a fake one). */
export interface PlayerTerminal {
  write(data: string, callback?: () => void): void;
  reset(): void;
  resize(cols: number, rows: number): void;
}

/**
 * Plays a recording into a terminal: `step` moves the position by elapsed real time and writes the events passed,
 * `seek` shows the screen at any position (from the nearest keyframe). Positions are recording seconds.
 */
export class Player {
  readonly times: number[];
  position = 0;
  /** The first event not yet written. */
  private next = 0;
  private keyframes: readonly Keyframe[];
  private seeking: Promise<void> | null = null;
  private target: number | null = null;

  constructor(
    readonly cast: Cast,
    private readonly term: PlayerTerminal,
    /** Told the terminal's size, just before it changes, whenever the recording sets it (start, `r` events, seeks). */
    private readonly onSize: (cols: number, rows: number) => void = () => undefined,
  ) {
    this.times = cast.events.map((e) => e.time);
    this.keyframes = [{ time: 0, index: 0, cols: cast.header.width, rows: cast.header.height, screen: '' }];
  }

  get duration(): number {
    return this.cast.duration;
  }

  get ended(): boolean {
    return this.next >= this.cast.events.length && this.position >= this.duration;
  }

  /** Whether a seek is being drawn (steps wait for it). */
  get busy(): boolean {
    return this.seeking !== null;
  }

  /** Keyframes built since (replacing the blank start only). */
  setKeyframes(frames: readonly Keyframe[]): void {
    if (frames.length > 0) this.keyframes = frames;
  }

  /** Draws the start: a reset terminal at the header's size. */
  start(): Promise<void> {
    return this.seek(0);
  }

  /** Moves by `elapsedMs` of real time and writes what the recording output meanwhile. */
  step(elapsedMs: number, options: AdvanceOptions): void {
    if (this.seeking) return;
    this.position = advance(this.times, this.duration, this.position, elapsedMs, options);
    const upTo = indexAfter(this.times, this.position);
    if (upTo > this.next) {
      this.write(this.cast.events, this.next, upTo);
      this.next = upTo;
    }
  }

  /**
   * Shows the screen at `time`: from the nearest keyframe at or before it, replaying only the events after that.
   * Seeks asked while one is drawn collapse into the last one. Resolves once the terminal has it all.
   */
  seek(time: number): Promise<void> {
    this.target = Math.max(0, Math.min(time, this.duration));
    this.position = this.target;
    this.seeking ??= this.runSeeks().finally(() => {
      this.seeking = null;
    });
    return this.seeking;
  }

  private async runSeeks(): Promise<void> {
    while (this.target !== null) {
      await this.drained(); // what an earlier step queued is parsed before the reset, not after it
      const time = this.target;
      this.target = null;
      const frame = keyframeBefore(this.keyframes, time);
      this.term.reset();
      this.resize(frame.cols, frame.rows);
      if (frame.screen) this.term.write(frame.screen);
      const upTo = indexAfter(this.times, time);
      this.write(this.cast.events, frame.index, upTo);
      this.next = upTo;
      await this.drained();
    }
  }

  private drained(): Promise<void> {
    return new Promise((resolve) => this.term.write('', resolve));
  }

  private resize(cols: number, rows: number): void {
    this.onSize(cols, rows); // first: a page that holds the terminal to the recording's size must know the new one
    this.term.resize(cols, rows);
  }

  /** Writes events [from, to): output batched into one write, a resize applied in order once the output before it is in. */
  private write(events: readonly CastEvent[], from: number, to: number): void {
    let batch = '';
    for (let i = from; i < to; i++) {
      const event = events[i] as CastEvent;
      if (event.type === 'o') {
        batch += event.data;
        continue;
      }
      const size = parseSize(event.data);
      if (!size) continue;
      if (batch) this.term.write(batch);
      batch = '';
      this.term.write('', () => this.resize(size.cols, size.rows));
    }
    if (batch) this.term.write(batch);
  }
}
