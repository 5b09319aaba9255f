/**
 * Interactive under load (issue 30 §1): N sessions stream (`cat` of a large realistic file, over and over) while M
 * sessions type (one key every --key-ms into `stty raw -echo; exec cat`) and an API probe asks the server every
 * --probe-ms, all through one real server and a real sshd on loopback. Reports the echo latency of the typed keys,
 * the API latency (`GET /branding`, static, and `GET /assets?…`, a database read behind authentication), the total
 * and per-session streaming throughput, and the server's CPU. In the same window, the floors this machine gives any
 * program under that load: --direct typists straight to sshd with ssh2 (no Jumpgate) and a probe of a trivial HTTP
 * server in a process of its own (on 2 cores the streams' `cat` and sshd take CPU a bastion's targets would not).
 *
 * The streaming clients run in a child process of their own (`--streamers-child`), so that reading 10 streams at full
 * speed does not delay this process's clocks: what the typists and the probe measure is the server.
 *
 * Run: npm run bench:load [-- --streamers 10 --typists 40 --direct 5 --seconds 20 --mb 20 --key-ms 200 --probe-ms 50 --runs 1
 *                            --remote-nice 10 --before <another checkout> --also <name>=<checkout>,…]
 *   --before: the same load against that checkout's server too (alternating, same sshd and payload), and the ratios;
 *   --also: more checkouts to compare in the same run (variants of a design).
 *   Needs root (it starts its own sshd: tests/server/sshd.ts). BENCH_CPU_PROF=<folder>: the servers' V8 CPU profiles.
 */
