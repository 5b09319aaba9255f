import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/*
 * The server's one secret box: every secret stored at rest (TOTP seeds, access tokens shown once, and next the
 * credentials, gateway secrets and asset passwords) goes through `encrypt` and comes back through `decrypt`.
 *
 * Cipher: AES-256-GCM (node:crypto), a fresh 96-bit nonce per value, 128-bit tag.
 * Stored form: `v1:<keyId>:<base64(nonce ‖ ciphertext ‖ tag)>`, where keyId = first 8 hex characters of the
 * SHA-256 of the key: it says which key sealed a value (rotation) without saying anything useful about the key.
 * Key: 32 random bytes, base64; from JUMPGATE_SECRET_KEY, else the file `secret.key` in the data folder (created
 * on first start, mode 0600). Old keys (JUMPGATE_SECRET_KEY_OLD, comma-separated) only decrypt; at start every
 * stored value sealed by an old key is sealed again with the current one (db/sealed.ts). See docs/SERVER.md.
 */

export const KEY_BYTES = 32;
export const KEY_FILE = 'secret.key';
const VERSION = 'v1';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const STORED = /^v1:([0-9a-f]{8}):([A-Za-z0-9+/]+={0,2})$/;

export class SecretBoxError extends Error {}

export interface SecretBox {
  /** Id of the key new values are sealed with. */
  readonly keyId: string;
  /** Seals a string: `v1:<keyId>:<base64>`. */
  encrypt(plain: string): string;
  /** Opens a value sealed by the current or an old key; throws SecretBoxError if it is not one or was altered. */
  decrypt(stored: string): string;
  /** The same for nullable columns: null stays null. */
  encryptNullable(plain: string | null): string | null;
  decryptNullable(stored: string | null): string | null;
  /** Whether a value has the sealed shape (any key); plain legacy values do not. */
  isSealed(value: string): boolean;
  /** Whether a value is sealed by the current key (false: plain, or sealed by an old key). */
  isCurrent(value: string): boolean;
}

export const keyIdOf = (key: Buffer): string => createHash('sha256').update(key).digest('hex').slice(0, 8);

/** Parses a base64 key of exactly 32 bytes (what JUMPGATE_SECRET_KEY and the key file hold). */
export function parseKey(text: string, source: string): Buffer {
  const trimmed = text.trim();
  const key = Buffer.from(trimmed, 'base64');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(trimmed) || key.length !== KEY_BYTES) {
    throw new SecretBoxError(`${source}: expected ${KEY_BYTES} bytes in base64 (e.g. \`openssl rand -base64 32\`)`);
  }
  return key;
}

export const newKey = (): string => randomBytes(KEY_BYTES).toString('base64');

/** A box sealing with `current` and opening with `current` or any of `old`. */
export function createSecretBox(current: Buffer, old: readonly Buffer[] = []): SecretBox {
  if (current.length !== KEY_BYTES) throw new SecretBoxError(`a key is ${KEY_BYTES} bytes`);
  const keyId = keyIdOf(current);
  const keys = new Map<string, Buffer>();
  for (const k of old) keys.set(keyIdOf(k), k);
  keys.set(keyId, current);

  const encrypt = (plain: string): string => {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', current, nonce);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${VERSION}:${keyId}:${Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64')}`;
  };

  const decrypt = (stored: string): string => {
    const m = STORED.exec(stored);
    if (!m) throw new SecretBoxError('not a sealed value');
    const key = keys.get(m[1]!);
    if (!key) throw new SecretBoxError(`sealed with key ${m[1]}, which is not loaded (JUMPGATE_SECRET_KEY / JUMPGATE_SECRET_KEY_OLD)`);
    const raw = Buffer.from(m[2]!, 'base64');
    if (raw.length < NONCE_BYTES + TAG_BYTES) throw new SecretBoxError('sealed value too short');
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, NONCE_BYTES), { authTagLength: TAG_BYTES });
    decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(raw.subarray(NONCE_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretBoxError(`sealed value altered or not sealed by key ${m[1]}`);
    }
  };

  return {
    keyId,
    encrypt,
    decrypt,
    encryptNullable: (plain) => (plain === null ? null : encrypt(plain)),
    decryptNullable: (stored) => (stored === null ? null : decrypt(stored)),
    isSealed: (value) => STORED.test(value),
    isCurrent: (value) => STORED.exec(value)?.[1] === keyId,
  };
}

export interface SecretKeySource {
  /** The data folder (key file `secret.key` lives there). */
  dataDir: string;
  /** JUMPGATE_SECRET_KEY: wins over the key file, which is then neither read nor created. */
  secretKey?: string;
  /** JUMPGATE_SECRET_KEY_OLD: keys that only decrypt (rotation). */
  secretKeysOld?: readonly string[];
}

/**
 * Loads the box once at start: the key from the environment, else from `<dataDir>/secret.key`, created (0600,
 * exclusively, so two starting processes cannot write two keys) when absent.
 */
export function loadSecretBox(src: SecretKeySource): SecretBox {
  const old = (src.secretKeysOld ?? []).map((k, i) => parseKey(k, `JUMPGATE_SECRET_KEY_OLD[${i}]`));
  if (src.secretKey) return createSecretBox(parseKey(src.secretKey, 'JUMPGATE_SECRET_KEY'), old);
  const file = path.join(src.dataDir, KEY_FILE);
  try {
    fs.writeFileSync(file, `${newKey()}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  fs.chmodSync(file, 0o600);
  return createSecretBox(parseKey(fs.readFileSync(file, 'utf8'), file), old);
}
