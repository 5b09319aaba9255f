import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/clock.ts';
import { formatClockTime } from '../../lib/time.ts';
import type { TimerHandle, Timers } from '../../lib/timers.ts';
import type { CpuInfo, HostReader, HostReading } from './host.ts';

/*
 * GET /overview/ps (contract §3.22): this server's load, sampled every 5 s only while someone is watching. A request
 * starts the sampling (or extends it) for WATCH_MS; when nobody asked for that long the timer is not re-armed, so an
 * idle server reads nothing. The timer never holds the process open (unref) and stops with the app.
 *
 * Units: memory and disk in bytes, percentages 0–100, diskIO / netIO in bytes per second averaged over the window
 * since the previous sample (1.3.9 gave bytes per 1 s window and its console divided by 1024³ while labelling MB/s).
 */

export const SAMPLE_EVERY_MS = 5000;
/** The first window after a cold start is short, so the first point and the CPU gauge come quickly. */
export const FIRST_SAMPLE_MS = 1000;
/** How long one request keeps the sampling going. */
export const WATCH_MS = 30_000;
/** Samples kept (the charts' width). */
export const KEEP = 30;

interface Point {
  time: string;
  cpu: number;
  mem: number;
  diskRead: number;
  diskWrite: number;
  netRx: number;
  netTx: number;
}

export interface SystemLoad {
  loadStat: { load1: number; load5: number; load15: number; percent: number };
  mem: { total: number; available: number; used: number; usedPercent: number };
  memStat: { time: string; value: number }[];
  cpu: { count: number; phyCount: number; usedPercent: number; info: CpuInfo[] | null };
  cpuStat: { time: string; value: number }[];
  disk: { total: number; used: number; available: number; usedPercent: number };
  diskIO: { time: string; read: number; write: number }[];
  netIO: { time: string; read: number; write: number }[];
}

export interface HostMonitor {
  /** The current load and the kept samples; starts or extends the sampling. */
  load(): Promise<SystemLoad>;
  /** Whether a sample is scheduled (tests; nobody watching → false). */
  sampling(): boolean;
  stop(): void;
}

const round2 = (n: number) => Math.round(n * 100) / 100;
const percent = (part: number, whole: number) => (whole > 0 ? round2(Math.min(100, Math.max(0, (part / whole) * 100))) : 0);
/** Counters can go back (a reset, a device removed): no negative rates. */
const rate = (now: number, before: number, seconds: number) => Math.max(0, Math.round((now - before) / seconds));

export function createHostMonitor(opts: { clock: Clock; read: HostReader; timers: Timers; log?: FastifyBaseLogger }): HostMonitor {
  const { clock, read, timers, log } = opts;
  let latest: { reading: HostReading; at: number } | undefined;
  let cpuPercent = 0;
  let points: Point[] = [];
  let watchUntil = 0;
  let running = false;
  let timer: TimerHandle | undefined;

  const schedule = (ms: number) => {
    timer = timers.setTimeout(() => void tick(), ms);
    timer.unref();
  };

  async function sample(): Promise<void> {
    const reading = await read();
    const at = clock.now();
    const before = latest;
    latest = { reading, at };
    const seconds = before ? (at - before.at) / 1000 : 0;
    if (!before || seconds <= 0) return;
    const prev = before.reading;
    cpuPercent = percent(reading.cpuTime.busy - prev.cpuTime.busy, reading.cpuTime.total - prev.cpuTime.total);
    // No I/O counters on this platform: the points say 0.
    const net = reading.net && prev.net ? { rx: rate(reading.net.rx, prev.net.rx, seconds), tx: rate(reading.net.tx, prev.net.tx, seconds) } : { rx: 0, tx: 0 };
    const disk =
      reading.diskIo && prev.diskIo ? { read: rate(reading.diskIo.read, prev.diskIo.read, seconds), write: rate(reading.diskIo.write, prev.diskIo.write, seconds) } : { read: 0, write: 0 };
    points.push({
      time: formatClockTime(at),
      cpu: cpuPercent,
      mem: percent(reading.mem.total - reading.mem.available, reading.mem.total),
      diskRead: disk.read,
      diskWrite: disk.write,
      netRx: net.rx,
      netTx: net.tx,
    });
    if (points.length > KEEP) points = points.slice(-KEEP);
  }

  async function tick(): Promise<void> {
    timer = undefined;
    if (!running) return;
    if (clock.now() >= watchUntil) {
      running = false; // nobody asked for WATCH_MS: stop until the next request
      return;
    }
    try {
      await sample();
    } catch (error) {
      log?.error({ err: error }, 'host sampling failed');
    }
    if (running && !timer) schedule(SAMPLE_EVERY_MS);
  }

  function view(): SystemLoad {
    const r = latest?.reading;
    if (!r) {
      return {
        loadStat: { load1: 0, load5: 0, load15: 0, percent: 0 },
        mem: { total: 0, available: 0, used: 0, usedPercent: 0 },
        memStat: [],
        cpu: { count: 0, phyCount: 0, usedPercent: 0, info: null },
        cpuStat: [],
        disk: { total: 0, used: 0, available: 0, usedPercent: 0 },
        diskIO: [],
        netIO: [],
      };
    }
    const [load1, load5, load15] = r.load;
    const memUsed = r.mem.total - r.mem.available;
    return {
      loadStat: { load1: round2(load1), load5: round2(load5), load15: round2(load15), percent: percent(load1, r.cpuCount) },
      mem: { total: r.mem.total, available: r.mem.available, used: memUsed, usedPercent: percent(memUsed, r.mem.total) },
      memStat: points.map((p) => ({ time: p.time, value: p.mem })),
      cpu: { count: r.cpuCount, phyCount: r.phyCount, usedPercent: cpuPercent, info: r.cpuInfo },
      cpuStat: points.map((p) => ({ time: p.time, value: p.cpu })),
      disk: { ...r.disk, usedPercent: percent(r.disk.used, r.disk.used + r.disk.available) },
      diskIO: points.map((p) => ({ time: p.time, read: p.diskRead, write: p.diskWrite })),
      netIO: points.map((p) => ({ time: p.time, read: p.netRx, write: p.netTx })),
    };
  }

  return {
    async load() {
      watchUntil = clock.now() + WATCH_MS;
      if (!running) {
        // A cold start: the old points are from before the pause and would show a gap as one long window.
        running = true;
        latest = undefined;
        points = [];
        cpuPercent = 0;
        schedule(FIRST_SAMPLE_MS);
        try {
          await sample(); // the gauges now; rates need the next sample's window
        } catch (error) {
          log?.error({ err: error }, 'host sampling failed'); // answered with zeros, as before any sample
        }
      }
      return view();
    },
    sampling: () => running,
    stop() {
      running = false;
      if (timer) timers.clearTimeout(timer);
      timer = undefined;
    },
  };
}
