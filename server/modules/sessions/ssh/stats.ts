import type { Client } from 'ssh2';
import { fail } from '../../../http/envelope.ts';
import { route } from '../../../http/routes.ts';
import type { SessionDeps } from '../deps.ts';
import { oneId } from '../../../http/ids.ts';
import type { LiveSession } from '../live.ts';
import { liveOf, ownSession } from '../owned.ts';

/*
 * The terminal's status panel (contract §3.9): a snapshot of the remote Linux host, gathered with one `exec` on the
 * session's own SSH connection (a short POSIX script printing /proc files, `df` and `ip`), parsed here. CPU
 * percentages are the delta to this session's previous sample (1.3.9 kept one sample for all sessions, quirk 23),
 * held in a WeakMap keyed by the running session: it goes when the session does. A session's first poll has no
 * previous sample: its script reads /proc/stat twice, half a second apart (1.3.9 answered zeros, which the panel showed
 * as a CPU 0 % idle and 0 % busy at once).
 */

export const MSG_STATS = {
  protocol: '不支持当前协议',
  timeout: '获取状态信息超时',
  failed: '获取状态信息失败',
};

/** The exec is bounded: a hung `df` on a dead NFS mount must not hold the request. */
export const STATS_TIMEOUT_MS = 5000;
/** The script's output is small (a few KB); more is not the script talking. */
const MAX_OUTPUT = 1024 * 1024;

// No single quote inside: the script travels as `sh -c '…'` (whatever the account's login shell is). Each section
// starts with a marker line; a tool that is missing leaves its section empty.
const LINES = [
  'export LC_ALL=C',
  'echo @@hostname; hostname -f 2>/dev/null || hostname 2>/dev/null || cat /proc/sys/kernel/hostname',
  'echo @@uptime; cat /proc/uptime',
  'echo @@loadavg; cat /proc/loadavg',
  'echo @@meminfo; cat /proc/meminfo',
  'echo @@df; df -P -B1 2>/dev/null',
  'echo @@ip; ip -o addr 2>/dev/null || /sbin/ip -o addr 2>/dev/null || /usr/sbin/ip -o addr 2>/dev/null',
  'echo @@netdev; cat /proc/net/dev',
  'echo @@stat; head -n 1 /proc/stat',
];
/** The CPU sample of a first poll, half a second before the one at the end (a whole second where sleep takes no fraction). */
const EARLIER_SAMPLE = 'echo @@stat0; head -n 1 /proc/stat; sleep 0.5 2>/dev/null || sleep 1';
export const STATS_COMMAND = `sh -c '${LINES.join('\n')}'`;
/** The first poll of a session: the same, plus an earlier CPU sample to measure against. */
export const STATS_FIRST_COMMAND = `sh -c '${[...LINES.slice(0, -1), EARLIER_SAMPLE, ...LINES.slice(-1)].join('\n')}'`;

export interface Cpu {
  user: number;
  nice: number;
  system: number;
  idle: number;
  ioWait: number;
  irq: number;
  softIrq: number;
  steal: number;
  guest: number;
}

export interface Stat {
  uptime: number;
  hostname: string;
  load1: string;
  load5: string;
  load10: string;
  runningProcess: string;
  totalProcess: string;
  memTotal: number;
  memAvailable: number;
  memFree: number;
  memBuffers: number;
  memCached: number;
  swapTotal: number;
  swapFree: number;
  fileSystems: { mountPoint: string; used: number; free: number }[];
  network: Record<string, { ipv4: string; ipv6: string; rx: number; tx: number }>;
  cpu: Cpu;
}

/** `/proc/stat`'s first line: jiffies of user nice system idle iowait irq softirq steal guest. */
export type CpuSample = number[];

const CPU_FIELDS = ['user', 'nice', 'system', 'idle', 'ioWait', 'irq', 'softIrq', 'steal', 'guest'] as const;

const int = (v: string | undefined) => {
  const n = Number(v);
  return Number.isFinite(n) ? n : 0;
};

function sections(output: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of output.split('\n')) {
    const marker = /^@@(\w+)$/.exec(line.trim());
    if (marker) {
      current = [];
      out.set(marker[1]!, current);
    } else if (current && line.trim() !== '') {
      current.push(line);
    }
  }
  return out;
}

/**
 * The CPU percentages between two samples. Without a previous one, the shares since the host booted (the counters
 * themselves); zeros only when no time passed between the samples.
 */
export function cpuPercent(previous: CpuSample | undefined, now: CpuSample): Cpu {
  const zero = Object.fromEntries(CPU_FIELDS.map((f) => [f, 0])) as unknown as Cpu;
  const delta = CPU_FIELDS.map((_, i) => Math.max(0, (now[i] ?? 0) - (previous?.[i] ?? 0)));
  // Linux counts guest time inside user time: the total is the first eight fields.
  const total = delta.slice(0, 8).reduce((a, b) => a + b, 0);
  if (total === 0) return zero;
  return Object.fromEntries(CPU_FIELDS.map((f, i) => [f, Math.round((delta[i]! / total) * 10000) / 100])) as unknown as Cpu;
}

/**
 * Parses the script's output; `previous` is this session's last CPU sample (absent on its first poll, whose output
 * carries an earlier sample of its own). Returns the stat and the new sample.
 */
