import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpuPercent, parseStats, STATS_COMMAND, STATS_FIRST_COMMAND } from '../../../server/modules/sessions/ssh/stats.ts';
import { startSshd, sshdUnavailable, type TestSshd } from '../sshd.ts';
import { connectLive, sessionsHarness } from './helpers.ts';

const OUTPUT = `@@hostname
web-01.example
@@uptime
12345.67 40000.00
@@loadavg
0.50 0.25 0.10 2/345 6789
@@meminfo
MemTotal:        2048000 kB
MemFree:          512000 kB
MemAvailable:    1024000 kB
Buffers:           10000 kB
Cached:           300000 kB
SwapTotal:       1000000 kB
SwapFree:         900000 kB
@@df
Filesystem     1-blocks       Used  Available Capacity Mounted on
/dev/sda1    1000000000  400000000  600000000      40% /
tmpfs                 0          0          0       -  /dev/shm
/dev/sdb1     500000000  100000000  400000000      20% /mnt/my data
@@ip
1: lo    inet 127.0.0.1/8 scope host lo\\       valid_lft forever preferred_lft forever
2: eth0    inet 10.0.0.5/24 brd 10.0.0.255 scope global eth0\\       valid_lft forever preferred_lft forever
2: eth0    inet6 fe80::1/64 scope link \\       valid_lft forever preferred_lft forever
@@netdev
Inter-|   Receive                                                |  Transmit
 face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed
    lo:    1000      10    0    0    0     0          0         0     1000      10    0    0    0     0       0          0
  eth0: 5000000    4000    0    0    0     0          0         0  2000000    3000    0    0    0     0       0          0
@@stat
cpu  100 0 50 800 10 0 5 0 0 0
`;

describe('parseStats', () => {
  it('reads every section of the script into the §3.9 shape', () => {
    const { stat, sample } = parseStats(OUTPUT, undefined);
    expect(stat).toEqual({
      uptime: 12_345_670,
      hostname: 'web-01.example',
      load1: '0.50',
      load5: '0.25',
      load10: '0.10',
      runningProcess: '2',
      totalProcess: '345',
      memTotal: 2048000 * 1024,
      memAvailable: 1024000 * 1024,
      memFree: 512000 * 1024,
      memBuffers: 10000 * 1024,
      memCached: 300000 * 1024,
      swapTotal: 1000000 * 1024,
      swapFree: 900000 * 1024,
      fileSystems: [
        { mountPoint: '/', used: 400000000, free: 600000000 },
        { mountPoint: '/mnt/my data', used: 100000000, free: 400000000 },
      ],
      network: {
        lo: { ipv4: '127.0.0.1', ipv6: '', rx: 1000, tx: 1000 },
        eth0: { ipv4: '10.0.0.5', ipv6: 'fe80::1', rx: 5000000, tx: 2000000 },
      },
      // No earlier sample at all: the shares since boot, never zeros (a 0 % idle, 0 % busy CPU).
      cpu: { user: 10.36, nice: 0, system: 5.18, idle: 82.9, ioWait: 1.04, irq: 0, softIrq: 0.52, steal: 0, guest: 0 },
    });
    expect(sample).toEqual([100, 0, 50, 800, 10, 0, 5, 0, 0]);
  });

  it("a first poll's output carries an earlier CPU sample, measured against; a previous sample wins over it", () => {
    const first = OUTPUT.replace('@@stat\n', '@@stat0\ncpu  50 0 25 700 0 0 5 0 0 0\n@@stat\n');
    expect(parseStats(first, undefined).stat.cpu).toEqual({ user: 27.03, nice: 0, system: 13.51, idle: 54.05, ioWait: 5.41, irq: 0, softIrq: 0, steal: 0, guest: 0 });
    expect(parseStats(first, undefined).sample).toEqual([100, 0, 50, 800, 10, 0, 5, 0, 0]);
    expect(parseStats(first, [100, 0, 50, 800, 10, 0, 5, 0, 0]).stat.cpu.idle).toBe(0); // no time passed since
    // The first poll's script takes that sample half a second before the last; later polls do not wait.
    expect(STATS_FIRST_COMMAND).toContain('echo @@stat0; head -n 1 /proc/stat; sleep 0.5');
    expect(STATS_FIRST_COMMAND.indexOf('@@stat0')).toBeLessThan(STATS_FIRST_COMMAND.indexOf('@@stat;'));
    expect(STATS_COMMAND).not.toContain('@@stat0');
    expect(STATS_COMMAND).not.toContain('sleep');
  });

  it('computes CPU percentages from the previous sample; missing tools leave sections empty', () => {
    expect(cpuPercent([100, 0, 50, 800, 10, 0, 5, 0, 0], [150, 0, 75, 900, 20, 0, 5, 0, 0])).toEqual({
      user: 27.03,
      nice: 0,
      system: 13.51,
      idle: 54.05,
      ioWait: 5.41,
      irq: 0,
      softIrq: 0,
      steal: 0,
      guest: 0,
    });
    const bare = parseStats('@@hostname\nh\n@@df\n@@ip\n', undefined).stat;
    expect(bare).toMatchObject({ hostname: 'h', fileSystems: [], network: {}, memTotal: 0, uptime: 0 });
    expect(Object.values(bare.cpu).every((v) => v === 0)).toBe(true); // no /proc/stat: nothing to say
  });
});

