/**
 * Assets at scale (docs/PERFORMANCE.md "Assets"): the real app on 127.0.0.1:0 with a fresh temporary data folder.
 *  1. CSV import of 10 000 rows over HTTP (dry run, then the real one): time, and the process's peak RSS.
 *  2. 90 000 more assets seeded straight into the database (100 000 in all, 1–3 of 40 tags each), then
 *     GET /assets/paging?pageSize=10 p50/p99 over loopback HTTP, one request at a time: unfiltered, by name,
 *     by two tags, by protocol (goal p99 < 30 ms).
 * Run: npm run bench:assets   (BENCH_ASSETS, BENCH_IMPORT_ROWS, BENCH_REQUESTS to change the sizes)
 */
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { buildApp } from '../server/app.ts';
import { uuid } from '../server/lib/ids.ts';
import { SUPER_ADMIN_ID } from '../server/permissions/effective.ts';
import { benchStore } from './bench/store.ts';

const ASSETS = Number(process.env.BENCH_ASSETS ?? 100_000);
const IMPORT_ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 10_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 300);
const WARM_UP = 30;
const PROTOCOLS = ['ssh', 'ssh', 'ssh', 'ssh', 'ssh', 'ssh', 'rdp', 'rdp', 'vnc', 'telnet', 'kubernetes'] as const;
const PORTS: Record<string, number> = { ssh: 22, rdp: 3389, vnc: 5900, telnet: 23, kubernetes: 6443 };
const TAGS = Array.from({ length: 40 }, (_, i) => `tag-${String(i).padStart(2, '0')}`);

/** A deterministic spread: asset i gets 1–3 tags, protocol and address from its number. */
const tagsOf = (i: number) => [...new Set([TAGS[i % 40]!, ...(i % 3 > 0 ? [TAGS[(i * 7) % 40]!] : []), ...(i % 3 > 1 ? [TAGS[(i * 13) % 40]!] : [])])];
const protocolOf = (i: number) => PROTOCOLS[i % PROTOCOLS.length]!;
const ipOf = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
const nameOf = (i: number) => `host-${String(i).padStart(6, '0')}`;

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const peakRss = () => process.resourceUsage().maxRSS * 1024;

