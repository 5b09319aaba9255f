
import { percentile, startBenchServer } from './bench/server.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const FLOOD_CLIENTS = 40;
/** Sequential probe loops per measured route (each sends its next request when the previous one answered). */
const PROBES = 2;
const PASSWORD = 'bench-password';
const server = await startBenchServer(PASSWORD);
const { base } = server;

async function login(username = 'admin'): Promise<string> {
  const res = await fetch(`${base}/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password: PASSWORD }) });
  const body = (await res.json()) as { code: number; message: string; data?: { token: string } };
  if (body.code !== 1 || !body.data) throw new Error(`login failed: ${body.message}`);
  return body.data.token;
}

const token = await login();
// One account per flooding client: the lock-out counts attempts in flight per username (5), so 40 parallel logins
// as one user would mostly be refused without hashing — not the load this measures.
const floodUsers = Array.from({ length: FLOOD_CLIENTS }, (_, i) => `flood${i}`);
for (const username of floodUsers) {
  const res = await fetch(`${base}/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-auth-token': token },
    body: JSON.stringify({ username, password: PASSWORD, nickname: username, type: 'user', roles: [] }),
  });
  const body = (await res.json()) as { code: number; message: string };
  if (body.code !== 1) throw new Error(`creating ${username}: ${body.message}`);
}
const routes: { name: string; url: string; headers: Record<string, string> }[] = [
  { name: 'GET /branding', url: `${base}/branding`, headers: {} },
  { name: 'GET /account/info', url: `${base}/account/info`, headers: { 'x-auth-token': token } },
];

const pct = percentile;

/** Runs PROBES sequential loops per route for `ms`; returns sorted latencies per route. */
async function probe(ms: number): Promise<Map<string, number[]>> {
  const end = performance.now() + ms;
  const out = new Map(routes.map((r) => [r.name, [] as number[]]));
  const loop = async (r: (typeof routes)[number]) => {
    while (performance.now() < end) {
      const t = performance.now();
      const res = await fetch(r.url, { headers: r.headers });
      const body = (await res.json()) as { code: number };
      if (body.code !== 1) throw new Error(`${r.name}: code ${body.code}`);
      out.get(r.name)!.push(performance.now() - t);
    }
  };
  await Promise.all(routes.flatMap((r) => Array.from({ length: PROBES }, () => loop(r))));
  for (const v of out.values()) v.sort((a, b) => a - b);
  return out;
}

/** FLOOD_CLIENTS loops, one account each, logging in with the right password until `stop()`; counts logins. */
function flood() {
  let running = true;
  let logins = 0;
  const loops = floodUsers.map(async (username) => {
    while (running) {
      await login(username);
      logins++;
    }
  });
  return {
    stop: async () => {
      running = false;
      await Promise.all(loops);
      return logins;
    },
  };
}

await probe(1000); // warm-up: JIT, statement cache
const idle = await probe(SECONDS * 1000);
const f = flood();
await new Promise((r) => setTimeout(r, 500)); // let the flood build up
const t0 = performance.now();
const flooded = await probe(SECONDS * 1000);
const floodSeconds = (performance.now() - t0) / 1000;
const logins = await f.stop();

console.log(`login flood: ${FLOOD_CLIENTS} clients logging in, ${PROBES} probe loops per route, ${SECONDS} s per phase, ${base}`);
console.log(`logins completed during the flood: ${logins} (~${(logins / (floodSeconds + 0.5)).toFixed(1)}/s)`);
let worst = 0;
for (const r of routes) {
  const a = idle.get(r.name)!;
  const b = flooded.get(r.name)!;
  const ratio = pct(b, 99) / pct(a, 99);
  worst = Math.max(worst, ratio);
  const fmt = (v: number[]) => `p50 ${pct(v, 50).toFixed(1)} ms  p99 ${pct(v, 99).toFixed(1)} ms  (${v.length} req)`;
  console.log(`${r.name.padEnd(18)} idle: ${fmt(a)}   flood: ${fmt(b)}   p99 ratio ${ratio.toFixed(2)}`);
}
console.log(`worst p99 ratio flood/idle: ${worst.toFixed(2)} (goal ≤ 3)`);

await server.stop();
