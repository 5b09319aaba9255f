
import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import ssh2 from 'ssh2';
import { percentile, startBenchServer } from './bench/server.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const HOSTILE_ROUNDS = Number(process.env.HOSTILE_ROUNDS ?? 200);
const CSV_ROWS = 340_000;
const MULTIPART_CLIENTS = 4;
const PASSWORD = 'bench-password';
const server = await startBenchServer(PASSWORD);
const { base, child } = server;

/** The node processes under the tsx launcher (the server is the one that listens). */
function tree(pid: number): number[] {
  const kids = fs.readdirSync(`/proc/${pid}/task`).flatMap((t) => {
    try {
      return fs.readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    } catch {
      return [];
    }
  });
  return [pid, ...kids.flatMap(tree)];
}
/** Resident set size of the server's processes, in MB (VmRSS now, VmHWM the peak). */
function rss(): { now: number; peak: number } {
  let now = 0;
  let peak = 0;
  for (const pid of tree(child.pid!)) {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    now = Math.max(now, Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
    peak = Math.max(peak, Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
  }
  return { now, peak };
}

async function api(method: string, url: string, token: string | null, body?: unknown): Promise<{ code: number; message: string; data?: unknown }> {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { 'x-auth-token': token } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as { code: number; message: string; data?: unknown };
}
async function login(username: string): Promise<string> {
  const body = await api('POST', '/login', null, { username, password: PASSWORD });
  if (body.code !== 1) throw new Error(`login failed: ${body.message}`);
  return (body.data as { token: string }).token;
}
const token = await login('admin');
const created = await api('POST', '/users', token, { username: 'plain', password: PASSWORD, nickname: 'plain', type: 'user', roles: [] });
if (created.code !== 1) throw new Error(`creating a user: ${created.message}`);
const userToken = await login('plain');

/** An ed25519 key sealed with bcrypt, its rounds field rewritten (its passphrase then no longer opens it, slowly). */
function keyWithRounds(rounds: number): string {
  const key = ssh2.utils.generateKeyPairSync('ed25519', { passphrase: 'p', cipher: 'aes256-ctr', rounds: 1 }).private;
  const data = Buffer.from(/-----BEGIN OPENSSH PRIVATE KEY-----\n([\s\S]+?)\n-----END/.exec(key)![1]!.replace(/\s+/g, ''), 'base64');
  let at = 15;
  at += 4 + data.readUInt32BE(at); // ciphername
  at += 4 + data.readUInt32BE(at); // kdfname
  const options = at + 4;
  data.writeUInt32BE(rounds, options + 4 + data.readUInt32BE(options));
  return `-----BEGIN OPENSSH PRIVATE KEY-----\n${data.toString('base64').match(/.{1,70}/g)!.join('\n')}\n-----END OPENSSH PRIVATE KEY-----\n`;
}
const asset = (privateKey: string, name: string) => ({
  name,
  protocol: 'ssh',
  ip: '127.0.0.1',
  port: 1,
  accountType: 'private-key',
  username: 'u',
  privateKey,
  passphrase: 'p',
  password: '',
  tags: '',
  description: '',
  accessGatewayId: '',
  credentialId: '',
});

const pct = percentile;

/** One sequential probe loop on /branding for `ms`; sorted latencies. */
async function probe(ms: number): Promise<number[]> {
  const end = performance.now() + ms;
  const out: number[] = [];
  while (performance.now() < end) {
    const t = performance.now();
    const res = await fetch(`${base}/branding`);
    await res.arrayBuffer();
    out.push(performance.now() - t);
  }
  return out.sort((a, b) => a - b);
}

/** What the hostile client (a worker thread) sends, one request at a time, until it is told to stop. */
interface Hostile {
  url: string;
  headers: Record<string, string>;
  /** A JSON body; `#n#` in it becomes a counter (unique asset names). */
  json?: string;
  raw?: Buffer;
}

/*
 * The hostile client runs in a worker thread, so that building and sending its requests is not measured as the
 * server's latency by the probe on this thread.
 */
const CLIENT = `
const { parentPort, workerData } = require('node:worker_threads');
const { url, headers, json, raw } = workerData;
let running = true;
parentPort.on('message', () => { running = false; });
(async () => {
  const answers = {};
  const took = [];
  let count = 0;
  while (running) {
    const t = performance.now();
    const body = json !== undefined ? json.replaceAll('#n#', String(count++)) : raw;
    const res = await fetch(url, { method: 'POST', headers, body });
    const text = await res.text();
    took.push(performance.now() - t);
    let message;
    try { const b = JSON.parse(text); message = (b.code === 1 ? 'answered' : b.message) + ' (' + (text.length / 1e6).toFixed(1) + ' MB)'; } catch { message = 'not JSON'; }
    answers[message] = (answers[message] || 0) + 1;
  }
  parentPort.postMessage({ answers, took });
})();
`;

/** Repeats one hostile request (one at a time, from a worker) while probing; latencies and what the requests answered. */
async function during(hostile: Hostile): Promise<{ lat: number[]; answers: Map<string, number>; took: number[] }> {
  const worker = new Worker(CLIENT, { eval: true, workerData: hostile });
  const done = new Promise<{ answers: Record<string, number>; took: number[] }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await new Promise((r) => setTimeout(r, 200));
  const lat = await probe(SECONDS * 1000);
  worker.postMessage('stop');
  const { answers, took } = await done;
  await worker.terminate();
  return { lat, answers: new Map(Object.entries(answers)), took };
}

const fmt = (v: number[]) => `p50 ${pct(v, 50).toFixed(1)} ms  p99 ${pct(v, 99).toFixed(1)} ms  max ${v.at(-1)!.toFixed(1)} ms (${v.length} req)`;
const short = (m: string) => (m.length > 70 ? `${m.slice(0, 70)}…` : m);

await probe(1000); // warm-up
const idle = await probe(SECONDS * 1000);
console.log(`hostile requests: ${SECONDS} s per phase, one hostile client at a time, ${base}`);
console.log(`GET /branding idle:              ${fmt(idle)}`);

const B = 'benchBoundary';

// Multipart: 99 fields of 1 MiB to /sessions/x/edit, by a plain user, MULTIPART_CLIENTS at once.
const fields = Buffer.concat(Array.from({ length: 99 }, (_, i) => Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\n${'x'.repeat(1024 * 1024)}\r\n`)));
const mpBody = Buffer.concat([fields, Buffer.from(`--${B}--\r\n`)]);
const before = rss();
const mp = await Promise.all(
  Array.from({ length: MULTIPART_CLIENTS }, async () => {
    const res = await fetch(`${base}/sessions/x/edit`, { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${B}`, 'x-auth-token': userToken }, body: mpBody }).catch(
      (err: Error) => ({ text: async () => JSON.stringify({ code: 0, message: `connection: ${err.message}` }) }),
    );
    return short((JSON.parse(await res.text()) as { message: string }).message);
  }),
);
const after = rss();
console.log(
  `multipart: ${MULTIPART_CLIENTS} × 99 fields of 1 MiB to /sessions/x/edit: RSS ${before.now.toFixed(0)} → ${after.now.toFixed(0)} MB (peak ${before.peak.toFixed(0)} → ${after.peak.toFixed(0)} MB); answers: ${[...new Set(mp)].join('; ')}`,
);

