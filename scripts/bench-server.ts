
import fs from 'node:fs';
import { percentile, startBenchServer } from './bench/server.ts';

const LOGINS = 50;

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

const started = performance.now();
const server = await startBenchServer('bench-password');
const { base, child } = server;
const startMs = performance.now() - started;

await new Promise((r) => setTimeout(r, 2000)); // let start-up garbage settle
const idle = treeRss(child.pid!);

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
console.log(`idle RSS after start: server process ${idle.largest.toFixed(1)} MB (tsx wrapper + server: ${idle.total.toFixed(1)} MB)`);
console.log(`login latency over ${LOGINS} logins: p50 ${pct(times, 50).toFixed(1)} ms, p99 ${pct(times, 99).toFixed(1)} ms`);

await server.stop();