const { dataDir, config, db, box, catalogue } = await benchStore('assets');
const app = await buildApp({ config, db, box, catalogue });
await app.listen({ host: '127.0.0.1', port: 0 });
const { port } = app.server.address() as { port: number };
const base = `http://127.0.0.1:${port}`;
const login = (await (await fetch(`${base}/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'bench-password' }) })).json()) as {
  data: { token: string };
};
const headers = { 'x-auth-token': login.data.token };

// 1. CSV import ------------------------------------------------------------------------------------------------
const csv = Array.from({ length: IMPORT_ROWS }, (_, i) => `${nameOf(i)},${protocolOf(i)},${ipOf(i)},${PORTS[protocolOf(i)]},root,Bench-Pass-${i},,,imported row ${i},${tagsOf(i).join('|')}`).join('\r\n');
async function importCsv(dryRun: boolean) {
  const form = new FormData();
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'assets.csv');
  const started = performance.now();
  const res = (await (await fetch(`${base}/assets/import?dryRun=${dryRun}`, { method: 'POST', headers, body: form })).json()) as { code: number; data: { successCount: number; errorCount: number } };
  const ms = performance.now() - started;
  if (res.code !== 1 || res.data.successCount !== IMPORT_ROWS) throw new Error(`import: ${JSON.stringify(res).slice(0, 300)}`);
  return ms;
}
const rssBefore = process.memoryUsage().rss;
const peakBefore = peakRss();
const dryMs = await importCsv(true);
const importMs = await importCsv(false);
const importPeak = peakRss();

// 2. Seed the rest straight into the database ---------------------------------------------------------------------
const seedStarted = performance.now();
const tagIds = new Map((await db.selectFrom('tags').select(['id', 'name']).execute()).map((t) => [t.name, t.id]));
for (const t of TAGS.filter((t) => !tagIds.has(t))) {
  const id = uuid();
  await db.insertInto('tags').values({ id, name: t }).execute();
  tagIds.set(t, id);
}
const now = Date.now();
await db.transaction().execute(async (trx) => {
  for (let start = IMPORT_ROWS; start < ASSETS; start += 500) {
    const batch = Array.from({ length: Math.min(500, ASSETS - start) }, (_, k) => start + k).map((i) => ({
      id: uuid(),
      name: nameOf(i),
      protocol: protocolOf(i),
      ip: ipOf(i),
      port: PORTS[protocolOf(i)]!,
      accountType: 'custom' as const,
      username: 'root',
      password: null,
      privateKey: null,
      passphrase: null,
      credentialId: null,
      accessGatewayId: null,
      description: `seeded row ${i}`,
      active: i % 10 === 0 ? 0 : 1,
      activeMessage: '',
      created: now + i,
      lastAccessTime: null,
      owner: SUPER_ADMIN_ID,
    }));
    await trx.insertInto('assets').values(batch).execute();
    await trx
      .insertInto('assetTags')
      .values(batch.flatMap((a, k) => tagsOf(start + k).map((t) => ({ assetId: a.id, tagId: tagIds.get(t)! }))))
      .execute();
  }
});
const seedMs = performance.now() - seedStarted;

// 3. Paging latency ---------------------------------------------------------------------------------------------------
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
async function latency(title: string, query: string) {
  const params = new URLSearchParams({ pageIndex: '1', pageSize: '10' });
  for (const [k, v] of new URLSearchParams(query)) params.set(k, v);
  const url = `${base}/assets/paging?${params}`;
  let total = 0;
  const times: number[] = [];
  for (let i = 0; i < WARM_UP + REQUESTS; i++) {
    const started = performance.now();
    const res = (await (await fetch(url, { headers })).json()) as { code: number; data: { total: number; items: unknown[] } };
    const ms = performance.now() - started;
    if (res.code !== 1) throw new Error(`${title}: ${JSON.stringify(res).slice(0, 300)}`);
    total = res.data.total;
    if (i >= WARM_UP) times.push(ms);
  }
  times.sort((a, b) => a - b);
  return { title, query, total, p50: pct(times, 50), p99: pct(times, 99) };
}
const rows = [
  await latency('unfiltered', ''),
  await latency('by name', 'name=host-01234'),
  await latency('by two tags', 'tags=tag-03,tag-21'),
  await latency('by protocol', 'protocol=rdp'),
  await latency('by port', 'port=3389'),
  await latency('name, sorted by name', 'name=9999&field=name&order=ascend'),
  await latency('page 5000 (offset 49 990)', 'pageIndex=5000'),
];

console.log(`\nassets: ${ASSETS} (${IMPORT_ROWS} imported + ${ASSETS - IMPORT_ROWS} seeded in ${(seedMs / 1000).toFixed(1)} s), ${TAGS.length} tags; ${REQUESTS} requests per line, one at a time, ${base}\n`);
console.log('| GET /assets/paging?pageSize=10 | matches | p50 | p99 |');
console.log('|---|---:|---:|---:|');
for (const r of rows) console.log(`| ${r.title} (\`${r.query || '—'}\`) | ${r.total} | ${r.p50.toFixed(1)} ms | ${r.p99.toFixed(1)} ms |`);
console.log(`\n| CSV import, ${IMPORT_ROWS} rows (${(csv.length / 1024).toFixed(0)} KB) | time | process RSS |`);
console.log('|---|---:|---:|');
console.log(`| dry run, then import | ${dryMs.toFixed(0)} ms, ${importMs.toFixed(0)} ms | before ${mb(rssBefore)} (peak so far ${mb(peakBefore)}), peak ${mb(importPeak)} |`);

await app.close();
await db.destroy();
fs.rmSync(dataDir, { recursive: true, force: true });
