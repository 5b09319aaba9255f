/**
 * Cost of authentication: GET /account/info with a valid token vs. a bare route answering the same JSON
 * without auth, on the real app over loopback. Run: npx tsx scripts/bench-auth.ts
 */
import fs from 'node:fs';
import autocannon from 'autocannon';
import { buildApp } from '../server/app.ts';
import { ok } from '../server/http/envelope.ts';
import { hashPassword } from '../server/lib/password.ts';
import { benchStore } from './bench/store.ts';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 10;

const { dataDir, config, db, box, catalogue } = await benchStore('auth');
const app = await buildApp({ config, db, box, catalogue });

let bare: unknown = null;
// Bench-only route: the same JSON as /account/info (serialized per request too), no auth, no DB.
app.get('/bench/bare', async (_req, reply) => reply.header('cache-control', 'no-store').send(bare));
await app.listen({ host: '127.0.0.1', port: 0 });
const { port } = app.server.address() as { port: number };
const base = `http://127.0.0.1:${port}`;

const login = (await (await fetch(`${base}/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'bench-password' }) })).json()) as {
  data: { token: string; info: unknown };
};
const token = login.data.token;
const infoRes = await (await fetch(`${base}/account/info`, { headers: { 'x-auth-token': token } })).text();
bare = ok((JSON.parse(infoRes) as { data: unknown }).data);
const bareRes = await (await fetch(`${base}/bench/bare`)).text();
if (bareRes !== infoRes) throw new Error('bare route body differs from /account/info');

async function run(title: string, url: string, headers: Record<string, string> = {}) {
  await autocannon({ url, connections: CONNECTIONS, duration: 2, headers }); // warm-up
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers });
  if (r.non2xx || r.errors) throw new Error(`${title}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  console.log(`${title.padEnd(28)} ${r.requests.average.toFixed(0).padStart(7)} req/s   p50 ${r.latency.p50} ms   p99 ${r.latency.p99} ms   (${r.requests.total} requests)`);
  return r;
}

// A role-based admin also reads roles and menu refs (the super admin holds every key without them).
await db.insertInto('users').values({ id: 'bench-auditor', username: 'auditor', usernameKey: 'auditor', password: await hashPassword('bench-password'), nickname: 'a', totpSecret: '-', online: 0, status: 'enabled', type: 'admin', mail: '', source: '', created: Date.now() }).execute();
await db.insertInto('usersRolesRef').values({ id: 'bench-ref', userId: 'bench-auditor', roleId: 'audit-administrator' }).execute();
const auditorToken = ((await (await fetch(`${base}/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'auditor', usernameKey: 'auditor', password: 'bench-password' }) })).json()) as { data: { token: string } }).data.token;

// Two interleaved rounds, best of each: the machine may be shared, and order effects are real on 2 cores.
console.log(`autocannon: ${CONNECTIONS} connections, ${DURATION} s per run, 2 interleaved rounds, ${base}`);
const best = { bare: 0, admin: 0, auditor: 0 };
for (let round = 1; round <= 2; round++) {
  best.bare = Math.max(best.bare, (await run('GET /bench/bare (no auth)', `${base}/bench/bare`)).requests.average);
  best.admin = Math.max(best.admin, (await run('GET /account/info (admin)', `${base}/account/info`, { 'x-auth-token': token })).requests.average);
  best.auditor = Math.max(best.auditor, (await run('GET /account/info (auditor)', `${base}/account/info`, { 'x-auth-token': auditorToken })).requests.average);
}
console.log(`ratio /account/info (admin) / bare, same JSON body: ${(best.admin / best.bare).toFixed(2)} (target >= 0.70)`);
console.log(`role-based auditor: ${best.auditor.toFixed(0)} req/s (its body is smaller and ASCII-only, so it is not compared with the bare route)`);

await app.close();
await db.destroy();
fs.rmSync(dataDir, { recursive: true, force: true });
