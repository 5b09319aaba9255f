import { RECORD, type RecordEntry } from './recording';

/** Index of the first record after `ms` (records.length when none is). Records are in time order. */
export function indexAfter(records: readonly Pick<RecordEntry, 'ms'>[], ms: number): number {
  let lo = 0;
  let hi = records.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((records[mid] as Pick<RecordEntry, 'ms'>).ms <= ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of the last keyframe (type 2) among records[0, before) (-1 when there is none). */
export function lastKeyframe(records: readonly Pick<RecordEntry, 'type'>[], before: number): number {
  for (let i = Math.min(before, records.length) - 1; i >= 0; i -= 1) if ((records[i] as Pick<RecordEntry, 'type'>).type === RECORD.keyframe) return i;
  return -1;
}

/**
 * How to get the screen to `targetMs`, the viewer having been fed records[0, fed):
 * - `restart`: a new viewer fed from the start (going back with no keyframe to go back to);
 * - `keyframe`: the index of the keyframe to put on the screen first (null: none);
 * - then the records [from, to) at once.
 */
export interface SeekPlan {
  restart: boolean;
  keyframe: number | null;
  from: number;
  to: number;
}

export function planSeek(records: readonly Pick<RecordEntry, 'ms' | 'type'>[], fed: number, targetMs: number): SeekPlan {
  const to = indexAfter(records, Math.max(0, targetMs));
  const key = lastKeyframe(records, to);
  // Forward with no keyframe in between: what is on the screen is the right start.
  if (to >= fed && key < fed) return { restart: false, keyframe: null, from: fed, to };
  if (key >= 0) return { restart: false, keyframe: key, from: key + 1, to };
  return { restart: true, keyframe: null, from: 0, to };
}
