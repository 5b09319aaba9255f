/**
 * The portal's asset list at scale (docs/PERFORMANCE.md "Portal assets"): the real app on 127.0.0.1:0 with a fresh
 * temporary data folder, seeded straight into the database:
 *   100 000 assets (1–3 of 40 tags each), 2 000 users, 500 groups, 50 000 grants:
 *   - 20 "big" groups with 1 000 assets each, 480 groups with 62 each, 240 direct grants; one grant in ten has a
 *     window (half of them pending, half expired, so they must be filtered out);
 *   - user `member`: in 20 of the ordinary groups (+ direct grants) — the case;
 *   - user `heavy`: in the 20 big groups (≈ 20 000 assets open to it) — the worst case of this data.
 * Then GET /worker/assets/paging?pageSize=10 p50/p99 over loopback HTTP, one request at a time, for each user:
 * unfiltered, by name, by tag; and GET /worker/assets/tags. Goal: p99 well under 30 ms.
 * Run: npm run bench:worker-assets   (BENCH_REQUESTS to change the count)
 */
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { buildApp } from '../server/app.ts';
import { sha256, sign, uuid } from '../server/lib/ids.ts';
import { SUPER_ADMIN_ID } from '../server/permissions/effective.ts';
import { benchStore, seededRandom } from './bench/store.ts';

const ASSETS = 100_000;
const USERS = 2_000;
const BIG_GROUPS = 20;
const BIG_GROUP_GRANTS = 1_000;
const GROUPS = 500;
const SMALL_GROUP_GRANTS = 62;
const DIRECT_GRANTS = 240;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 300);
const WARM_UP = 30;
const HOUR = 3_600_000;
const TAGS = Array.from({ length: 40 }, (_, i) => `tag-${String(i).padStart(2, '0')}`);
const tagsOf = (i: number) => [...new Set([TAGS[i % 40]!, ...(i % 3 > 0 ? [TAGS[(i * 7) % 40]!] : []), ...(i % 3 > 1 ? [TAGS[(i * 13) % 40]!] : [])])];
const nameOf = (i: number) => `host-${String(i).padStart(6, '0')}`;

/** The same data every run. */
const rand = seededRandom(12345);
/** `count` distinct asset ids not yet granted to this subject. */
const pick = (count: number, taken: Set<number>) => {
  const out: number[] = [];
  while (out.length < count) {
    const i = rand(ASSETS);
    if (!taken.has(i)) {
      taken.add(i);
      out.push(i);
    }
  }
  return out;
};

const now = Date.now();
const { dataDir, config, db, box, catalogue } = await benchStore('worker', now);

const seedStarted = performance.now();
const assetIds: string[] = [];
const userIds: string[] = [];
const groupIds: string[] = [];
let grants = 0;
await db.transaction().execute(async (trx) => {
  const tagIds = new Map(TAGS.map((name) => [name, uuid()]));
  await trx
    .insertInto('tags')
    .values([...tagIds].map(([name, id]) => ({ id, name })))
    .execute();
  for (let start = 0; start < ASSETS; start += 500) {
    const batch = Array.from({ length: Math.min(500, ASSETS - start) }, (_, k) => start + k).map((i) => ({
      id: uuid(),
      name: nameOf(i),
      protocol: i % 5 === 0 ? ('rdp' as const) : ('ssh' as const),
      ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
      port: i % 5 === 0 ? 3389 : 22,
      accountType: 'custom' as const,
      username: 'root',
      password: null,
      privateKey: null,
      passphrase: null,
      credentialId: null,
      accessGatewayId: null,
      description: `seeded row ${i}`,
      active: 1,
      activeMessage: '',
      created: now + i,
      lastAccessTime: null,
      owner: SUPER_ADMIN_ID,
    }));
    assetIds.push(...batch.map((a) => a.id));
    await trx.insertInto('assets').values(batch).execute();
    await trx
      .insertInto('assetTags')
      .values(batch.flatMap((a, k) => tagsOf(start + k).map((t) => ({ assetId: a.id, tagId: tagIds.get(t)! }))))
      .execute();
  }
  const password = '$2b$10$benchbenchbenchbenchbu0000000000000000000000000000000'; // nobody logs in with a password here
  for (let start = 0; start < USERS; start += 500) {
    const batch = Array.from({ length: Math.min(500, USERS - start) }, (_, k) => start + k).map((i) => {
      const username = i === 0 ? 'member' : i === 1 ? 'heavy' : `user-${i}`;
      return { id: uuid(), username, usernameKey: username, password, nickname: username, totpSecret: '-', online: 0, status: 'enabled' as const, type: 'user' as const, mail: '', source: '', created: now };
    });
    userIds.push(...batch.map((u) => u.id));
    await trx.insertInto('users').values(batch).execute();
  }
  for (let g = 0; g < GROUPS; g++) groupIds.push(uuid());
  await trx
    .insertInto('userGroups')
    .values(groupIds.map((id, g) => ({ id, name: `group-${g}`, created: now })))
    .execute();
  // Members: `member` in 20 ordinary groups, `heavy` in the big ones, and ~10 others per group.
  const members = new Map<string, { id: string; userId: string; userGroupId: string }>();
  const join = (userId: string, userGroupId: string) => members.set(sign([userGroupId, userId]), { id: sign([userGroupId, userId]), userId, userGroupId });
  for (let k = 0; k < 20; k++) join(userIds[0]!, groupIds[BIG_GROUPS + k * 20]!);
  for (let k = 0; k < BIG_GROUPS; k++) join(userIds[1]!, groupIds[k]!);
  for (const groupId of groupIds) for (let k = 0; k < 10; k++) join(userIds[2 + rand(USERS - 2)]!, groupId);
  const memberRows = [...members.values()];
  for (let i = 0; i < memberRows.length; i += 500) await trx.insertInto('userGroupMembers').values(memberRows.slice(i, i + 500)).execute();

  // Grants; one in ten with a window that does not hold now (pending or expired).
  const rows = new Map<string, { id: string; assetId: string; userId: string | null; userGroupId: string | null; strategyId: null; commandFilterId: null; validFrom: number | null; validUntil: number | null; created: number }>();
  const add = (assetId: string, userId: string | null, userGroupId: string | null) => {
    const id = sign([assetId, userId ?? '', userGroupId ?? '']);
    const w = rows.size % 10 === 9 ? (rows.size % 20 === 9 ? { validFrom: now + 24 * HOUR, validUntil: null } : { validFrom: null, validUntil: now - HOUR }) : { validFrom: null, validUntil: null };
    rows.set(id, { id, assetId, userId, userGroupId, strategyId: null, commandFilterId: null, ...w, created: now });
  };
  for (let g = 0; g < GROUPS; g++) {
    for (const i of pick(g < BIG_GROUPS ? BIG_GROUP_GRANTS : SMALL_GROUP_GRANTS, new Set())) add(assetIds[i]!, null, groupIds[g]!);
  }
  const memberDirect = new Set<number>();
  for (let k = 0; k < DIRECT_GRANTS; k++) {
    if (k < 40) add(assetIds[pick(1, memberDirect)[0]!]!, userIds[0]!, null);
    else add(assetIds[rand(ASSETS)]!, userIds[2 + rand(USERS - 2)]!, null);
  }
  const grantRows = [...rows.values()];
  grants = grantRows.length;
  for (let i = 0; i < grantRows.length; i += 500) await trx.insertInto('authorised').values(grantRows.slice(i, i + 500)).execute();
});
const seedMs = performance.now() - seedStarted;