describe.skipIf(sshdUnavailable())('GET /sessions/:id/stats against a real sshd', () => {
  let sshd: TestSshd;
  beforeAll(async () => {
    sshd = await startSshd();
  });
  afterAll(() => sshd?.stop());

  it("answers the creator's live SSH session, CPU deltas per session; refuses others, other protocols, offline sessions", async () => {
    const r = await sessionsHarness();
    const { h } = r;
    const alice = await h.createUser({ username: 'alice' });
    const bob = await h.createUser({ username: 'bob' });
    const aliceToken = await h.accessToken(alice);
    const id = await r.seedSession({ creator: alice, status: 'connected', disconnectedTime: null });
    const other = await r.seedSession({ creator: alice, status: 'connected', disconnectedTime: null });
    const s1 = await connectLive(r.live, sshd, { id, creator: alice, assetId: 'a' });
    const s2 = await connectLive(r.live, sshd, { id: other, creator: alice, assetId: 'a' });
    try {
      // The commands each session's connection runs.
      const ran = new Map<string, string[]>();
      for (const [sid, s] of [[id, s1], [other, s2]] as const) {
        // ssh2's exec is overloaded (with and without options): passed through as it came.
        const exec = s.ssh.exec.bind(s.ssh) as unknown as (command: string, ...rest: unknown[]) => unknown;
        ran.set(sid, []);
        (s.ssh as unknown as { exec: typeof exec }).exec = (command, ...rest) => {
          ran.get(sid)!.push(command);
          return exec(command, ...rest);
        };
      }
      const stats = async (sid: string, token = aliceToken) => h.call('GET', `/sessions/${sid}/stats`, { token });
      type Cpu = Record<string, number>;
      /** What the panel shows: shares of one whole (guest is inside user), idle among them. */
      const sane = (cpu: Cpu) => {
        const sum = Object.entries(cpu)
          .filter(([k]) => k !== 'guest')
          .reduce((a, [, v]) => a + v, 0);
        expect(sum).toBeGreaterThan(99.9);
        expect(sum).toBeLessThan(100.1);
        for (const v of Object.values(cpu)) expect(v >= 0 && v <= 100, JSON.stringify(cpu)).toBe(true);
      };
      const first = await stats(id);
      expect(first.body.code).toBe(1);
      const stat = first.body.data as Record<string, unknown> & { cpu: Cpu; uptime: number; memTotal: number; fileSystems: unknown[]; network: Record<string, unknown> };
      expect(stat.hostname).toBeTruthy();
      // Milliseconds since boot, as /proc/uptime says (seconds there).
      const hostUptime = Number(fs.readFileSync('/proc/uptime', 'utf8').split(' ')[0]) * 1000;
      expect(stat.uptime).toBeGreaterThan(0);
      expect(Math.abs(stat.uptime - hostUptime)).toBeLessThan(60_000);
      expect(stat.memTotal).toBeGreaterThan(0);
      expect(stat.fileSystems.length).toBeGreaterThan(0);
      expect(Object.keys(stat.network)).toContain('lo');
      // The first poll of a session measures too (1.3.9 answered zeros): over its own half second.
      sane(stat.cpu);
      expect(ran.get(id)).toEqual([STATS_FIRST_COMMAND]);
      await new Promise((resolve) => setTimeout(resolve, 300));
      sane(((await stats(id)).body.data as { cpu: Cpu }).cpu);
      expect(ran.get(id)).toEqual([STATS_FIRST_COMMAND, STATS_COMMAND]);
      // Another session's first poll is its own first sample, whatever the first one polled (quirk 23).
      sane(((await stats(other)).body.data as { cpu: Cpu }).cpu);
      expect(ran.get(other)).toEqual([STATS_FIRST_COMMAND]);

      // Someone else, even an admin, learns nothing.
      expect((await stats(id, await h.accessToken(bob))).body).toEqual({ code: -1, message: '获取会话失败' });
      expect((await stats(id, r.root)).body).toEqual({ code: -1, message: '获取会话失败' });
      expect((await stats('ghost')).body).toEqual({ code: -1, message: '获取会话失败' });
      const rdp = await r.seedSession({ creator: alice, protocol: 'rdp' });
      expect((await stats(rdp)).body).toEqual({ code: -1, message: '不支持当前协议' });
      s2.end();
      expect((await stats(other)).body).toEqual({ code: -1, message: '会话已离线' });
    } finally {
      s1.end();
      s2.end();
    }
  });
});
