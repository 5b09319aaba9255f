/**
 * GET /users/paging on 10 000 users: the real app on 127.0.0.1:0, a fresh temporary data folder, autocannon over
 * loopback (10 connections, 10 s per URL after a 2 s warm-up). Run: npx tsx scripts/bench-users.ts
 */
import fs from 'node:fs';
import autocannon from 'autocannon';
import { buildApp } from '../server/app.ts';
import { seedUsers } from './seed-users.ts';
import { benchStore } from './bench/store.ts';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 10;
const USERS = Number(process.env.BENCH_USERS ?? 10_000);

const { dataDir, config, db, box, catalogue } = await benchStore('users');
const seedMs = await seedUsers(db, USERS);
const app = await buildApp({ config, db, box, catalogue });
await app.listen({ host: '127.0.0.1', port: 0 });
const { port } = app.server.address() as { port: number };
const base = `http://127.0.0.1:${port}`;

const login = (await (await fetch(`${base}/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'bench-password' }) })).json()) as {
  data: { token: string };
};
const headers = { 'x-auth-token': login.data.token };

async function run(title: string, query: string) {
  const url = `${base}/users/paging?${query}`;
  const probe = (await (await fetch(url, { headers })).json()) as { code: number; data: { total: number; items: unknown[] } };
  if (probe.code !== 1) throw new Error(`${title}: ${JSON.stringify(probe)}`);
  await autocannon({ url, connections: CONNECTIONS, duration: 2, headers }); // warm-up
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers });
  if (r.non2xx || r.errors) throw new Error(`${title}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  console.log(
    `${title.padEnd(34)} ${r.requests.average.toFixed(0).padStart(6)} req/s   p50 ${r.latency.p50} ms   p99 ${r.latency.p99} ms   (total ${probe.data.total}, ${probe.data.items.length} items)`,
  );
}

console.log(`seeded ${USERS} users in ${seedMs.toFixed(0)} ms; autocannon: ${CONNECTIONS} connections, ${DURATION} s per URL, ${base}`);
await run('first page, default sort', 'pageIndex=1&pageSize=10');
await run('filtered nickname=99', 'pageIndex=1&pageSize=10&nickname=99');
await run('page 500, sort username asc', 'pageIndex=500&pageSize=10&field=username&order=ascend');
await run('online=true, sort nickname', 'pageIndex=1&pageSize=10&online=true&field=nickname&order=descend');

await app.close();
await db.destroy();
fs.rmSync(dataDir, { recursive: true, force: true });
