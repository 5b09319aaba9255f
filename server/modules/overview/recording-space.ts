import fs from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../../config.ts';

/*
 * The free space of the recording folder's file system, for the monitoring page (GET /overview/ps, `disk.recording`):
 * a full disk there stops recordings (sessions/recording.ts), and under the default policy ends sessions, so the page
 * warns before it happens, below `JUMPGATE_RECORDING_MIN_FREE_MB`. The folder is made by the first recording: until
 * then its nearest existing parent is measured (the same file system, unless something is mounted there later).
 */

export interface RecordingSpace {
  /** Bytes of the file system. */
  total: number;
  /** Bytes a non-root writer may still use (as `df`). */
  available: number;
  /** Used, 0–100, of what a non-root writer sees (used + available). */
  usedPercent: number;
  /** The warning threshold in bytes (config recordingMinFreeMb). */
  minFree: number;
  /** available < minFree: the page warns. */
  low: boolean;
}

/** The recording folder's space; null when it cannot be read (no parent reachable, a platform without statfs). */
export async function recordingSpace(config: Pick<Config, 'recordingDir' | 'recordingMinFreeMb'>): Promise<RecordingSpace | null> {
  let dir = path.resolve(config.recordingDir);
  for (;;) {
    try {
      const s = await fs.statfs(dir);
      const total = s.blocks * s.bsize;
      const available = s.bavail * s.bsize;
      const used = (s.blocks - s.bfree) * s.bsize;
      const seen = used + available;
      const minFree = config.recordingMinFreeMb * 1024 * 1024;
      return { total, available, usedPercent: seen > 0 ? Math.round((used / seen) * 10_000) / 100 : 0, minFree, low: available < minFree };
    } catch (err) {
      const parent = path.dirname(dir);
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || parent === dir) return null;
      dir = parent;
    }
  }
}
