// How the playback position moves: real time × speed, and with "skip idle" a pause between two events is cut to
// at most `maxIdle` seconds. Positions are recording seconds throughout (slider, command times, keyframes).

/** The first index whose event time is > `time` (events sorted by time). */
export function indexAfter(times: readonly number[], time: number): number {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((times[mid] as number) <= time) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export interface AdvanceOptions {
  speed: number;
  /** Longest pause played, in seconds; undefined = pauses as recorded. */
  maxIdle?: number;
}

/**
 * The position `elapsedMs` of real time after `position`. With `maxIdle`, once a pause has lasted that long the
 * position jumps to the next event (the rest of the elapsed time carries on from there). Never past `duration`.
 */
export function advance(times: readonly number[], duration: number, position: number, elapsedMs: number, { speed, maxIdle }: AdvanceOptions): number {
  let next = position + (elapsedMs / 1000) * speed;
  if (maxIdle !== undefined) {
    for (let guard = 0; guard < times.length; guard++) {
      const after = indexAfter(times, position);
      const upcoming = times[after];
      if (upcoming === undefined) break;
      const previous = after > 0 ? (times[after - 1] as number) : 0;
      const idleEnd = Math.max(position, previous + maxIdle);
      if (next <= idleEnd || upcoming <= idleEnd) break;
      next = upcoming + (next - idleEnd);
      position = upcoming;
    }
  }
  return Math.min(next, duration);
}

/** `m:ss` (or `h:mm:ss`) of a position in seconds. */
export function formatClock(seconds: number): string {
  const total = Math.max(0, Math.floor(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
