import { loadCatalogue } from '../../server/permissions/catalogue.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../server/db/index.ts';
import { createSecretBox, KEY_FILE, keyIdOf, loadSecretBox, newKey, parseKey, SecretBoxError } from '../../server/lib/secret-box.ts';
import { SUPER_ADMIN_ID } from '../../server/permissions/effective.ts';
import { seed } from '../../server/seed.ts';

const dirs: string[] = [];
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'jumpgate-box-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('secret box', () => {
  const key = parseKey(newKey(), 'test');

  it('seals and opens, with a fresh nonce each time and a versioned, key-labelled format', () => {
    const box = createSecretBox(key);
    for (const plain of ['', 'JBSWY3DPEHPK3PXP', 'пароль 密码 🔑', 'x'.repeat(10_000)]) {
      const a = box.encrypt(plain);
      expect(a).toMatch(new RegExp(`^v1:${keyIdOf(key)}:[A-Za-z0-9+/]+={0,2}$`));
      expect(box.decrypt(a)).toBe(plain);
      if (plain) expect(a).not.toContain(plain);
      expect(box.encrypt(plain)).not.toBe(a);
    }
    expect(box.encryptNullable(null)).toBeNull();
    expect(box.decryptNullable(null)).toBeNull();
    expect(box.decryptNullable(box.encryptNullable('s'))).toBe('s');
    expect(box.isSealed(box.encrypt('s'))).toBe(true);
    expect(box.isSealed('JBSWY3DPEHPK3PXP')).toBe(false);
  });

  it('refuses altered values, unknown keys and plain text', () => {
    const box = createSecretBox(key);
    const sealed = box.encrypt('secret value');
    const raw = Buffer.from(sealed.split(':')[2]!, 'base64');
    for (const i of [0, 12, raw.length - 1]) {
      const bad = Buffer.from(raw);
      bad[i]! ^= 1;
      expect(() => box.decrypt(`v1:${box.keyId}:${bad.toString('base64')}`), `byte ${i}`).toThrow(SecretBoxError);
    }
    const other = createSecretBox(parseKey(newKey(), 'other'));
    expect(() => other.decrypt(sealed)).toThrow(/not loaded/);
    expect(() => box.decrypt('plain')).toThrow(SecretBoxError);
    expect(() => box.decrypt(`v1:${box.keyId}:AAAA`)).toThrow(SecretBoxError);
  });

  it('opens values of an old key and seals with the current one', () => {
    const oldKey = parseKey(newKey(), 'old');
    const sealedOld = createSecretBox(oldKey).encrypt('v');
    const box = createSecretBox(key, [oldKey]);
    expect(box.decrypt(sealedOld)).toBe('v');
    expect(box.isCurrent(sealedOld)).toBe(false);
    expect(box.isCurrent(box.encrypt('v'))).toBe(true);
  });

  it('takes a key of exactly 32 bytes in base64', () => {
    expect(() => parseKey('c2hvcnQ=', 'JUMPGATE_SECRET_KEY')).toThrow(/JUMPGATE_SECRET_KEY: expected 32 bytes/);
    expect(() => parseKey('!'.repeat(44), 'k')).toThrow(SecretBoxError);
    expect(parseKey(` ${Buffer.alloc(32, 7).toString('base64')}\n`, 'k')).toEqual(Buffer.alloc(32, 7));
  });

  it('creates the key file once (0600) and reuses it; an environment key wins and creates no file', () => {
    const dir = tmp();
    const a = loadSecretBox({ dataDir: dir });
    const file = path.join(dir, KEY_FILE);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const b = loadSecretBox({ dataDir: dir });
    expect(b.keyId).toBe(a.keyId);
    expect(b.decrypt(a.encrypt('same key'))).toBe('same key');

    const env = tmp();
    const k = newKey();
    expect(loadSecretBox({ dataDir: env, secretKey: k }).keyId).toBe(keyIdOf(parseKey(k, 'k')));
    expect(fs.existsSync(path.join(env, KEY_FILE))).toBe(false);
  });
});