import { type ChildProcessByStdio, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ssh2, { type ClientChannel } from 'ssh2';
import WebSocket from 'ws';
import { startSshd, type TestSshd } from '../tests/server/sshd.ts';
import { api } from './bench/api.ts';
import { flag } from './bench/args.ts';
import { cpuSeconds } from './bench/proc.ts';
import { buildPayload } from './bench/payload.ts';
import { type BenchServer, percentile, startBenchServer } from './bench/server.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const PASSWORD = 'bench-password-1';
const READY = '__LOAD_READY__';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Where the sessions go: a server, signed in, with an SSH asset on the bench's sshd. */
interface Target {
  base: string;
  token: string;
  assetId: string;
}

/** A terminal session through the relay: raw frames in, `2…` text frames out (bytes counted, text given on demand). */
interface Term {
  ws: WebSocket;
  send(keys: string): void;
  /** Called with each output frame's text (without its `2`). */
  onText: (text: string) => void;
}

async function openTerm(t: Target): Promise<Term> {
  const { id } = await api<{ id: string }>(t.base, t.token, 'POST', `/sessions?assetId=${t.assetId}&mode=native`);
  const ws = new WebSocket(`${t.base.replace(/^http/, 'ws')}/sessions/${id}/ssh?cols=120&rows=40&X-Auth-Token=${t.token}`, { perMessageDeflate: false });
  const term: Term = { ws, send: (keys) => ws.send(`2${keys}`), onText: () => {} };
  await new Promise<void>((resolve, reject) => {
    ws.on('message', (data: Buffer) => {
      const kind = data[0];
      if (kind === 0x32) term.onText(data.toString('utf8', 1));
      else if (kind === 0x31) resolve();
      else if (kind === 0x30) reject(new Error(`closed: ${data.toString('utf8', 1)}`));
    });
    ws.once('error', reject);
  });
  await api(t.base, t.token, 'POST', `/sessions/${id}/connect`);
  return term;
}

/** Runs `setup`, prints READY, then runs `then`; resolves once READY has gone by. */
function prepare(term: Term, setup: string, then = ''): Promise<void> {
  return new Promise((resolve) => {
    let seen = '';
    term.onText = (text) => {
      seen = (seen + text).slice(-4096);
      if (seen.includes(READY)) {
        term.onText = () => {};
        resolve();
      }
    };
    term.send(`${setup}; printf '__LOAD_%s__' READY${then ? `; ${then}` : ''}\r`);
  });
}

/** Opens `n` sessions, `batch` at a time (sshd's MaxStartups and the server's handshake CPU). */
async function openMany(t: Target, n: number, batch = 10): Promise<Term[]> {
  const terms: Term[] = [];
  while (terms.length < n) terms.push(...(await Promise.all(Array.from({ length: Math.min(batch, n - terms.length) }, () => openTerm(t)))));
  return terms;
}

// ---------------------------------------------------------------------------------------------------------------
// The streaming clients' process: opens the sessions, says `ready`; on `go` starts the loops; on `mark` zeroes the
// counters; on `stop` prints the bytes each session received since `mark` (JSON) and exits.
async function streamersChild(): Promise<void> {
  const target = JSON.parse(flag('target', '{}')) as Target;
  const terms = await openMany(target, Number(flag('count', '0')));
  await Promise.all(terms.map((term) => prepare(term, 'stty -echo')));
  const bytes = terms.map(() => 0);
  terms.forEach((term, i) => {
    // Counted as bytes: decoding 10 streams to text would cost this process more than the server's relay.
    term.ws.removeAllListeners('message');
    term.ws.on('message', (data: Buffer) => {
      bytes[i] = (bytes[i] as number) + data.length - 1;
    });
  });
  process.stdout.write('ready\n');
  readline.createInterface({ input: process.stdin }).on('line', (command) => {
    if (command === 'go') for (const term of terms) term.send(`while :; do cat ${flag('file', '')}; done\r`);
    else if (command === 'mark') bytes.fill(0);
    else if (command === 'stop') {
      process.stdout.write(`${JSON.stringify(bytes)}\n`);
      for (const term of terms) term.ws.terminate();
      setTimeout(() => process.exit(0), 100);
    }
  });
}

interface Streamers {
  child: ChildProcessByStdio<Writable, Readable, null>;
  say(command: string): void;
  /** The next line the child prints. */
  line(): Promise<string>;
}

function startStreamers(t: Target, count: number, file: string): Streamers {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench-load.ts', '--streamers-child', '--target', JSON.stringify(t), '--count', String(count), '--file', file], {
    cwd: root,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  const waiting: ((l: string) => void)[] = [];
  readline.createInterface({ input: child.stdout }).on('line', (l) => {
    const w = waiting.shift();
    if (w) w(l);
    else lines.push(l);
  });
  return {
    child,
    say: (command) => child.stdin.write(`${command}\n`),
    line: () => {
      const l = lines.shift();
      if (l !== undefined) return Promise.resolve(l);
      return new Promise((resolve, reject) => {
        waiting.push(resolve);
        child.once('exit', (code) => reject(new Error(`streamers exited with ${code}`)));
      });
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The floors, measured in the same window: what this machine gives any program under the same load.

/** A typist straight to sshd with ssh2 (no Jumpgate): the echo floor of the host side under the same load. */
async function directTerm(sshd: TestSshd): Promise<Term & { end(): void }> {
  const client = new ssh2.Client();
  await new Promise<void>((resolve, reject) => {
    client.once('ready', () => resolve());
    client.once('error', reject);
    client.connect({ host: sshd.host, port: sshd.port, username: sshd.username, privateKey: sshd.privateKey });
  });
  const stream = await new Promise<ClientChannel>((resolve, reject) => client.shell({ term: 'xterm-256color', cols: 120, rows: 40 }, (err, ch) => (err ? reject(err) : resolve(ch))));
  // Shaped as a relay Term (`ws` unused): prepare() and type() drive both alike.
  const term = { ws: undefined as unknown as WebSocket, send: (keys: string) => void stream.write(keys), onText: (_text: string) => {}, end: () => client.end() };
  stream.setEncoding('utf8');
  stream.on('data', (text: string) => term.onText(text));
  return term;
}

/** A trivial HTTP server in a process of its own (as in the issue's measurement): the API floor under the same load. */
async function startTrivialServer(): Promise<{ base: string; stop(): void }> {
  const child = spawn(process.execPath, ['-e', "const s=require('http').createServer((q,r)=>r.end('ok')).listen(0,'127.0.0.1',()=>console.log(s.address().port))"], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve) => child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim())));
  return { base: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

// ---------------------------------------------------------------------------------------------------------------

/** One typist: a key every `everyMs` (whatever the echo does: no coordinated omission), each key's echo timed. */
function type(term: Term, everyMs: number, until: number, latencies: number[]): Promise<void> {
  const sent: number[] = [];
  term.onText = (text) => {
    const now = performance.now();
    // Raw `cat` echoes exactly the keys, in order: each character answers the oldest key not yet echoed.
    for (let i = 0; i < text.length && sent.length > 0; i++) latencies.push(now - (sent.shift() as number));
  };
  return new Promise((resolve) => {
    const tick = () => {
      if (performance.now() >= until) {
        // Keys still in flight get until a second after the end; one never echoed counts as that long.
        setTimeout(() => {
          const now = performance.now();
          for (const at of sent.splice(0)) latencies.push(now - at);
          resolve();
        }, 1000);
        return;
      }
      sent.push(performance.now());
      term.send(String.fromCharCode(97 + Math.floor(Math.random() * 26)));
      setTimeout(tick, everyMs);
    };
    setTimeout(tick, Math.random() * everyMs);
  });
}

/** Asks `url` every `everyMs` (not waiting for the previous answer) until `until`; resolves with the latencies. */
async function probe(t: Target, url: string, everyMs: number, until: number): Promise<number[]> {
  const latencies: number[] = [];
  const calls: Promise<void>[] = [];
  while (performance.now() < until) {
    const t0 = performance.now();
    calls.push(
      fetch(`${t.base}${url}`, { headers: { 'x-auth-token': t.token } })
        .then((res) => res.arrayBuffer())
        .then(() => {
          latencies.push(performance.now() - t0);
        }),
    );
    await sleep(everyMs);
  }
  await Promise.all(calls);
  return latencies;
}

/** The server's own pid: the node child of the tsx launcher. */
function serverPid(s: BenchServer): number {
  const launcher = s.child.pid as number;
  const kids = execFileSync('pgrep', ['-P', String(launcher)], { encoding: 'utf8' }).trim().split('\n').map(Number);
  return kids[0] ?? launcher;
}

interface RunResult {
  echo: number[];
  /** The floors: echo of typists straight to sshd, answers of a trivial HTTP server in another process. */
  directEcho: number[];
  trivial: number[];
  branding: number[];
  assets: number[];
  /** Bytes each streaming session received during the window, and the window's length (s). */
  streamed: number[];
  seconds: number;
  serverCpu: number;
  /** The server's event-loop delay over the window (ms): how long a turn kept everything else waiting. */
  loop?: { p50: number; p99: number; max: number; utilization: number };
}

/** Waits until the server's start-up work is over (under 20 % of a core for half a second, at most 15 s). */
async function settle(pid: number): Promise<void> {
  for (let i = 0; i < 30; i++) {
    const c0 = cpuSeconds(pid);
    await sleep(500);
    if ((cpuSeconds(pid) - c0) / 0.5 < 0.2) return;
  }
}

const loopDir = fs.mkdtempSync(path.join(os.tmpdir(), 'jumpgate-bench-loop-'));
/** The window's event-loop delay as the server's preload measured it (second SIGUSR2: scripts/bench/loop-delay.mjs). */
async function loopDelay(pid: number): Promise<RunResult['loop']> {
  process.kill(pid, 'SIGUSR2');
  const file = path.join(loopDir, `${pid}.json`);
  for (let i = 0; i < 50 && !fs.existsSync(file); i++) await sleep(100);
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as RunResult['loop']) : undefined;
}

interface Load {
  streamers: number;
  typists: number;
  /** Typists straight to sshd (the echo floor). */
  direct: number;
  seconds: number;
  keyMs: number;
  probeMs: number;
  /** Nice of the hosts' side and the streaming clients (0: as everything else). */
  remoteNice: number;
}

async function run(s: BenchServer, sshd: TestSshd, file: string, o: Load): Promise<RunResult> {
  const { token } = await api<{ token: string }>(s.base, '', 'POST', '/login', { username: 'admin', password: PASSWORD });
  const { id: assetId } = await api<{ id: string }>(s.base, token, 'POST', '/assets', {
    name: 'load',
    protocol: 'ssh',
    ip: sshd.host,
    port: sshd.port,
    accountType: 'private-key',
    username: sshd.username,
    privateKey: sshd.privateKey,
  });
  const target: Target = { base: s.base, token, assetId };
  await settle(serverPid(s));
  const typists = await openMany(target, o.typists);
  await Promise.all(typists.map((term) => prepare(term, 'stty raw -echo', 'exec cat')));
  const direct = await Promise.all(Array.from({ length: o.direct }, () => directTerm(sshd)));
  await Promise.all(direct.map((term) => prepare(term, 'stty raw -echo', 'exec cat')));
  const trivial = await startTrivialServer();
  // `exec cat` has replaced the shell after READY: nothing else comes but echoes.
  const streamers = o.streamers > 0 ? startStreamers(target, o.streamers, file) : undefined;
  if (streamers && o.remoteNice > 0) os.setPriority(streamers.child.pid as number, o.remoteNice);
  if (streamers) {
    const ready = await streamers.line();
    if (ready !== 'ready') throw new Error(`streamers: ${ready}`);
    streamers.say('go');
    await sleep(2000); // to a steady state
    streamers.say('mark');
  }
  const pid = serverPid(s);
  process.kill(pid, 'SIGUSR2'); // the loop-delay histogram starts now (scripts/bench/loop-delay.mjs)
  const cpu0 = cpuSeconds(pid);
  const t0 = performance.now();
  const until = t0 + o.seconds * 1000;
  const echo: number[] = [];
  const directEcho: number[] = [];
  const [branding, assets, trivialTimes] = await Promise.all([
    probe(target, '/branding', o.probeMs, until),
    probe(target, '/assets?pageIndex=1&pageSize=10', o.probeMs, until),
    probe({ ...target, base: trivial.base }, '/', o.probeMs, until),
    ...typists.map((term) => type(term, o.keyMs, until, echo)),
    ...direct.map((term) => type(term, o.keyMs, until, directEcho)),
  ]);
  trivial.stop();
  for (const term of direct) term.end();
  let streamed: number[] = [];
  if (streamers) {
    streamers.say('stop');
    streamed = JSON.parse(await streamers.line()) as number[];
  }
  // The window is as long as the slowest probe made it (an answer can take longer than the planned seconds).
  const seconds = (performance.now() - t0) / 1000;
  const serverCpu = ((cpuSeconds(pid) - cpu0) / seconds) * 100;
  const loop = await loopDelay(pid);
  for (const term of typists) term.ws.terminate();
  return { echo, directEcho, trivial: trivialTimes ?? [], branding: branding ?? [], assets: assets ?? [], streamed, seconds, serverCpu, ...(loop ? { loop } : {}) };
}

async function bench(): Promise<void> {
  const o: Load = {
    streamers: Number(flag('streamers', '10')),
    typists: Number(flag('typists', '40')),
    direct: Number(flag('direct', '5')),
    remoteNice: Number(flag('remote-nice', '0')),
    seconds: Number(flag('seconds', '20')),
    keyMs: Number(flag('key-ms', '200')),
    probeMs: Number(flag('probe-ms', '50')),
  };
  const runs = Number(flag('runs', '1'));
  const before = args.includes('--before') ? path.resolve(flag('before', '')) : undefined;
  const sshd = await startSshd();
  // --remote-nice N: the hosts' side (sshd, its shells and `cat`s, the streaming clients) at nice N, as if on other
  // machines: on this 2-core box they otherwise take most of the CPU a bastion's own host would give it.
  if (o.remoteNice > 0) for (const pid of execFileSync('pgrep', ['-f', `sshd -D -e -f`], { encoding: 'utf8' }).trim().split('\n')) os.setPriority(Number(pid), o.remoteNice);
  const file = buildPayload(Number(flag('mb', '20')));
  const env = {
    JUMPGATE_SESSION_LIVE_MAX: '1000',
    JUMPGATE_SESSION_CREATE_PER_MINUTE: '100000',
    // BENCH_CPU_PROF=<folder> (inherited): the preload also writes a CPU profile of each server's window there.
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${pathToFileURL(path.join(root, 'scripts/bench/loop-delay.mjs')).href}`,
    BENCH_LOOP_DIR: loopDir,
  };
  const also = args.includes('--also')
    ? flag('also', '')
        .split(',')
        .map((kv) => kv.split('=') as [string, string])
        .map(([name, dir]): [string, string] => [name, path.resolve(dir)])
    : [];
  const sides: [string, string][] = [...(before ? [['before', before] as [string, string]] : []), ...also, ['this', root]];
  const results = new Map<string, RunResult[]>(sides.map(([name]) => [name, []]));
  try {
    console.log(`${o.streamers} streaming + ${o.typists} typing sessions (a key every ${o.keyMs} ms), probes every ${o.probeMs} ms, ${o.seconds} s, ${runs} run(s)`);
    for (let i = 0; i < runs; i++) {
      for (const [name, checkout] of sides) {
        const server = await startBenchServer(PASSWORD, env, checkout);
        let r: RunResult;
        try {
          r = await run(server, sshd, file, o);
        } finally {
          await server.stop();
        }
        (results.get(name) as RunResult[]).push(r);
        console.log(`  ${name} run ${i + 1}: ${summary(r)}`);
      }
    }
    const rows: [string, string][] = [];
    const all = (name: string, pick: (r: RunResult) => number[]) => (results.get(name) ?? []).flatMap(pick).sort((a, b) => a - b);
    const rate = (name: string) => {
      const rs = results.get(name) ?? [];
      return rs.reduce((sum, r) => sum + r.streamed.reduce((a, b) => a + b, 0) / r.seconds, 0) / rs.length / 1e6;
    };
    for (const [name] of sides) {
      const echo = all(name, (r) => r.echo);
      const branding = all(name, (r) => r.branding);
      const assets = all(name, (r) => r.assets);
      const per = all(name, (r) => r.streamed.map((b) => b / r.seconds / 1e6));
      const ms = (x: number) => x.toFixed(1);
      const directEcho = all(name, (r) => r.directEcho);
      const trivial = all(name, (r) => r.trivial);
      rows.push(
        [`${name}: echo p50 / p99 / max (ms, ${echo.length} keys; goal p99 ≤ 50)`, `${ms(percentile(echo, 50))} / ${ms(percentile(echo, 99))} / ${ms(echo.at(-1) ?? 0)}`],
        [`${name}: floor: echo straight to sshd p50 / p99 (ms, ${directEcho.length} keys)`, directEcho.length ? `${ms(percentile(directEcho, 50))} / ${ms(percentile(directEcho, 99))}` : '-'],
        [`${name}: floor: trivial HTTP server p50 / p99 (ms)`, `${ms(percentile(trivial, 50))} / ${ms(percentile(trivial, 99))}`],
        [`${name}: GET /branding p50 / p99 (ms; goal p99 ≤ 100)`, `${ms(percentile(branding, 50))} / ${ms(percentile(branding, 99))}`],
        [`${name}: GET /assets p50 / p99 (ms; goal p99 ≤ 100)`, `${ms(percentile(assets, 50))} / ${ms(percentile(assets, 99))}`],
        [`${name}: streaming total (MB/s)`, rate(name).toFixed(1)],
        [`${name}: per streaming session min / median / max (MB/s)`, per.length ? `${per[0]?.toFixed(2)} / ${percentile(per, 50).toFixed(2)} / ${per.at(-1)?.toFixed(2)}` : '-'],
        [`${name}: server CPU (% of a core)`, ((results.get(name) ?? []).reduce((a, r) => a + r.serverCpu, 0) / runs).toFixed(0)],
        [`${name}: server event-loop delay p99 / max, worst run (ms)`, loopRow(results.get(name) ?? [])],
      );
    }
    if (before) for (const [name] of sides.slice(1)) rows.push([`${name} / before: streaming total (goal ≥ 0.8)`, (rate(name) / rate('before')).toFixed(3)]);
    const width = Math.max(...rows.map((r) => r[0].length));
    console.log('');
    for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`);
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
    fs.rmSync(loopDir, { recursive: true, force: true });
    await sshd.stop();
  }
}

function loopRow(rs: RunResult[]): string {
  const loops = rs.flatMap((r) => (r.loop ? [r.loop] : []));
  if (loops.length === 0) return '-';
  return `${Math.max(...loops.map((l) => l.p99)).toFixed(1)} / ${Math.max(...loops.map((l) => l.max)).toFixed(1)}`;
}

function summary(r: RunResult): string {
  const s = (xs: number[]) => [...xs].sort((a, b) => a - b);
  const total = r.streamed.reduce((a, b) => a + b, 0) / r.seconds / 1e6;
  const floors = `floors: direct echo p99 ${r.directEcho.length ? percentile(s(r.directEcho), 99).toFixed(1) : '-'} ms, trivial HTTP p99 ${percentile(s(r.trivial), 99).toFixed(1)} ms`;
  return `echo p99 ${percentile(s(r.echo), 99).toFixed(1)} ms, /branding p99 ${percentile(s(r.branding), 99).toFixed(1)} ms, /assets p99 ${percentile(s(r.assets), 99).toFixed(1)} ms, streaming ${total.toFixed(1)} MB/s, server CPU ${r.serverCpu.toFixed(0)} %${r.loop ? `, loop delay p99 ${r.loop.p99.toFixed(1)} max ${r.loop.max.toFixed(1)} ms, loop utilization ${(r.loop.utilization * 100).toFixed(0)} %` : ''}; ${floors}`;
}

if (args.includes('--streamers-child')) await streamersChild();
else await bench();
