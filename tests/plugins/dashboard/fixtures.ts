import dayjs from 'dayjs';
import manifest from '../../../plugins/dashboard/manifest';

export const DASHBOARD_KEYS: string[] = manifest.menus.map((k) => k.key);

export const admin = (menus: string[] = DASHBOARD_KEYS) => ({ user: { id: 'me', type: 'admin', menus } });

export const counter = { totalUser: 10, onlineUser: 3, totalAsset: 8, activeAsset: 2, offlineSession: 41, failLoginCount: 5 };
export const assets = { ssh: 5, rdp: 2, vnc: 1, telnet: 0, kubernetes: 0, all: 8 };

const TYPES = ['登录次数', '活跃用户', '活跃资产', '会话次数'];
/** `days` days ending 2026-11-23, one entry per day per type; the value encodes both ((day number) * 10 + type index). */
export const dateCounter = (days: number) =>
  Array.from({ length: days }, (_, i) => {
    const date = dayjs('2026-11-23').subtract(days - 1 - i, 'day').format('YYYY-MM-DD');
    return TYPES.map((type, k) => ({ date, type, value: (i + 1) * 10 + k }));
  }).flat();

export const systemLoad = {
  loadStat: { load1: 1.7, load5: 1.25, load15: 0.5, percent: 0.85 },
  mem: { total: 8 * 1024 ** 3, available: 2 * 1024 ** 3, used: 6 * 1024 ** 3, usedPercent: 75.5 },
  memStat: [
    { time: '10:00:00', value: 70.123 },
    { time: '10:00:05', value: 75.5 },
  ],
  cpu: { count: 4, phyCount: 2, usedPercent: 42.5, info: [{ modelName: 'Intel(R) Xeon(R) Gold 6230', cacheSize: 1024, mhz: 2100 }] },
  cpuStat: [
    { time: '10:00:00', value: 40 },
    { time: '10:00:05', value: 42.5 },
  ],
  disk: { total: 100 * 1024 ** 3, used: 40 * 1024 ** 3, available: 60 * 1024 ** 3, usedPercent: 40 },
  diskIO: [
    { time: '10:00:00', read: 1_000_000, write: 0 },
    { time: '10:00:05', read: 3_500_000, write: 250_000 },
  ],
  netIO: [
    { time: '10:00:00', read: 2_500_000, write: 125_000 },
    { time: '10:00:05', read: 12_340_000, write: 10_000 },
  ],
};