describe('key rotation at start', () => {
  const store = (dataDir: string, secretKey?: string, secretKeysOld: string[] = []) => openStore({ dataDir, database: `sqlite:${path.join(dataDir, 'j.db')}`, secretKey, secretKeysOld });

  it('reseals every stored secret with the new key when the old one is given as JUMPGATE_SECRET_KEY_OLD', async () => {
    const dir = tmp();
    const [k1, k2] = [newKey(), newKey()];
    let s = await store(dir, k1);
    await seed(s.db, { catalogue: await loadCatalogue(), adminPassword: 'Admin-Pass-123', now: 0 });
    await s.db.updateTable('users').set({ totpSecret: s.box.encrypt('JBSWY3DPEHPK3PXP') }).where('id', '=', SUPER_ADMIN_ID).execute();
    await s.db.insertInto('accessToken').values({ id: 't', userId: SUPER_ADMIN_ID, tokenHash: 'h', hint: 'forever-…abcd', shown: s.box.encrypt('forever-abcd'), created: 0 }).execute();
    await s.db.destroy();

    // Without the old key the start fails, naming what cannot be opened; nothing is changed.
    await expect(store(dir, k2)).rejects.toThrow(/users\.totp_secret of .*: sealed with key [0-9a-f]{8}, which is not loaded/);

    s = await store(dir, k2, [k1]);
    const row = await s.db.selectFrom('users').select('totpSecret').where('id', '=', SUPER_ADMIN_ID).executeTakeFirstOrThrow();
    expect(s.box.isCurrent(row.totpSecret)).toBe(true);
    expect(s.box.decrypt(row.totpSecret)).toBe('JBSWY3DPEHPK3PXP');
    const pat = await s.db.selectFrom('accessToken').select('shown').executeTakeFirstOrThrow();
    expect(s.box.isCurrent(pat.shown!)).toBe(true);
    await s.db.destroy();

    // The old key is no longer needed.
    s = await store(dir, k2);
    expect(s.box.decrypt((await s.db.selectFrom('users').select('totpSecret').where('id', '=', SUPER_ADMIN_ID).executeTakeFirstOrThrow()).totpSecret)).toBe('JBSWY3DPEHPK3PXP');
    await s.db.destroy();
  });

  it('reseals credential and gateway secrets too (every column in SEALED_COLUMNS, nulls left alone)', async () => {
    const dir = tmp();
    const [k1, k2] = [newKey(), newKey()];
    let s = await store(dir, k1);
    const secrets = { password: s.box.encrypt('pw'), privateKey: s.box.encrypt('key'), passphrase: null };
    await s.db.insertInto('credentials').values({ id: 'c', name: 'c', type: 'private-key', username: '', ...secrets, owner: SUPER_ADMIN_ID, created: 0 }).execute();
    await s.db.insertInto('accessGateways').values({ id: 'g', name: 'g', ip: '127.0.0.1', port: 22, accountType: 'private-key', username: 'u', ...secrets, owner: SUPER_ADMIN_ID, created: 0 }).execute();
    await s.db.destroy();

    s = await store(dir, k2, [k1]);
    for (const table of ['credentials', 'accessGateways'] as const) {
      const row = await s.db.selectFrom(table).select(['password', 'privateKey', 'passphrase']).executeTakeFirstOrThrow();
      expect([s.box.isCurrent(row.password!), s.box.isCurrent(row.privateKey!), row.passphrase], table).toEqual([true, true, null]);
      expect([s.box.decrypt(row.password!), s.box.decrypt(row.privateKey!)]).toEqual(['pw', 'key']);
    }
    await s.db.destroy();
  });

  it('rotates a key file: move it aside, give its content as the old key, start', async () => {
    const dir = tmp();
    let s = await store(dir);
    await seed(s.db, { catalogue: await loadCatalogue(), adminPassword: 'Admin-Pass-123', now: 0 });
    await s.db.updateTable('users').set({ totpSecret: s.box.encrypt('JBSWY3DPEHPK3PXP') }).where('id', '=', SUPER_ADMIN_ID).execute();
    await s.db.destroy();
    const oldKey = fs.readFileSync(path.join(dir, KEY_FILE), 'utf8').trim();
    fs.renameSync(path.join(dir, KEY_FILE), path.join(dir, `${KEY_FILE}.old`));

    s = await store(dir, undefined, [oldKey]);
    expect(s.box.keyId).not.toBe(keyIdOf(parseKey(oldKey, 'k')));
    const row = await s.db.selectFrom('users').select('totpSecret').where('id', '=', SUPER_ADMIN_ID).executeTakeFirstOrThrow();
    expect(s.box.isCurrent(row.totpSecret)).toBe(true);
    await s.db.destroy();
  });
});
