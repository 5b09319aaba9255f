/**
 * The terminal relay against its physical limits (docs/shared terminal-limits.md), in one run on loopback:
 *  (a) throughput of `cat` of a large realistic file through our WebSocket relay to a Node `ws` client, vs ssh2's own
 *      PTY shell stream (goal ≥ 0.9×);
 *  (b) keystroke echo latency, relay vs direct ssh2 (`stty raw -echo; exec cat`; goal ≤ +1 ms p50, ≤ +3 ms p99);
 *  (c) the recording's cost on throughput (a second server with the recording switched off; goal < 5 %);
 *  (d) RSS and CPU of the server process with 50 and 200 concurrent idle sessions.
 * It starts its own sshd (tests/server/sshd.ts, needs root), two servers (`--serve`, in child processes) and data
 * folders, and removes them at the end.
 *
 * Run: npm run bench:terminal [-- --mb 100 --runs 5 --keys 200 --idle 50,200 --browser-runs 3 | --no-browser]
 *   (the browser part needs the console built: `npx vite build`; BENCH_CPU_PROF=<folder>: V8 profiles)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ssh2, { type ClientChannel } from 'ssh2';
import WebSocket from 'ws';
import { startSshd, type TestSshd } from '../tests/server/sshd.ts';
import { api } from './bench/api.ts';
import { flag } from './bench/args.ts';
import { cpuSeconds } from './bench/proc.ts';
import { buildPayload } from './bench/payload.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const PASSWORD = 'bench-password-1';
const SENTINEL_READY = '__TP_READY__';
const SENTINEL_DONE = '__TP_DONE__';


interface Server {
  child: ChildProcess;
  base: string;
  token: string;
  assetId: string;
  dataDir: string;
}

async function startServer(sshd: TestSshd, record: boolean): Promise<Server> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'jumpgate-bench-term-'));
  // node --import tsx: the spawned pid is the server itself (its RSS and CPU are what (d) reads).
  // BENCH_CPU_PROF=<folder>: each server writes a V8 CPU profile there when it stops (to find the relay's hot spots).
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', 'scripts/bench-terminal.ts', '--serve', '--data', dataDir, ...(record ? [] : ['--no-record'])], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const base = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1] as string);
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
  const login = await api(base, '', 'POST', '/login', { username: 'admin', password: PASSWORD });
  const token = (login as { token: string }).token;
  const asset = await api(base, token, 'POST', '/assets', {
    name: 'bench',
    protocol: 'ssh',
    ip: sshd.host,
    port: sshd.port,
    accountType: 'private-key',
    username: sshd.username,
    privateKey: sshd.privateKey,
  });
  return { child, base, token, assetId: (asset as { id: string }).id, dataDir };
}

async function stopServer(s: Server): Promise<void> {
  if (s.child.exitCode === null) {
    const exited = new Promise((r) => s.child.once('exit', r));
    s.child.kill('SIGTERM');
    await exited;
  }
  fs.rmSync(s.dataDir, { recursive: true, force: true });
}

/** A terminal on one of the two paths: our relay (ws) or ssh2 directly. Output arrives as text through `onText`. */
interface Term {
  write(keys: string): void;
  onText: (text: string) => void;
  close(): void;
}

async function relayTerm(s: Server): Promise<Term> {
  const { id } = (await api(s.base, s.token, 'POST', `/sessions?assetId=${s.assetId}&mode=native`)) as { id: string };
  const ws = new WebSocket(`${s.base.replace(/^http/, 'ws')}/sessions/${id}/ssh?cols=120&rows=40&X-Auth-Token=${s.token}`, { perMessageDeflate: false });
  const term: Term = { write: (keys) => ws.send(`2${keys}`), onText: () => {}, close: () => ws.close() };
  await new Promise<void>((resolve, reject) => {
    ws.on('message', (data: Buffer) => {
      const text = data.toString('utf8');
      if (text === '1') resolve();
      else if (text[0] === '2') term.onText(text.slice(1));
      else if (text[0] === '0') reject(new Error(`closed: ${text.slice(1)}`));
    });
    ws.once('error', reject);
  });
  await api(s.base, s.token, 'POST', `/sessions/${id}/connect`);
  return term;
}

async function directTerm(sshd: TestSshd): Promise<Term> {
  const client = new ssh2.Client();
  await new Promise<void>((resolve, reject) => {
    client.once('ready', () => resolve());
    client.once('error', reject);
    client.connect({ host: sshd.host, port: sshd.port, username: sshd.username, privateKey: sshd.privateKey });
  });
  const stream = await new Promise<ClientChannel>((resolve, reject) => client.shell({ term: 'xterm-256color', cols: 120, rows: 40 }, (err, s) => (err ? reject(err) : resolve(s))));
  const term: Term = { write: (keys) => stream.write(keys), onText: () => {}, close: () => client.end() };
  stream.setEncoding('utf8');
  stream.on('data', (text: string) => term.onText(text));
  return term;
}