const app = await buildApp({ config, db, box, catalogue });
await app.listen({ host: '127.0.0.1', port: 0 });
const { port } = app.server.address() as { port: number };
const base = `http://127.0.0.1:${port}`;

/** A personal access token for the user, as the server stores it (hashed). */
async function tokenOf(userId: string) {
  const token = `forever-${uuid()}`;
  await db.insertInto('accessToken').values({ id: uuid(), userId, tokenHash: sha256(token), hint: 'forever-…', shown: null, created: now }).execute();
  return token;
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
async function latency(who: string, token: string, title: string, route: string, query: string) {
  const params = new URLSearchParams(route.endsWith('paging') ? { pageIndex: '1', pageSize: '10' } : {});
  for (const [k, v] of new URLSearchParams(query)) params.set(k, v);
  const url = `${base}${route}?${params}`;
  let total = 0;
  const times: number[] = [];
  for (let i = 0; i < WARM_UP + REQUESTS; i++) {
    const started = performance.now();
    const res = (await (await fetch(url, { headers: { 'x-auth-token': token } })).json()) as { code: number; data: { total: number } | string[] };
    const ms = performance.now() - started;
    if (res.code !== 1) throw new Error(`${title}: ${JSON.stringify(res).slice(0, 300)}`);
    total = Array.isArray(res.data) ? res.data.length : res.data.total;
    if (i >= WARM_UP) times.push(ms);
  }
  times.sort((a, b) => a - b);
  return { who, title, query, total, p50: pct(times, 50), p99: pct(times, 99) };
}

const results = [];
for (const [who, userId] of [
  ['member (20 groups)', userIds[0]!],
  ['heavy (20 big groups)', userIds[1]!],
] as const) {
  const token = await tokenOf(userId);
  results.push(await latency(who, token, 'unfiltered', '/worker/assets/paging', ''));
  results.push(await latency(who, token, 'by name', '/worker/assets/paging', 'name=host-01'));
  results.push(await latency(who, token, 'by tag', '/worker/assets/paging', 'tags=tag-03'));
  results.push(await latency(who, token, 'by name, sorted by name', '/worker/assets/paging', 'name=9&field=name&order=ascend'));
  results.push(await latency(who, token, 'tags', '/worker/assets/tags', ''));
}

console.log(`\n${ASSETS} assets, ${USERS} users, ${GROUPS} groups, ${grants} grants (seeded in ${(seedMs / 1000).toFixed(1)} s); ${REQUESTS} requests per line, one at a time, ${base}\n`);
console.log('| user | request | matches | p50 | p99 |');
console.log('|---|---|---:|---:|---:|');
for (const r of results) console.log(`| ${r.who} | ${r.title} (\`${r.query || '—'}\`) | ${r.total} | ${r.p50.toFixed(1)} ms | ${r.p99.toFixed(1)} ms |`);

await app.close();
await db.destroy();
if (process.env.BENCH_KEEP_DATA) console.log(`\ndata kept in ${dataDir}`);
else fs.rmSync(dataDir, { recursive: true, force: true });
