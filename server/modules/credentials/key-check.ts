import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/*
 * Private keys whose passphrase is stretched with bcrypt (OpenSSH's own format, `openssh-key-v1`, kdf "bcrypt") cost
 * ≈ 45 ms per round in ssh2's JavaScript bcrypt: ssh-keygen's default 16 rounds is most of a second, and the rounds are
 * a uint32 the key's author chooses (a key with 2^20 rounds froze the event loop for minutes). So:
 *  - a key over MAX_KDF_ROUNDS is refused before anything is derived (`kdfProblem`), on every path that reads a key;
 *  - a key within the bound is opened in a worker thread, never on the event loop, at most KEY_WORKERS at a time and
 *    within KEY_DEADLINE_MS (`checkKeyOffLoop`, `unlockKey`).
 * Other formats (unencrypted keys, PEM's MD5 stretch, PuTTY v2's SHA-1) cost microseconds and parse in place.
 */

/** The most bcrypt rounds a key may ask for: ssh-keygen writes 16 unless told `-a`; 64 is ≈ 3 s in a worker here. */
export const MAX_KDF_ROUNDS = 64;
/** How long opening one key in a worker may take (queueing included) before it is given up. */
export const keyDeadline = { ms: 15_000 };
/** Keys opened at the same time; further ones wait their turn (each holds a core while it runs). */
const KEY_WORKERS = 2;

const OPENSSH = /^-----BEGIN OPENSSH PRIVATE KEY-----\r?\n([\s\S]+?)\r?\n-----END OPENSSH PRIVATE KEY-----$/;
const MAGIC = 'openssh-key-v1\0';

/** The key-derivation header of an `openssh-key-v1` private key; null for any other text (or a malformed one). */
export function opensshKdf(key: string): { cipher: string; kdf: string; rounds: number } | null {
  const m = OPENSSH.exec(key.trim());
  if (!m) return null;
  const data = Buffer.from(m[1]!.replace(/\s+/g, ''), 'base64');
  if (data.length < MAGIC.length || data.toString('latin1', 0, MAGIC.length) !== MAGIC) return null;
  let at = MAGIC.length;
  const str = (from: Buffer): Buffer | null => {
    if (at + 4 > from.length) return null;
    const len = from.readUInt32BE(at);
    if (at + 4 + len > from.length) return null;
    const out = from.subarray(at + 4, at + 4 + len);
    at += 4 + len;
    return out;
  };
  const cipher = str(data);
  const kdf = str(data);
  const options = str(data);
  if (!cipher || !kdf || !options) return null;
  const name = kdf.toString('latin1');
  if (name !== 'bcrypt') return { cipher: cipher.toString('latin1'), kdf: name, rounds: 0 };
  at = 0;
  const salt = str(options);
  if (!salt || at + 4 > options.length) return null;
  return { cipher: cipher.toString('latin1'), kdf: name, rounds: options.readUInt32BE(at) };
}

/** Why a key's bcrypt rounds are refused (`-1`, naming the field), or null. */
export function kdfProblem(key: string): { zh: string; en: string } | null {
  const header = opensshKdf(key);
  if (!header || header.rounds <= MAX_KDF_ROUNDS) return null;
  return {
    zh: `私钥的加密轮数（bcrypt rounds）为 ${header.rounds}，超过上限 ${MAX_KDF_ROUNDS}（ssh-keygen 默认 16）：请用 ssh-keygen -p -a 16 重新设置私钥密码`,
    en: `privateKey: its bcrypt rounds are ${header.rounds}, more than ${MAX_KDF_ROUNDS} (ssh-keygen's default is 16): set its passphrase again with ssh-keygen -p -a 16`,
  };
}

/** True when opening this key with a passphrase runs bcrypt (so it must not run on the event loop). */
export function isCostly(key: string, passphrase: string | undefined): boolean {
  if (!passphrase) return false; // ssh2 refuses an encrypted key without a passphrase before deriving anything
  const header = opensshKdf(key);
  return header !== null && header.kdf === 'bcrypt' && header.rounds > 0;
}

/** What a worker answers: the parse error's message, or (with `unlock`) the key without its passphrase. */
interface WorkerAnswer {
  error?: string;
  publicKey?: boolean;
  key?: string;
}

const ssh2Path = createRequire(import.meta.url).resolve('ssh2');

