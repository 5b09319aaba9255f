import type { TimeReadWrite } from '../api';

export type LoadState = 'smooth' | 'normal' | 'slow' | 'congested';

/** 1.3.9's words for the host load (load1 / logical CPUs): 流畅 below 0.7, 正常, 缓慢 from 0.8, 堵塞 from 0.9. */
export function loadState(percent: number): LoadState {
  if (percent >= 0.9) return 'congested';
  if (percent >= 0.8) return 'slow';
  if (percent >= 0.7) return 'normal';
  return 'smooth';
}

/** The server sends disk and network I/O in bytes per second; the charts say MB/s (10^6 bytes). */
export const toMBps = (bytesPerSecond: number) => bytesPerSecond / 1_000_000;

/** Two decimals, as shown in the charts' tables. */
export const round2 = (n: number) => Math.round(n * 100) / 100;

export const ioInMBps = (rows: readonly TimeReadWrite[]) => rows.map((r) => ({ time: r.time, read: round2(toMBps(r.read)), write: round2(toMBps(r.write)) }));