export function parseStats(output: string, previous: CpuSample | undefined): { stat: Stat; sample: CpuSample } {
  const s = sections(output);
  const first = (name: string) => s.get(name)?.[0]?.trim() ?? '';

  const [load1 = '', load5 = '', load15 = '', procs = ''] = first('loadavg').split(/\s+/);
  const [running = '', total = ''] = procs.split('/');

  const mem = new Map<string, number>();
  for (const line of s.get('meminfo') ?? []) {
    const m = /^(\w+(?:\(\w+\))?):\s+(\d+)(?:\s+kB)?/.exec(line);
    if (m) mem.set(m[1]!, int(m[2]) * (line.includes('kB') ? 1024 : 1));
  }

  const fileSystems: Stat['fileSystems'] = [];
  for (const line of (s.get('df') ?? []).slice(1)) {
    // Filesystem 1-blocks Used Available Capacity Mounted-on (the mount point may hold spaces).
    const cols = line.trim().split(/\s+/);
    if (cols.length < 6 || int(cols[1]) === 0) continue; // pseudo file systems
    fileSystems.push({ mountPoint: cols.slice(5).join(' '), used: int(cols[2]), free: int(cols[3]) });
  }

  const network: Stat['network'] = {};
  for (const line of (s.get('netdev') ?? []).slice(2)) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const name = line.slice(0, colon).trim();
    const cols = line.slice(colon + 1).trim().split(/\s+/);
    network[name] = { ipv4: '', ipv6: '', rx: int(cols[0]), tx: int(cols[8]) };
  }
  for (const line of s.get('ip') ?? []) {
    // "2: eth0    inet 172.17.0.2/16 brd … scope global eth0\ …"
    const cols = line.trim().split(/\s+/);
    const name = cols[1]?.replace(/@.*$/, '');
    const family = cols[2];
    const address = cols[3]?.split('/')[0] ?? '';
    if (!name || !address) continue;
    network[name] ??= { ipv4: '', ipv6: '', rx: 0, tx: 0 };
    if (family === 'inet' && !network[name].ipv4) network[name].ipv4 = address;
    if (family === 'inet6' && !network[name].ipv6) network[name].ipv6 = address;
  }

  const cpuSample = (name: string): CpuSample | undefined => (s.has(name) ? first(name).split(/\s+/).slice(1, 10).map(int) : undefined);
  const sample = cpuSample('stat') ?? [];
  return {
    sample,
    stat: {
      uptime: Math.round(int(first('uptime').split(/\s+/)[0]) * 1000),
      hostname: first('hostname'),
      load1,
      load5,
      load10: load15, // the wire's name; 1.3.9 put the 15-minute value there too
      runningProcess: running,
      totalProcess: total,
      memTotal: mem.get('MemTotal') ?? 0,
      memAvailable: mem.get('MemAvailable') ?? 0,
      memFree: mem.get('MemFree') ?? 0,
      memBuffers: mem.get('Buffers') ?? 0,
      memCached: mem.get('Cached') ?? 0,
      swapTotal: mem.get('SwapTotal') ?? 0,
      swapFree: mem.get('SwapFree') ?? 0,
      fileSystems,
      network,
      cpu: cpuPercent(previous ?? cpuSample('stat0'), sample),
    },
  };
}

/** Runs `command` on the connection and collects its stdout, within `timeoutMs`. */
export function execCollect(ssh: Client, command: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let done = false;
    const finish = (err: Error | null, out?: string) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (err) reject(err);
      else resolve(out ?? '');
    };
    let close = () => {};
    const timer = setTimeout(() => {
      close();
      finish(fail(MSG_STATS.timeout));
    }, timeoutMs);
    ssh.exec(command, (err, stream) => {
      if (err) return finish(fail(`${MSG_STATS.failed}：${err.message}`));
      close = () => stream.close();
      if (done) return stream.close();
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (c: Buffer) => {
        size += c.length;
        if (size > MAX_OUTPUT) {
          stream.close();
          finish(fail(MSG_STATS.failed));
        } else chunks.push(c);
      });
      stream.stderr.resume();
      stream.on('close', () => finish(null, Buffer.concat(chunks).toString('utf8')));
      stream.on('error', (e: Error) => finish(fail(`${MSG_STATS.failed}：${e.message}`)));
    });
  });
}

export function statsRoutes({ db, live }: SessionDeps) {
  const samples = new WeakMap<LiveSession, CpuSample>();
  return [
    route({
      method: 'GET',
      path: '/sessions/:id/stats',
      allow: 'authenticated',
      params: oneId,
      handler: async ({ params, principal }) => {
        const row = await ownSession(db, principal.user.id, params.id);
        if (row.protocol !== 'ssh') throw fail(MSG_STATS.protocol);
        const session = liveOf(live, row);
        const previous = samples.get(session);
        const { exec } = session.capabilities;
        if (!exec) throw fail(MSG_STATS.protocol);
        const output = await exec(previous ? STATS_COMMAND : STATS_FIRST_COMMAND, STATS_TIMEOUT_MS);
        const { stat, sample } = parseStats(output, previous);
        samples.set(session, sample);
        return stat;
      },
    }),
  ];
}
