import type { ApiClient } from '@/core';

/** `GET /overview/counter` (contract §2.14). */
export interface Counter {
  totalUser: number;
  onlineUser: number;
  totalAsset: number;
  activeAsset: number;
  offlineSession: number;
  failLoginCount: number;
  /** Ours (a 1.3.9 server leaves them out): what the getting-started checklist ticks. */
  totalCredential?: number;
  /** Grants (authorisations). */
  totalAuthorised?: number;
  /** Sessions that reached their host, live or ended. */
  totalSession?: number;
}

/** `GET /overview/asset`: assets by protocol, `all` = their sum. */
export interface AssetCounts {
  ssh: number;
  rdp: number;
  vnc: number;
  telnet: number;
  kubernetes: number;
  all: number;
}

export type DateRange = 'week' | 'month';

/** The series of `GET /overview/date-counter` (wire-13.md): 1.3.9's three plus ours, 会话次数. */
export const DATE_SERIES = ['登录次数', '活跃用户', '活跃资产', '会话次数'] as const;
export type DateSeries = (typeof DATE_SERIES)[number];

/** One day of one series, oldest first, today included. */
export interface DateCount {
  date: string;
  value: number;
  type: string;
}

export interface TimeValue {
  /** `HH:mm:ss`. */
  time: string;
  value: number;
}

export interface TimeReadWrite {
  time: string;
  /** Bytes per second (our server; 1.3.9 sent bytes per 1 s window, the same number). */
  read: number;
  write: number;
}

/** The recording folder's file system (ours, `disk.recording`; a 1.3.9 server leaves it out). Bytes. */
export interface RecordingSpace {
  total: number;
  available: number;
  usedPercent: number;
  /** The warning threshold (JUMPGATE_RECORDING_MIN_FREE_MB). */
  minFree: number;
  /** available < minFree. */
  low: boolean;
}

/** `GET /overview/ps` (contract §3.22). */
export interface SystemLoad {
  loadStat: { load1: number; load5: number; load15: number; percent: number };
  mem: { total: number; available: number; used: number; usedPercent: number };
  memStat: TimeValue[];
  cpu: { count: number; phyCount: number; usedPercent: number; info: { modelName: string; cacheSize: number; mhz: number }[] | null };
  cpuStat: TimeValue[];
  disk: { total: number; used: number; available: number; usedPercent: number; recording?: RecordingSpace | null };
  diskIO: TimeReadWrite[];
  netIO: TimeReadWrite[];
}

export const KEYS = {
  counter: ['dashboard', 'counter'] as const,
  assets: ['dashboard', 'assets'] as const,
  dates: (d: DateRange) => ['dashboard', 'date-counter', d] as const,
  ps: ['dashboard', 'ps'] as const,
};

export const overviewApi = (api: ApiClient) => ({
  counter: () => api.get<Counter>('/overview/counter'),
  assets: () => api.get<AssetCounts>('/overview/asset'),
  dates: (d: DateRange) => api.get<DateCount[]>('/overview/date-counter', { params: { d } }),
  ps: () => api.get<SystemLoad>('/overview/ps'),
});
