import fs from 'node:fs';
import os from 'node:os';

/*
 * One reading of this server's host: instantaneous values (load, memory, disk usage) and cumulative counters (CPU
 * time, network and disk bytes) that the monitor turns into rates between two readings.
 *
 * Linux reads /proc and /sys (what `top`, `free`, `df`, `ifstat` and `iostat` read). Elsewhere Node gives less:
 * CPU time from os.cpus(), memory from os.totalmem()/os.freemem() (free, not "available"), no network or disk I/O
 * counters (those series then stay at 0).
 */

export interface CpuInfo {
  modelName: string;
  /** KB, as /proc/cpuinfo says ("512 KB"); 0 when unknown. */
  cacheSize: number;
  mhz: number;
}

export interface HostReading {
  /** 1, 5 and 15 minute load averages. */
  load: [number, number, number];
  /** Logical CPUs. */
  cpuCount: number;
  /** Physical cores (distinct physical id + core id in /proc/cpuinfo; the logical count when unknown). */
  phyCount: number;
  cpuInfo: CpuInfo[];
  /** Cumulative CPU time, all CPUs: busy part and total (any unit; only ratios of deltas are used). */
  cpuTime: { busy: number; total: number };
  /** Bytes. `available` = MemAvailable (what can be used without swapping) on Linux, free memory elsewhere. */
  mem: { total: number; available: number };
  /** Bytes, of the file system holding `/`: used + available = what a non-root user sees (as `df`). */
  disk: { total: number; used: number; available: number };
  /** Cumulative bytes received / sent by every interface but loopback; null when not readable. */
  net: { rx: number; tx: number } | null;
  /** Cumulative bytes read / written by the physical disks (partitions and virtual devices not counted twice); null when not readable. */
  diskIo: { read: number; write: number } | null;
}

export type HostReader = () => Promise<HostReading>;

const readText = (file: string): string | null => {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
};

/** `cpu  user nice system idle iowait irq softirq steal …` (USER_HZ ticks); idle and iowait are not busy. */
export function parseProcStat(text: string): { busy: number; total: number } | null {
  const line = text.split('\n').find((l) => l.startsWith('cpu '));
  if (!line) return null;
  const n = line.trim().split(/\s+/).slice(1, 9).map(Number);
  if (n.length < 4 || n.some((v) => !Number.isFinite(v))) return null;
  const total = n.reduce((a, b) => a + b, 0);
  const idle = (n[3] ?? 0) + (n[4] ?? 0);
  return { busy: total - idle, total };
}

/** MemTotal and MemAvailable, kB → bytes. */
export function parseMeminfo(text: string): { total: number; available: number } | null {
  const kb = (name: string) => {
    const m = new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(text);
    return m ? Number(m[1]) * 1024 : null;
  };
  const total = kb('MemTotal');
  const available = kb('MemAvailable') ?? kb('MemFree');
  return total === null || available === null ? null : { total, available };
}

/** Sum of received / sent bytes over the interfaces of /proc/net/dev, loopback excluded. */
export function parseNetDev(text: string): { rx: number; tx: number } {
  let rx = 0;
  let tx = 0;
  for (const line of text.split('\n').slice(2)) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    if (line.slice(0, colon).trim() === 'lo') continue;
    const f = line
      .slice(colon + 1)
      .trim()
      .split(/\s+/)
      .map(Number);
    rx += f[0] ?? 0;
    tx += f[8] ?? 0;
  }
  return { rx, tx };
}

/** Bytes read / written by the named devices in /proc/diskstats (sectors are 512 bytes there, whatever the disk's). */
export function parseDiskstats(text: string, devices: ReadonlySet<string>): { read: number; write: number } {
  let read = 0;
  let write = 0;
  for (const line of text.split('\n')) {
    const f = line.trim().split(/\s+/);
    if (f.length < 10 || !devices.has(f[2]!)) continue;
    read += Number(f[5]) * 512;
    write += Number(f[9]) * 512;
  }
  return { read, write };
}

/** Physical disks: the /sys/block entries backed by a device (loop, ram, dm-* and md* are not: they sit on the disks). */
function physicalDisks(): Set<string> {
  try {
    return new Set(fs.readdirSync('/sys/block').filter((name) => fs.existsSync(`/sys/block/${name}/device`)));
  } catch {
    return new Set();
  }
}

/** Model, cache and speed per logical CPU; physical cores from /proc/cpuinfo when it says. */
function cpuInventory(): { info: CpuInfo[]; phyCount: number } {
  const cpus = os.cpus();
  const text = readText('/proc/cpuinfo') ?? '';
  const blocks = text.split(/\n\s*\n/).filter((b) => b.includes('processor'));
  const field = (block: string, name: string) => new RegExp(`^${name}\\s*:\\s*(.*)$`, 'm').exec(block)?.[1]?.trim();
  const cores = new Set(blocks.map((b) => `${field(b, 'physical id') ?? ''}/${field(b, 'core id') ?? ''}`).filter((k) => k !== '/'));
  const info = cpus.map((c, i) => ({
    modelName: c.model.trim(),
    cacheSize: Number.parseInt(field(blocks[i] ?? '', 'cache size') ?? '0', 10) || 0,
    mhz: c.speed,
  }));
  return { info, phyCount: cores.size || cpus.length };
}

async function diskUsage(): Promise<HostReading['disk']> {
  try {
    const s = await fs.promises.statfs('/');
    const used = (s.blocks - s.bfree) * s.bsize;
    const available = s.bavail * s.bsize;
    return { total: s.blocks * s.bsize, used, available };
  } catch {
    return { total: 0, used: 0, available: 0 };
  }
}

function cpuTimeFromNode(): { busy: number; total: number } {
  let busy = 0;
  let total = 0;
  for (const { times } of os.cpus()) {
    const all = times.user + times.nice + times.sys + times.idle + times.irq;
    total += all;
    busy += all - times.idle;
  }
  return { busy, total };
}

/**
 * The reader of this host. What does not change (CPU models, which devices are disks) is looked up once, on the first
 * reading. The /proc files are kernel text generated on read: reading them synchronously does not touch a disk.
 */
export function createHostReader(): HostReader {
  let fixed: { inventory: ReturnType<typeof cpuInventory>; disks: Set<string> } | undefined;
  return async () => {
    fixed ??= { inventory: cpuInventory(), disks: physicalDisks() };
    const { inventory, disks } = fixed;
    const stat = readText('/proc/stat');
    const meminfo = readText('/proc/meminfo');
    const netDev = readText('/proc/net/dev');
    const diskstats = readText('/proc/diskstats');
    const load = os.loadavg() as [number, number, number];
    return {
      load,
      cpuCount: inventory.info.length,
      phyCount: inventory.phyCount,
      cpuInfo: inventory.info,
      cpuTime: (stat && parseProcStat(stat)) || cpuTimeFromNode(),
      mem: (meminfo && parseMeminfo(meminfo)) || { total: os.totalmem(), available: os.freemem() },
      disk: await diskUsage(),
      net: netDev === null ? null : parseNetDev(netDev),
      diskIo: diskstats === null || disks.size === 0 ? null : parseDiskstats(diskstats, disks),
    };
  };
}
