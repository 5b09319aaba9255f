import type { ShadowTerminal } from '@/core';
import { type Cast, parseSize } from './asciicast';
import { indexAfter } from './clock';

// A terminal recording replays only forwards: to show the screen at any moment you must run the output up to it.
// While a recording loads we run it once through an off-screen terminal and keep its screen every few seconds or
// every few hundred KB of output (a keyframe); a seek then starts from the nearest keyframe before the target and
// replays only what follows it, so it costs about the same at minute 1 as at minute 59.

export interface Keyframe {
  /** Recording seconds at which the snapshot was taken (the events before `index` are in it). */
  time: number;
  /** The first event not in the snapshot. */
  index: number;
  cols: number;
  rows: number;
  /** The screen as output that redraws it on a reset terminal of `cols`×`rows` ('' = a blank screen). */
  screen: string;
}

export interface KeyframeOptions {
  /** A keyframe at least every this many recording seconds (default 10). */
  everySeconds?: number;
  /** …and at least every this many characters of output (default 256 K). */
  everyChars?: number;
  /** Told the share of the recording indexed so far (0–1), between batches. */
  onProgress?: (done: number) => void;
  /** Stops early (the page closed): resolves with what was built. */
  signal?: AbortSignal;
}

export type ShadowFactory = (cols: number, rows: number) => Promise<ShadowTerminal>;

/** Runs the recording through an off-screen terminal and returns its keyframes, the first one the blank start. */
export async function buildKeyframes(cast: Cast, shadow: ShadowFactory, options: KeyframeOptions = {}): Promise<Keyframe[]> {
  const everySeconds = options.everySeconds ?? 10;
  const everyChars = options.everyChars ?? 256 * 1024;
  const { width, height } = cast.header;
  const frames: Keyframe[] = [{ time: 0, index: 0, cols: width, rows: height, screen: '' }];
  const term = await shadow(width, height);
  try {
    let sinceTime = 0;
    let sinceChars = 0;
    const events = cast.events;
    for (let i = 0; i < events.length; i++) {
      const event = events[i] as (typeof events)[number];
      // The snapshot goes before the event that crosses the line, so it holds exactly the events before `index`.
      if (event.time - sinceTime >= everySeconds || sinceChars >= everyChars) {
        await term.flushed();
        if (options.signal?.aborted) break;
        frames.push({ time: event.time, index: i, cols: term.cols, rows: term.rows, screen: term.snapshot() });
        options.onProgress?.(i / events.length);
        sinceTime = event.time;
        sinceChars = 0;
      }
      if (event.type === 'o') {
        term.write(event.data);
        sinceChars += event.data.length;
      } else {
        const size = parseSize(event.data);
        if (size) {
          await term.flushed(); // output before a resize is laid out at the old size
          term.resize(size.cols, size.rows);
        }
      }
    }
    await term.flushed();
    options.onProgress?.(1);
  } finally {
    term.dispose();
  }
  return frames;
}

/** The last keyframe at or before `time` (the first one is at 0). */
export function keyframeBefore(frames: readonly Keyframe[], time: number): Keyframe {
  let lo = 0;
  let hi = frames.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if ((frames[mid] as Keyframe).time <= time) lo = mid;
    else hi = mid - 1;
  }
  return frames[lo] as Keyframe;
}

/** The event times of a recording, for the binary searches of the clock and the seek. */
export function eventTimes(cast: Cast): number[] {
  return cast.events.map((e) => e.time);
}

export { indexAfter };