/** Resolves when `sentinel` has gone by (it may span chunks); counts the characters until then. */
function waitFor(term: Term, sentinel: string): Promise<number> {
  return new Promise((resolve) => {
    let tail = '';
    let count = 0;
    term.onText = (text) => {
      count += text.length;
      const seen = tail + text;
      if (seen.includes(sentinel)) {
        term.onText = () => {};
        resolve(count);
      } else tail = seen.slice(-sentinel.length);
    };
  });
}

/**
 * MB/s of `cat file` from the command to the sentinel after it (a fresh connection each time), and the CPU seconds
 * per MB that process `pid` (the server; without it, this process: the direct ssh2 client) spent meanwhile: on a
 * loaded machine the wall-clock rate is noisy, the CPU cost per MB much less.
 */
async function throughput(open: () => Promise<Term>, file: string, pid?: number): Promise<{ rate: number; cpuPerMb: number }> {
  const term = await open();
  const ready = waitFor(term, SENTINEL_READY);
  term.write(`stty -echo; printf '__TP_%s__\\n' READY\r`);
  await ready;
  const done = waitFor(term, SENTINEL_DONE);
  const cpu0 = pid ? cpuSeconds(pid) : selfCpuSeconds();
  const t0 = performance.now();
  term.write(`cat ${file}; printf '__TP_%s__\\n' DONE\r`);
  const chars = await done;
  const seconds = (performance.now() - t0) / 1000;
  const cpu = (pid ? cpuSeconds(pid) : selfCpuSeconds()) - cpu0;
  term.close();
  return { rate: chars / 1e6 / seconds, cpuPerMb: cpu / (chars / 1e6) };
}


const selfCpuSeconds = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};


/** Echo latencies (ms) of `keys` single keys, each after the previous echo plus a random 10–60 ms gap. */
async function echoLatency(open: () => Promise<Term>, keys: number): Promise<number[]> {
  const term = await open();
  const ready = waitFor(term, SENTINEL_READY);
  term.write(`stty raw -echo; printf '__TP_%s__' READY; exec cat\r`);
  await ready;
  const times: number[] = [];
  for (let i = 0; i < keys; i++) {
    const key = String.fromCharCode(97 + (i % 26));
    const echoed = new Promise<void>((resolve) => {
      term.onText = (text) => {
        if (text.includes(key)) resolve();
      };
    });
    const t0 = performance.now();
    term.write(key);
    await echoed;
    times.push(performance.now() - t0);
    await sleep(10 + Math.random() * 50);
  }
  term.close();
  return times;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => quantile(xs, 0.5);
function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] as number;
}

/** RSS (MB) and CPU % of a process over `seconds`, from /proc. */
async function usage(pid: number, seconds: number): Promise<{ rssMb: number; cpu: number }> {
  const before = cpuSeconds(pid);
  await sleep(seconds * 1000);
  const cpu = ((cpuSeconds(pid) - before) / seconds) * 100;
  const rss = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return { rssMb: Number(rss?.[1]) / 1024, cpu };
}