/*
 * The worker: parses the key with ssh2 (the library that will use it), and for `unlock` writes it back without a
 * passphrase, in a format ssh2 reads without a KDF: PEM for RSA, ECDSA and DSA keys; an unencrypted openssh-key-v1 for
 * ed25519 (ssh2 cannot read back its own PKCS#8 PEM of an ed25519 key).
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const ssh2 = require(workerData.ssh2Path);
const u32 = (n) => { const b = Buffer.alloc(4); b.writeUInt32BE(n >>> 0); return b; };
const str = (b) => Buffer.concat([u32(b.length), b]);
function ed25519Text(parsed) {
  const der = Buffer.from(parsed.getPrivatePEM().replace(/-----[^-]+-----|\\s+/g, ''), 'base64');
  const seed = der.subarray(der.length - 32);
  const pubBlob = parsed.getPublicSSH();
  const pub = pubBlob.subarray(pubBlob.length - 32);
  const check = u32(0x4a47);
  let priv = Buffer.concat([check, check, str(Buffer.from('ssh-ed25519')), str(pub), str(Buffer.concat([seed, pub])), str(Buffer.from(parsed.comment || ''))]);
  const pad = [];
  for (let i = 1; (priv.length + pad.length) % 8 !== 0; i++) pad.push(i);
  priv = Buffer.concat([priv, Buffer.from(pad)]);
  const none = str(Buffer.from('none'));
  const body = Buffer.concat([Buffer.from('openssh-key-v1\\0', 'latin1'), none, none, str(Buffer.alloc(0)), u32(1), str(pubBlob), str(priv)]).toString('base64');
  return '-----BEGIN OPENSSH PRIVATE KEY-----\\n' + body.match(/.{1,70}/g).join('\\n') + '\\n-----END OPENSSH PRIVATE KEY-----\\n';
}
const { key, passphrase, unlock } = workerData;
const parsed = ssh2.utils.parseKey(key, passphrase);
if (parsed instanceof Error) parentPort.postMessage({ error: parsed.message });
else {
  const first = Array.isArray(parsed) ? parsed[0] : parsed;
  if (!first || !first.isPrivateKey()) parentPort.postMessage({ publicKey: true });
  else if (!unlock) parentPort.postMessage({});
  else parentPort.postMessage({ key: first.type === 'ssh-ed25519' ? ed25519Text(first) : first.getPrivatePEM() });
}
`;

let running = 0;
const waiting: (() => void)[] = [];

/** Runs the worker for one key, within the deadline (waiting for a free slot included). */
async function inWorker(key: string, passphrase: string, unlock: boolean): Promise<WorkerAnswer> {
  const deadline = Date.now() + keyDeadline.ms;
  if (running >= KEY_WORKERS) {
    await new Promise<void>((resolve, reject) => {
      const go = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        waiting.splice(waiting.indexOf(go), 1);
        reject(new KeyTimeout());
      }, keyDeadline.ms);
      waiting.push(go);
    });
  }
  running++;
  try {
    return await new Promise<WorkerAnswer>((resolve, reject) => {
      // execArgv: [] — the worker runs plain JavaScript (ssh2), so it goes without the launcher's TypeScript hooks.
      const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { ssh2Path, key, passphrase, unlock }, resourceLimits: { maxOldGenerationSizeMb: 64 }, execArgv: [] });
      const timer = setTimeout(
        () => {
          void worker.terminate();
          reject(new KeyTimeout());
        },
        Math.max(1, deadline - Date.now()),
      );
      worker.once('message', (answer: WorkerAnswer) => {
        clearTimeout(timer);
        resolve(answer);
        void worker.terminate();
      });
      worker.once('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      worker.once('exit', () => {
        clearTimeout(timer);
        reject(new KeyTimeout());
      });
    });
  } finally {
    running--;
    waiting.shift()?.();
  }
}

export class KeyTimeout extends Error {
  constructor() {
    super('私钥解析超时');
  }
}

/** Verdicts of keys checked in a worker, by a hash of key and passphrase, for the synchronous check that follows. */
const verdicts = new Map<string, { answer: WorkerAnswer; until: number }>();
const VERDICT_TTL_MS = 60_000;
const VERDICTS_MAX = 256;

const verdictKey = (key: string, passphrase: string) => createHash('sha256').update(key.trim()).update('\0').update(passphrase).digest('base64');

/**
 * Checks a costly key (see `isCostly`) in a worker and keeps the verdict a minute, so `cachedVerdict` answers the
 * synchronous check that follows (credentials/account.ts `privateKeyProblem`, inside a write transaction, where
 * waiting on a worker would hold the database). Anything else returns at once.
 */
export async function checkKeyOffLoop(key: string, passphrase: string | undefined): Promise<void> {
  if (!passphrase || !isCostly(key, passphrase) || kdfProblem(key)) return;
  const id = verdictKey(key, passphrase);
  const now = Date.now();
  const known = verdicts.get(id);
  if (known && known.until > now) return;
  let answer: WorkerAnswer;
  try {
    answer = await inWorker(key, passphrase, false);
  } catch (err) {
    answer = { error: err instanceof KeyTimeout ? err.message : String(err) };
  }
  if (verdicts.size >= VERDICTS_MAX) {
    for (const [k, v] of verdicts) if (v.until <= now || verdicts.size >= VERDICTS_MAX) verdicts.delete(k);
  }
  verdicts.set(id, { answer, until: now + VERDICT_TTL_MS });
}

/** The verdict `checkKeyOffLoop` found for this key and passphrase, or undefined when it has none. */
export function cachedVerdict(key: string, passphrase: string): WorkerAnswer | undefined {
  const known = verdicts.get(verdictKey(key, passphrase));
  return known && known.until > Date.now() ? known.answer : undefined;
}

/**
 * The key as ssh2 should get it to log in: a costly key is opened in a worker and handed over without its passphrase
 * (ssh2 would otherwise run bcrypt on the event loop at connect time); a key over the bound is refused. Throws an
 * Error whose message is fit for the user.
 */
export async function unlockKey(key: string, passphrase: string | undefined): Promise<{ privateKey: string; passphrase?: string }> {
  const problem = kdfProblem(key);
  if (problem) throw new Error(problem.zh);
  if (!passphrase || !isCostly(key, passphrase)) return { privateKey: key, passphrase };
  const answer = await inWorker(key, passphrase, true);
  if (answer.key) return { privateKey: answer.key };
  throw new Error(answer.error ? `无法解析私钥：${answer.error}` : '无法解析私钥');
}
