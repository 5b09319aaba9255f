/**
 * The dashboard and the login log at scale (docs/PERFORMANCE.md "Overview"): the real app on 127.0.0.1:0 with a
 * fresh temporary data folder, seeded straight into the database:
 *   1 000 000 login-log rows over the last 359 days (the default retention keeps them all; one in ten failed),
 *   2 000 users, 5 000 assets, 100 000 sessions over the same days (95 % disconnected), 300 live login tokens.
 * Then p50/p99 over loopback HTTP, one request at a time: /overview/date-counter (month, week), /overview/counter,
 * /overview/asset, /login-logs/paging (first page, filtered, a deep page).
 * Run: npm run bench:overview   (BENCH_REQUESTS to change the count)
 */
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { buildApp } from '../server/app.ts';
import { sha256, uuid } from '../server/lib/ids.ts';
import { formatDate } from '../server/lib/time.ts';
import { SUPER_ADMIN_ID } from '../server/permissions/effective.ts';
import { sessionRow } from '../tests/server/overview/rows.ts';
import { benchStore, seededRandom } from './bench/store.ts';

const LOGIN_LOGS = Number(process.env.BENCH_LOGIN_LOGS ?? 1_000_000);
const SESSIONS = 100_000;
const USERS = 2_000;
const ASSETS = 5_000;
const LIVE_TOKENS = 300;
const DAYS = 359;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const WARM_UP = 20;
const DAY = 86_400_000;
const BATCH = 500;

/** The same data every run. */
const rand = seededRandom(4242);

const now = Date.now();
const { dataDir, config, db, box, catalogue } = await benchStore('overview', now);

const seedStarted = performance.now();
const userIds: string[] = [];
const assetIds: string[] = [];
const when = () => now - rand(DAYS * DAY);
await db.transaction().execute(async (trx) => {
  const password = '$2b$10$benchbenchbenchbenchbu0000000000000000000000000000000'; // nobody logs in with it
  for (let start = 0; start < USERS; start += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, USERS - start) }, (_, k) => start + k).map((i) => {
      const username = `user-${String(i).padStart(4, '0')}`;
      return { id: uuid(), username, usernameKey: username, password, nickname: username, totpSecret: '-', online: 0, status: 'enabled' as const, type: 'user' as const, mail: '', source: '', created: now };
    });
    userIds.push(...batch.map((u) => u.id));
    await trx.insertInto('users').values(batch).execute();
  }
  const protocols = ['ssh', 'ssh', 'ssh', 'rdp', 'vnc', 'telnet', 'kubernetes'] as const;
  for (let start = 0; start < ASSETS; start += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, ASSETS - start) }, (_, k) => start + k).map((i) => ({
      id: uuid(),
      name: `host-${i}`,
      protocol: protocols[i % protocols.length]!,
      ip: `10.0.${(i >> 8) & 255}.${i & 255}`,
      port: 22,
      accountType: 'custom' as const,
      username: 'root',
      password: null,
      privateKey: null,
      passphrase: null,
      credentialId: null,
      accessGatewayId: null,
      description: '',
      active: i % 4 ? 1 : 0,
      activeMessage: '',
      created: now,
      lastAccessTime: null,
      owner: SUPER_ADMIN_ID,
    }));
    assetIds.push(...batch.map((a) => a.id));
    await trx.insertInto('assets').values(batch).execute();
  }
  for (let start = 0; start < LOGIN_LOGS; start += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, LOGIN_LOGS - start) }, () => {
      const failed = rand(10) === 0;
      return {
        id: uuid(),
        username: `user-${String(rand(USERS)).padStart(4, '0')}`,
        clientIp: `192.168.${rand(256)}.${rand(256)}`,
        clientUserAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
        loginTime: when(),
        logoutTime: null,
        remember: 0,
        state: failed ? ('0' as const) : ('1' as const),
        reason: failed ? '账号或密码不正确' : '',
      };
    });
    await trx.insertInto('loginLogs').values(batch).execute();
  }
  for (let start = 0; start < SESSIONS; start += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, SESSIONS - start) }, (_, k) => {
      const t = when();
      const live = (start + k) % 20 === 0;
      return sessionRow({
        assetId: assetIds[rand(ASSETS)]!,
        creator: userIds[rand(USERS)]!,
        clientIp: '192.168.0.1',
        status: live ? 'connected' : 'disconnected',
        created: t,
        connectedTime: t,
        disconnectedTime: live ? null : t + 60_000,
      });
    });
    await trx.insertInto('sessions').values(batch).execute();
  }
  for (let i = 0; i < LIVE_TOKENS; i++) {
    await trx
      .insertInto('tokens')
      .values({ id: sha256(uuid()), userId: userIds[rand(USERS)]!, loginLogId: uuid(), remember: 0, created: now, expiresAt: now + 3_600_000, refreshedAt: now })
      .execute();
  }
});
const seedMs = performance.now() - seedStarted;

