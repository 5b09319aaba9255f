/**
 * Does a flood of terminal resize frames stall the rest of the API (issue 28 rule 5)? Starts its own sshd
 * (tests/server/sshd.ts, needs root) and the real CLI (`tsx server/main.ts`) on a fresh data folder, opens one terminal
 * session, then measures GET /branding latency (p50/p99) with no other load, and again while the session's socket
 * sends bursts of 20 000 resize frames (alternating sizes, the last one another), a new burst as soon as the previous
 * one was read and its last size stored (the flooding socket lives in a child process, so that its own sending is not
 * measured as the server's latency), in one run, on loopback only. Goal: p99 during the flood ≤ 3 × idle p99.
 * Before the coalescing, every frame was a row write: 20 000 frames pushed /branding to 2 s.
 *
 * Run: npm run bench:resize-flood   (BENCH_SECONDS=6 per phase by default)
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { startSshd } from '../tests/server/sshd.ts';
import { api } from './bench/api.ts';
import { percentile, startBenchServer } from './bench/server.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const FRAMES = 20_000;
const frame = (cols: number, rows: number) => `3${Buffer.from(JSON.stringify({ cols, rows })).toString('base64')}`;

/**
 * `--flood <base> <token> <sessionId>`: the flooding side, in a child process (sending 20 000 frames blocks its event
 * loop for a while; in the probing process that would be measured as the server's latency). Attaches to the session,
 * sends bursts until its stdin closes, then prints how many bursts were read and stored.
 */
async function floodChild(base: string, token: string, id: string): Promise<void> {
  const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/sessions/${id}/ssh?cols=120&rows=40&X-Auth-Token=${token}`, { perMessageDeflate: false });
  let pongs = 0;
  await new Promise<void>((resolve, reject) => {
    ws.on('message', (data: Buffer) => {
      const text = data.toString('utf8');
      if (text === '1') resolve();
      else if (text === '4') pongs++;
      else if (text[0] === '0') reject(new Error(`closed: ${text.slice(1)}`));
    });
    ws.once('error', reject);
  });
  await api(base, token, 'POST', `/sessions/${id}/connect`);
  let running = true;
  process.stdin.on('end', () => {
    running = false;
  });
  process.stdin.resume();
  process.stdout.write('ready\n');
  let bursts = 0;
  for (let n = 0; running; n++) {
    const last = 60 + (n % 2);
    for (let i = 0; i < FRAMES - 1; i++) ws.send(i % 2 === 0 ? frame(100, 30) : frame(101, 31));
    ws.send(frame(last, 20));
    const want = pongs + 1;
    ws.send('4');
    while (pongs < want) await new Promise((r) => setTimeout(r, 5));
    while ((await api<{ width: number }>(base, token, 'GET', `/sessions/${id}`)).width !== last) await new Promise((r) => setTimeout(r, 20));
    bursts++;
  }
  process.stdout.write(`bursts ${bursts}\n`);
  ws.close();
  process.exit(0);
}

if (process.argv[2] === '--flood') {
  const [base, token, id] = process.argv.slice(3) as [string, string, string];
  await floodChild(base, token, id);
}

const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
/** Sequential probe loops (each sends its next request when the previous one answered). */
const PROBES = 2;
const PASSWORD = 'bench-password-1';
const sshd = await startSshd();

const server = await startBenchServer(PASSWORD);
const { base } = server;

const { token } = await api<{ token: string }>(base, '', 'POST', '/login', { username: 'admin', password: PASSWORD });
const asset = await api<{ id: string }>(base, token, 'POST', '/assets', {
  name: 'bench',
  protocol: 'ssh',
  ip: sshd.host,
  port: sshd.port,
  accountType: 'private-key',
  username: sshd.username,
  privateKey: sshd.privateKey,
});
const { id } = await api<{ id: string }>(base, token, 'POST', `/sessions?assetId=${asset.id}&mode=native`);

const pct = percentile;

/** PROBES sequential loops on GET /branding for `ms`; sorted latencies. */
async function probe(ms: number): Promise<number[]> {
  const end = performance.now() + ms;
  const out: number[] = [];
  const loop = async () => {
    while (performance.now() < end) {
      const t = performance.now();
      const res = await fetch(`${base}/branding`);
      const body = (await res.json()) as { code: number };
      if (body.code !== 1) throw new Error(`GET /branding: code ${body.code}`);
      out.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: PROBES }, loop));
  return out.sort((a, b) => a - b);
}

/** The flooding child (`--flood`): resolves once it is attached; `stop()` resolves with its burst count. */
async function flood() {
  const flooder = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench-resize-flood.ts', '--flood', base, token, id], { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  flooder.stdout.on('data', (chunk: Buffer) => {
    out += chunk;
  });
  const exited = new Promise((r) => flooder.once('exit', r));
  while (!out.includes('ready')) {
    if (flooder.exitCode !== null) throw new Error(`the flooder exited: ${out}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return {
    stop: async () => {
      flooder.stdin.end();
      await exited;
      return Number(/bursts (\d+)/.exec(out)?.[1] ?? 0);
    },
  };
}

await probe(1000); // warm-up: JIT, statement cache
const idle = await probe(SECONDS * 1000);
const f = await flood();
const flooded = await probe(SECONDS * 1000);
const bursts = await f.stop();

const fmt = (v: number[]) => `p50 ${pct(v, 50).toFixed(1)} ms  p99 ${pct(v, 99).toFixed(1)} ms  max ${(v.at(-1) ?? 0).toFixed(1)} ms  (${v.length} req)`;
console.log(`resize flood: bursts of ${FRAMES} resize frames on one terminal socket, ${PROBES} probe loops, ${SECONDS} s per phase, ${base}`);
console.log(`bursts read and stored during the flood phase: ${bursts} (${bursts * FRAMES} frames)`);
console.log(`GET /branding  idle: ${fmt(idle)}`);
console.log(`GET /branding flood: ${fmt(flooded)}`);
console.log(`p99 ratio flood/idle: ${(pct(flooded, 99) / pct(idle, 99)).toFixed(2)} (goal ≤ 3)`);

await server.stop();
await sshd.stop();
