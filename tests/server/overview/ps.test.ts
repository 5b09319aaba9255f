import fs from 'node:fs';
import os from 'node:os';
import { describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../../server/lib/clock.ts';
import type { TimerHandle, Timers } from '../../../server/lib/timers.ts';
import { type HostReading, parseDiskstats, parseMeminfo, parseNetDev, parseProcStat } from '../../../server/modules/overview/host.ts';
import { createHostMonitor, FIRST_SAMPLE_MS, KEEP, SAMPLE_EVERY_MS, type SystemLoad, WATCH_MS } from '../../../server/modules/overview/monitor.ts';
import { startHarness } from '../harness.ts';
import { adminWith } from '../identity/helpers.ts';

/** Timers that only fire when the test says so. */
function manualTimers() {
  const pending: { fn: () => void; ms: number; handle: TimerHandle & { unref: ReturnType<typeof vi.fn> } }[] = [];
  const timers: Timers = {
    setTimeout(fn, ms) {
      const handle = { unref: vi.fn() };
      pending.push({ fn, ms, handle });
      return handle;
    },
    clearTimeout(handle) {
      const i = pending.findIndex((p) => p.handle === handle);
      if (i >= 0) pending.splice(i, 1);
    },
  };
  return {
    timers,
    pending,
    /** Fires the next timer and lets its async work finish. */
    async fire() {
      const next = pending.shift();
      if (!next) throw new Error('no timer pending');
      next.fn();
      await new Promise((r) => setImmediate(r));
    },
  };
}

/** A host whose counters the test moves. */
function fakeHost() {
  const r: HostReading = {
    load: [1.5, 1, 0.5],
    cpuCount: 4,
    phyCount: 2,
    cpuInfo: [{ modelName: 'Test CPU', cacheSize: 512, mhz: 2400 }],
    cpuTime: { busy: 1000, total: 4000 },
    mem: { total: 8e9, available: 6e9 },
    disk: { total: 100e9, used: 40e9, available: 50e9 },
    net: { rx: 1e6, tx: 2e6 },
    diskIo: { read: 5e6, write: 7e6 },
  };
  return { reading: r, read: vi.fn(async () => structuredClone(r)) };
}

describe('host monitor (GET /overview/ps)', () => {
  it('samples every 5 s while watched, in bytes per second and percent, and stops when nobody asks', async () => {
    const clock = new ManualClock();
    const host = fakeHost();
    const t = manualTimers();
    const monitor = createHostMonitor({ clock, read: host.read, timers: t.timers });
    expect(monitor.sampling()).toBe(false);

    const first = await monitor.load();
    expect(monitor.sampling()).toBe(true);
    expect(t.pending.map((p) => p.ms)).toEqual([FIRST_SAMPLE_MS]);
    expect(t.pending[0]!.handle.unref).toHaveBeenCalled(); // never holds the process open
    // Gauges at once; rates and CPU need a window.
    expect(first.mem).toEqual({ total: 8e9, available: 6e9, used: 2e9, usedPercent: 25 });
    expect(first.disk).toEqual({ total: 100e9, used: 40e9, available: 50e9, usedPercent: 44.44 });
    expect(first.loadStat).toEqual({ load1: 1.5, load5: 1, load15: 0.5, percent: 37.5 });
    expect(first.cpu).toEqual({ count: 4, phyCount: 2, usedPercent: 0, info: [{ modelName: 'Test CPU', cacheSize: 512, mhz: 2400 }] });
    expect([first.cpuStat, first.memStat, first.diskIO, first.netIO]).toEqual([[], [], [], []]);

    // One second later: 300 of 400 CPU ticks busy, 3 MB received, 1 MB sent, 2 MB read, 0 written.
    clock.advance(1000);
    host.reading.cpuTime = { busy: 1300, total: 4400 };
    host.reading.net = { rx: 4e6, tx: 3e6 };
    host.reading.diskIo = { read: 7e6, write: 7e6 };
    host.reading.mem.available = 4e9;
    await t.fire();
    expect(t.pending.map((p) => p.ms)).toEqual([SAMPLE_EVERY_MS]);
    let now = await monitor.load();
    expect(now.cpu.usedPercent).toBe(75);
    expect(now.cpuStat).toEqual([{ time: expect.stringMatching(/^\d\d:\d\d:\d\d$/), value: 75 }]);
    expect(now.memStat.map((p) => p.value)).toEqual([50]);
    expect(now.netIO.map(({ read, write }) => ({ read, write }))).toEqual([{ read: 3e6, write: 1e6 }]);
    expect(now.diskIO.map(({ read, write }) => ({ read, write }))).toEqual([{ read: 2e6, write: 0 }]);

    // Five seconds later, 10 MB received: 2 MB/s, a counter that went back gives 0, not a negative rate.
    clock.advance(SAMPLE_EVERY_MS);
    host.reading.net = { rx: 14e6, tx: 1e6 };
    await t.fire();
    now = await monitor.load();
    expect(now.netIO.at(-1)).toMatchObject({ read: 2e6, write: 0 });

    // Kept: the last 30 samples, while someone keeps asking.
    for (let i = 0; i < KEEP + 5; i++) {
      clock.advance(SAMPLE_EVERY_MS);
      await monitor.load();
      await t.fire();
    }
    now = await monitor.load();
    expect(now.cpuStat).toHaveLength(KEEP);
    expect(now.netIO).toHaveLength(KEEP);

    // Nobody asks for WATCH_MS: the next tick reads nothing and schedules nothing.
    const reads = host.read.mock.calls.length;
    clock.advance(WATCH_MS);
    await t.fire();
    expect(monitor.sampling()).toBe(false);
    expect(t.pending).toHaveLength(0);
    expect(host.read.mock.calls.length).toBe(reads);

    // The next request starts afresh: the points from before the pause are dropped.
    const again = await monitor.load();
    expect(monitor.sampling()).toBe(true);
    expect(again.cpuStat).toEqual([]);
    monitor.stop();
    expect(t.pending).toHaveLength(0);
    expect(monitor.sampling()).toBe(false);
  });

  it('answers zeros and empty lists when the host cannot be read (as before the first sample)', async () => {
    const t = manualTimers();
    const monitor = createHostMonitor({ clock: new ManualClock(), read: () => Promise.reject(new Error('no /proc')), timers: t.timers });
    const load = await monitor.load();
    expect(load.mem).toEqual({ total: 0, available: 0, used: 0, usedPercent: 0 });
    expect(load.cpu.info).toBeNull();
    expect(load.netIO).toEqual([]);
    monitor.stop();
  });

  it('parses /proc: CPU busy time, MemAvailable, interfaces without loopback, physical disks in 512-byte sectors', () => {
    expect(parseProcStat('cpu  100 5 50 800 40 3 2 0 0 0\ncpu0 1 2 3 4\n')).toEqual({ busy: 160, total: 1000 });
    expect(parseMeminfo('MemTotal:       16000 kB\nMemFree:         1000 kB\nMemAvailable:    8000 kB\n')).toEqual({ total: 16000 * 1024, available: 8000 * 1024 });
    const netDev = [
      'Inter-|   Receive                                                |  Transmit',
      ' face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed',
      '    lo: 999999     10    0    0    0     0          0         0   999999      10    0    0    0     0       0          0',
      '  eth0: 1000       10    0    0    0     0          0         0     2000      10    0    0    0     0       0          0',
      '  wlan0: 500       10    0    0    0     0          0         0       50      10    0    0    0     0       0          0',
    ].join('\n');
    expect(parseNetDev(netDev)).toEqual({ rx: 1500, tx: 2050 });
    const diskstats = ['   8       0 sda 100 0 2000 0 50 0 4000 0 0 0 0', '   8       1 sda1 100 0 2000 0 50 0 4000 0 0 0 0', ' 253       0 dm-0 1 0 9999 0 1 0 9999 0 0 0 0'].join('\n');
    expect(parseDiskstats(diskstats, new Set(['sda']))).toEqual({ read: 2000 * 512, write: 4000 * 512 });
  });

  it('the route answers this host: SystemLoad shape, bytes and percent; sampling stops with the app', async () => {
    const h = await startHarness();
    const { token } = await adminWith(h, ['monitoring'], 'ops');
    const setTimer = vi.spyOn(globalThis, 'setTimeout');
    const res = await h.call('GET', '/overview/ps', { token });
    const sampling = setTimer.mock.calls.findIndex(([, ms]) => ms === FIRST_SAMPLE_MS);
    expect(sampling, 'the first sample is scheduled').toBeGreaterThanOrEqual(0);
    const timer = setTimer.mock.results[sampling]!.value as ReturnType<typeof setTimeout>;
    setTimer.mockRestore();
    expect(timer.hasRef()).toBe(false);
    expect(res.body.code).toBe(1);
    const load = res.body.data as SystemLoad;
    expect(Object.keys(load).sort()).toEqual(['cpu', 'cpuStat', 'disk', 'diskIO', 'loadStat', 'mem', 'memStat', 'netIO']);
    expect(load.cpu.count).toBe(os.cpus().length);
    expect(load.cpu.info).toHaveLength(os.cpus().length);
    expect(load.cpu.phyCount).toBeGreaterThan(0);
    expect(load.cpu.phyCount).toBeLessThanOrEqual(load.cpu.count);
    // Memory in bytes: within 1 % of what the OS says.
    expect(Math.abs(load.mem.total - os.totalmem()) / os.totalmem()).toBeLessThan(0.01);
    expect(load.mem.used + load.mem.available).toBe(load.mem.total);
    const st = fs.statfsSync('/');
    expect(load.disk.total).toBe(st.blocks * st.bsize);
    for (const p of [load.mem.usedPercent, load.disk.usedPercent, load.cpu.usedPercent, load.loadStat.percent]) {
      expect(p).toBeGreaterThanOrEqual(0);
      expect(p).toBeLessThanOrEqual(100);
    }
    expect(load.loadStat.load1).toBeGreaterThanOrEqual(0);
    // The harness clock stands still, so no window has passed yet: no points.
    expect(load.netIO).toEqual([]);
    // A dashboard key does not read the host.
    const { token: dash } = await adminWith(h, ['dashboard'], 'dash');
    expect((await h.call('GET', '/overview/ps', { token: dash })).body.code).toBe(403);
    const clearTimer = vi.spyOn(globalThis, 'clearTimeout');
    await h.close();
    expect(clearTimer).toHaveBeenCalledWith(timer); // onClose stops the sampling
    clearTimer.mockRestore();
  });
});