const app = await buildApp({ config, db, box, catalogue });
await app.listen({ host: '127.0.0.1', port: 0 });
const { port } = app.server.address() as { port: number };
const base = `http://127.0.0.1:${port}`;
const token = `forever-${uuid()}`;
await db.insertInto('accessToken').values({ id: uuid(), userId: SUPER_ADMIN_ID, tokenHash: sha256(token), hint: 'forever-…', shown: null, created: now }).execute();

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
async function latency(title: string, route: string, query: Record<string, string> = {}) {
  const url = `${base}${route}?${new URLSearchParams(query)}`;
  let size = 0;
  const times: number[] = [];
  for (let i = 0; i < WARM_UP + REQUESTS; i++) {
    const started = performance.now();
    const res = (await (await fetch(url, { headers: { 'x-auth-token': token } })).json()) as { code: number; data: unknown };
    const ms = performance.now() - started;
    if (res.code !== 1) throw new Error(`${title}: ${JSON.stringify(res).slice(0, 300)}`);
    size = Array.isArray(res.data) ? res.data.length : ((res.data as { total?: number }).total ?? 0);
    if (i >= WARM_UP) times.push(ms);
  }
  times.sort((a, b) => a - b);
  return { title, query: new URLSearchParams(query).toString(), size, p50: pct(times, 50), p99: pct(times, 99) };
}

const paging = { pageIndex: '1', pageSize: '10' };
const dayAgo = (d: number) => formatDate(now - d * DAY);
const results = [
  await latency('date-counter, month', '/overview/date-counter', { d: 'month' }),
  await latency('date-counter, week', '/overview/date-counter', { d: 'week' }),
  await latency('counter', '/overview/counter'),
  await latency('asset', '/overview/asset'),
  await latency('login log, first page', '/login-logs/paging', paging),
  await latency('login log, failed only', '/login-logs/paging', { ...paging, state: '0' }),
  await latency('login log, one day', '/login-logs/paging', { ...paging, from: dayAgo(2), to: dayAgo(1) }),
  await latency('login log, by username', '/login-logs/paging', { ...paging, username: 'user-0042' }),
  await latency('login log, by username, failed', '/login-logs/paging', { ...paging, username: 'user-0042', state: '0' }),
  await latency('login log, by address', '/login-logs/paging', { ...paging, clientIp: '192.168.7.' }),
  await latency('login log, page 1000', '/login-logs/paging', { ...paging, pageIndex: '1000' }),
];

console.log(`\n${LOGIN_LOGS} login-log rows, ${SESSIONS} sessions, ${USERS} users, ${ASSETS} assets (seeded in ${(seedMs / 1000).toFixed(1)} s); ${REQUESTS} requests per line, one at a time, ${base}\n`);
console.log('| request | query | rows / total | p50 | p99 |');
console.log('|---|---|---:|---:|---:|');
for (const r of results) console.log(`| ${r.title} | \`${r.query || '—'}\` | ${r.size} | ${r.p50.toFixed(1)} ms | ${r.p99.toFixed(1)} ms |`);

await app.close();
await db.destroy();
fs.rmSync(dataDir, { recursive: true, force: true });