const slowKey = keyWithRounds(HOSTILE_ROUNDS);
// A real key of ssh-keygen's default 16 rounds, with its passphrase (opened, stored).
const legitKey = ssh2.utils.generateKeyPairSync('ed25519', { passphrase: 'p', cipher: 'aes256-ctr', rounds: 16 }).private;
const csv = Buffer.from(Array.from({ length: CSV_ROWS }, (_, i) => `a${i},ssh,h,1,,,,,`).join('\n'));
const csvBody = Buffer.concat([
  Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\nContent-Type: text/csv\r\n\r\n`),
  csv,
  Buffer.from(`\r\n--${B}--\r\n`),
]);
const json = { 'content-type': 'application/json', 'x-auth-token': token };
const phases: [string, Hostile][] = [
  [`slow key (${HOSTILE_ROUNDS} rounds)`, { url: `${base}/assets`, headers: json, json: JSON.stringify(asset(slowKey, 'slow-#n#')) }],
  ['legit key (16 rounds)', { url: `${base}/assets`, headers: json, json: JSON.stringify(asset(legitKey, 'legit-#n#')) }],
  [`CSV dry run (${CSV_ROWS} rows)`, { url: `${base}/assets/import?dryRun=true`, headers: { 'content-type': `multipart/form-data; boundary=${B}`, 'x-auth-token': token }, raw: csvBody }],
];
let worst = 0;
for (const [name, hostile] of phases) {
  const { lat, answers, took } = await during(hostile);
  const ratio = pct(lat, 99) / pct(idle, 99);
  worst = Math.max(worst, ratio);
  console.log(`GET /branding during ${name.padEnd(26)} ${fmt(lat)}   p99 ratio ${ratio.toFixed(2)}`);
  took.sort((a, b) => a - b);
  console.log(`    ${took.length} hostile request(s), median ${pct(took, 50).toFixed(0)} ms; answers: ${[...answers].map(([a, c]) => `${c} × ${short(a)}`).join('; ')}`);
}

console.log(`worst /branding p99 ratio: ${worst.toFixed(2)} (goal ≤ 3)`);
await server.stop();
process.exit(0);