async function bench(): Promise<void> {
  const mb = Number(flag('mb', '100'));
  const runs = Number(flag('runs', '5'));
  const keys = Number(flag('keys', '200'));
  const idle = flag('idle', '50,200')
    .split(',')
    .map(Number)
    .filter((n) => n > 0);
  const sshd = await startSshd();
  const file = buildPayload(mb);
  const size = fs.statSync(file).size;
  const servers: Server[] = [];
  try {
    const recorded = await startServer(sshd, true);
    servers.push(recorded);
    const unrecorded = await startServer(sshd, false);
    servers.push(unrecorded);
    console.log(`payload ${(size / 1e6).toFixed(1)} MB (${file}), ${runs} runs each, median (min–max)`);

    // (a) and (c): alternate the three paths in each run, so that the machine's noise falls on all alike.
    const results = { direct: [] as number[], directCpu: [] as number[], relay: [] as number[], norec: [] as number[], relayCpu: [] as number[], norecCpu: [] as number[] };
    for (let i = 0; i < runs; i++) {
      const direct = await throughput(() => directTerm(sshd), file);
      results.direct.push(direct.rate);
      results.directCpu.push(direct.cpuPerMb * 1000);
      const on = await throughput(() => relayTerm(recorded), file, recorded.child.pid);
      results.relay.push(on.rate);
      results.relayCpu.push(on.cpuPerMb * 1000);
      const off = await throughput(() => relayTerm(unrecorded), file, unrecorded.child.pid);
      results.norec.push(off.rate);
      results.norecCpu.push(off.cpuPerMb * 1000);
    }
    const fmt = (xs: number[]) => `${median(xs).toFixed(1)} (${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)})`;
    const rows: [string, string][] = [
      ['ssh2 PTY shell, direct (MB/s)', fmt(results.direct)],
      ['relay → ws client, recording on (MB/s)', fmt(results.relay)],
      ['relay → ws client, recording off (MB/s)', fmt(results.norec)],
      ['(a) relay / direct (goal ≥ 0.9)', (median(results.relay) / median(results.direct)).toFixed(3)],
      ['(c) recording overhead on throughput (goal < 5 %)', `${((1 - median(results.relay) / median(results.norec)) * 100).toFixed(1)} %`],
      ['direct ssh2 client CPU per MB (ms; the SSH part of the relay)', fmt(results.directCpu)],
      ['server CPU per MB relayed, recording on (ms)', fmt(results.relayCpu)],
      ['server CPU per MB relayed, recording off (ms)', fmt(results.norecCpu)],
      ['(c) recording overhead on server CPU', `${((median(results.relayCpu) / median(results.norecCpu) - 1) * 100).toFixed(1)} %`],
      ['server CPU at the PTY rate of the direct run (% of a core)', `${((median(results.relayCpu) / 1000) * median(results.direct) * 100).toFixed(1)} %`],
    ];

    // End to end into xterm.js in Chromium vs xterm.js parsing the same bytes locally (scripts/bench/terminal-browser.ts).
    if (!args.includes('--no-browser')) {
      const { browserRows } = await import('./bench/terminal-browser.ts');
      rows.push(...(await browserRows({ base: recorded.base, username: 'admin', password: PASSWORD, assetId: recorded.assetId }, file, Number(flag('browser-runs', '3')))));
    }

    // (b)
    const direct = await echoLatency(() => directTerm(sshd), keys);
    const relay = await echoLatency(() => relayTerm(recorded), keys);
    const ms = (x: number) => x.toFixed(3);
    rows.push(
      [`echo p50 / p99, direct ssh2 (ms, ${keys} keys)`, `${ms(quantile(direct, 0.5))} / ${ms(quantile(direct, 0.99))}`],
      ['echo p50 / p99, relay (ms)', `${ms(quantile(relay, 0.5))} / ${ms(quantile(relay, 0.99))}`],
      ['(b) added p50 / p99 (goal ≤ 1 / ≤ 3 ms)', `${ms(quantile(relay, 0.5) - quantile(direct, 0.5))} / ${ms(quantile(relay, 0.99) - quantile(direct, 0.99))}`],
    );

    // (d) on a fresh server, so that the heap grown by the throughput runs does not count.
    for (const s of servers.splice(0)) await stopServer(s);
    const fresh = await startServer(sshd, true);
    servers.push(fresh);
    const pid = fresh.child.pid as number;
    await sleep(2000);
    const base = await usage(pid, 5);
    rows.push(['server idle, no session: RSS MB / CPU %', `${base.rssMb.toFixed(1)} / ${base.cpu.toFixed(2)}`]);
    const open: Term[] = [];
    for (const n of idle) {
      while (open.length < n) {
        const batch = Math.min(10, n - open.length);
        open.push(...(await Promise.all(Array.from({ length: batch }, () => relayTerm(fresh)))));
      }
      await sleep(2000);
      const u = await usage(pid, 10);
      rows.push([`(d) ${n} idle sessions: RSS MB / CPU %`, `${u.rssMb.toFixed(1)} / ${u.cpu.toFixed(2)}`]);
    }
    for (const t of open) t.close();

    const width = Math.max(...rows.map((r) => r[0].length));
    console.log('');
    for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`);
  } finally {
    for (const s of servers) await stopServer(s);
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
    await sshd.stop();
  }
}

// Child mode: one server, the recording on or off. Started as main.ts starts it (flags and environment), with the
// sessions module built here: `--no-record` gives it a recorder that records nothing (the product always records).
if (args.includes('--serve')) {
  const { loadConfig } = await import('../server/config.ts');
  const { openStore } = await import('../server/db/index.ts');
  const { seed } = await import('../server/seed.ts');
  const { loadCatalogue } = await import('../server/permissions/catalogue.ts');
  const { buildApp } = await import('../server/app.ts');
  const { modules } = await import('../server/modules/index.ts');
  const { sessionsModule } = await import('../server/modules/sessions/index.ts');
  // (d) opens 200 sessions as one account within seconds: past the per-account caps (sessions/caps.ts), lifted here.
  const env = {
    ...process.env,
    JUMPGATE_ADMIN_PASSWORD: PASSWORD,
    JUMPGATE_SESSION_LIVE_MAX: '1000',
    JUMPGATE_SESSION_CREATE_PER_MINUTE: '100000',
  };
  const config = loadConfig(['--addr', '127.0.0.1:0', '--data', flag('data', '')], env);
  const { db, box } = await openStore(config);
  const catalogue = await loadCatalogue();
  await seed(db, { catalogue, adminPassword: config.adminPassword, now: Date.now() });
  const sessions = args.includes('--no-record') ? sessionsModule({ recorder: { start: () => undefined } }) : sessionsModule();
  const app = await buildApp({ config, db, box, catalogue, logger: { level: 'warn' }, modules: modules.map((m) => (m.name === 'sessions' ? sessions : m)) });
  await app.listen({ host: config.host, port: config.port });
  const addr = app.server.address();
  console.log(`Jumpgate listening on http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : ''} (data: ${config.dataDir})`);
} else {
  await bench();
}
