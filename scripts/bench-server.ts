
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { percentile, startBenchServer } from './bench/server.ts';

const LOGINS = 50;
/** How long after start the idle figures are taken. */
const IDLE_MS = 8000;

/** RSS in MB of a process and its descendants (tsx runs the server in a child node process). */
function treeRss(pid: number): { total: number; largest: number } {
  let total = 0;
  let largest = 0;
  const walk = (p: number) => {
    const status = fs.readFileSync(`/proc/${p}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    total += kb;
    largest = Math.max(largest, kb);
    for (const task of fs.readdirSync(`/proc/${p}/task`)) {
      const children = fs.readFileSync(`/proc/${p}/task/${task}/children`, 'utf8').trim();
      for (const c of children ? children.split(/\s+/) : []) walk(Number(c));
    }
  };
  walk(pid);
  return { total: total / 1024, largest: largest / 1024 };
}

const pct = percentile;

/** The server's node process: tsx's launcher runs it as a child. */
function serverPid(launcher: number): number {
  for (const task of fs.readdirSync(`/proc/${launcher}/task`)) {
    for (const c of fs.readFileSync(`/proc/${launcher}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean)) {
      if (fs.readFileSync(`/proc/${c}/cmdline`, 'utf8').includes('server/main.ts')) return Number(c);
    }
  }
  throw new Error('the server process was not found under the tsx launcher');
}

interface GcReport {
  before: Record<'rss' | 'heapUsed' | 'heapTotal' | 'external', number>;
  after: Record<'rss' | 'heapUsed' | 'heapTotal' | 'external', number>;
}

/** Has the server collect its garbage (scripts/bench/gc-hook.mjs, on SIGUSR2) and returns its memory after. */
async function forcedGc(pid: number, dir: string): Promise<GcReport> {
  const file = path.join(dir, `${pid}.json`);
  process.kill(pid, 'SIGUSR2');
  const deadline = Date.now() + 10_000;
  while (!fs.existsSync(file)) {
    if (Date.now() > deadline) throw new Error('the server did not answer the GC request');
    await new Promise((r) => setTimeout(r, 50));
  }
  await new Promise((r) => setTimeout(r, 50)); // written in one call; let it land
  return JSON.parse(fs.readFileSync(file, 'utf8')) as GcReport;
}

// The GC hook is the benchmark's, loaded into the server through NODE_OPTIONS: nothing of it is in the product.
const gcDir = fs.mkdtempSync(path.join(os.tmpdir(), 'jumpgate-bench-gc-'));
const hook = fileURLToPath(new URL('./bench/gc-hook.mjs', import.meta.url));
const started = performance.now();
const server = await startBenchServer('bench-password', { BENCH_GC_DIR: gcDir, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${hook}`.trim() });
const { base, child } = server;
const startMs = performance.now() - started;

// Idle a while: the background start-up work (the first-screen render's worker) is done, and V8 has left its start-up
// sizing (a forced GC 3 s after start returned nothing to the system; 8 s after, ≈ 30 MB).
await new Promise((r) => setTimeout(r, IDLE_MS));
const idle = treeRss(child.pid!);
const pid = serverPid(child.pid!);
const gc = await forcedGc(pid, gcDir);
await new Promise((r) => setTimeout(r, 1000)); // the freed pages go back to the system a moment later
const collected = treeRss(child.pid!);
fs.rmSync(gcDir, { recursive: true, force: true });

const times: number[] = [];
for (let i = 0; i < LOGINS; i++) {
  const t = performance.now();
  const res = await fetch(`${base}/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'bench-password' }) });
  const body = (await res.json()) as { code: number };
  if (body.code !== 1) throw new Error(`login failed: ${JSON.stringify(body)}`);
  times.push(performance.now() - t);
}
times.sort((a, b) => a - b);

console.log(`start (spawn → "listening" printed, fresh data dir): ${startMs.toFixed(0)} ms`);
console.log(`idle RSS ${IDLE_MS / 1000} s after start: server process ${idle.largest.toFixed(1)} MB (tsx wrapper + server: ${idle.total.toFixed(1)} MB)`);
console.log(
  `after a forced GC: server process ${collected.largest.toFixed(1)} MB (tsx wrapper + server: ${collected.total.toFixed(1)} MB); ` +
    `its JS heap ${gc.before.heapUsed} → ${gc.after.heapUsed} MB used of ${gc.after.heapTotal} MB, external ${gc.after.external} MB (worker threads not included)`,
);
console.log(`login latency over ${LOGINS} logins: p50 ${pct(times, 50).toFixed(1)} ms, p99 ${pct(times, 99).toFixed(1)} ms`);

await server.stop();
