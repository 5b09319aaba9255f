import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { generate } from 'otplib';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../server/db/index.ts';
import { migrationProvider } from '../../server/db/migrations.ts';
import { sha256 } from '../../server/lib/ids.ts';
import { KEY_FILE, loadSecretBox } from '../../server/lib/secret-box.ts';
import { SUPER_ADMIN_ID } from '../../server/permissions/effective.ts';
import { newKey } from './resources/helpers.ts';
import { ADMIN_PASSWORD, startHarness } from './harness.ts';

const dirs: string[] = [];
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'jumpgate-rest-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const mode = (file: string) => fs.statSync(file).mode & 0o777;
/** The database as bytes: main file, WAL and shared-memory index. */
const fileBytes = (db: string) => Buffer.concat([db, `${db}-wal`, `${db}-shm`].filter((f) => fs.existsSync(f)).map((f) => fs.readFileSync(f)));

describe('file modes', () => {
  it('creates the data folder 0700, the database, its -wal/-shm and the key file 0600', async () => {
    const previous = process.umask(0o022); // the usual umask, which would give 0755/0644
    try {
      const dataDir = path.join(tmp(), 'nested', 'data');
      const database = path.join(dataDir, 'jumpgate.db');
      const { db } = await openStore({ dataDir, database: `sqlite:${database}`, secretKeysOld: [] });
      await db.insertInto('properties').values({ name: 'x', value: 'y' }).execute(); // the WAL gets written
      expect(mode(dataDir)).toBe(0o700);
      for (const f of [database, `${database}-wal`, `${database}-shm`, path.join(dataDir, KEY_FILE)]) expect(mode(f), f).toBe(0o600);
      await db.destroy();
    } finally {
      process.umask(previous);
    }
  });

  it('tightens an existing folder and files left 0755/0644 by an older start', async () => {
    const dataDir = tmp();
    const database = path.join(dataDir, 'jumpgate.db');
    fs.chmodSync(dataDir, 0o755);
    new Database(database).close();
    fs.chmodSync(database, 0o644);
    fs.writeFileSync(path.join(dataDir, KEY_FILE), `${Buffer.alloc(32, 1).toString('base64')}\n`, { mode: 0o644 });
    const { db } = await openStore({ dataDir, database: `sqlite:${database}`, secretKeysOld: [] });
    expect(mode(dataDir)).toBe(0o700);
    expect(mode(database)).toBe(0o600);
    expect(mode(path.join(dataDir, KEY_FILE))).toBe(0o600);
    await db.destroy();
  });
});

describe('migrations seal what 1.3.9-era rows kept in clear', () => {
  it('encrypts plain TOTP seeds (sentinels kept) and hashes plain access tokens', async () => {
    const dataDir = tmp();
    const file = path.join(dataDir, 'jumpgate.db');
    const box = loadSecretBox({ dataDir });
    // A database as it was before these migrations (up to 002), with plain secrets in it.
    // biome-ignore lint/suspicious/noExplicitAny: the schema as it was then, not today's DB type.
    const old = new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(file) }) });
    const { error } = await new Migrator({ db: old, provider: migrationProvider(box) }).migrateTo('002_user_list_indexes');
    expect(error).toBeUndefined();
    const user = (id: string, totp: string) => ({ id, username: id, password: 'x', totp_secret: totp, created: 0 });
    await old.insertInto('users').values([user('a', 'JBSWY3DPEHPK3PXP'), user('b', '-'), user('c', '')]).execute();
    const plainToken = 'forever-0b5d2c64-8a4e-4f3e-9d1c-1234567890ab';
    await old.insertInto('access_token').values({ id: 't1', user_id: 'a', token: plainToken, created: 0 }).execute();
    await old.destroy();

    const { db } = await openStore({ dataDir, database: `sqlite:${file}`, secretKeysOld: [] });
    const users = await db.selectFrom('users').select(['id', 'totpSecret', 'totpLastStep']).orderBy('id').execute();
    expect(users.map((u) => [u.id, u.totpSecret === '-' || u.totpSecret === '' ? u.totpSecret : box.decrypt(u.totpSecret), u.totpLastStep])).toEqual([
      ['a', 'JBSWY3DPEHPK3PXP', 0],
      ['b', '-', 0],
      ['c', '', 0],
    ]);
    expect(await db.selectFrom('accessToken').selectAll().execute()).toEqual([{ id: 't1', userId: 'a', tokenHash: sha256(plainToken), hint: 'forever-…90ab', shown: null, created: 0 }]);
    await db.destroy();
    const bytes = fileBytes(file);
    expect(bytes.includes('JBSWY3DPEHPK3PXP'), 'TOTP seed in the file').toBe(false);
    expect(bytes.includes(plainToken), 'access token in the file').toBe(false);
  });
});

describe('migration 013 seals Kubernetes client keys stored in clear', () => {
  it('seals a plain client-key attribute, leaves a sealed one and the other attributes as they are', async () => {
    const dataDir = tmp();
    const file = path.join(dataDir, 'jumpgate.db');
    const box = loadSecretBox({ dataDir });
    // biome-ignore lint/suspicious/noExplicitAny: the schema as it was then, not today's DB type.
    const old = new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(file) }) });
    const { error } = await new Migrator({ db: old, provider: migrationProvider(box) }).migrateTo('012_username_key_nfkc');
    expect(error).toBeUndefined();
    const plainKey = '-----BEGIN PRIVATE KEY-----\nK8S-CLIENT-KEY-IN-CLEAR-42\n-----END PRIVATE KEY-----';
    const asset = (id: string) => ({ id, name: id, protocol: 'kubernetes', ip: 'k8s', port: 6443, account_type: 'custom', username: '', description: '', active: 0, active_message: '', created: 0, owner: 'o' });
    await old.insertInto('assets').values([asset('a1'), asset('a2')]).execute();
    const alreadySealed = box.encrypt('Already-Sealed-Client-Key');
    await old
      .insertInto('asset_attributes')
      .values([
        { id: 'x1', asset_id: 'a1', name: 'client-key', value: plainKey },
        { id: 'x2', asset_id: 'a1', name: 'client-cert', value: 'CERT' },
        { id: 'x3', asset_id: 'a2', name: 'client-key', value: alreadySealed },
      ])
      .execute();
    await old.destroy();

    const { db } = await openStore({ dataDir, database: `sqlite:${file}`, secretKeysOld: [] });
    const attrs = await db.selectFrom('assetAttributes').select(['id', 'value']).orderBy('id').execute();
    expect(box.decrypt(attrs[0]!.value)).toBe(plainKey);
    expect(attrs.slice(1)).toEqual([
      { id: 'x2', value: 'CERT' },
      { id: 'x3', value: alreadySealed },
    ]);
    await db.destroy();
    expect(fileBytes(file).includes('K8S-CLIENT-KEY-IN-CLEAR-42'), 'client key in the file').toBe(false);
  });
});

describe('no plain secret in the database file', () => {
  it('after TOTP set-up, TOTP logins and an access token created, shown and used', async () => {
    const h = await startHarness();
    const token = await h.login('admin', ADMIN_PASSWORD);
    const { secret } = (await h.call('GET', '/account/reload-totp', { token })).body.data as { secret: string };
    const code = () => generate({ secret, epoch: Math.floor(h.clock.now() / 1000) });
    expect((await h.call('POST', '/account/confirm-totp', { token, body: { secret, totp: await code() } })).body.code).toBe(1);
    h.clock.advance(30_000);
    const second = (await h.call('POST', '/login', { body: { username: 'admin', password: ADMIN_PASSWORD, totp: await code() } })).body.data as { token: string };
    await h.call('POST', '/account/access-token', { token: second.token });
    const pat = ((await h.call('GET', '/account/access-token', { token: second.token })).body.data as { token: string }).token;
    expect(pat).toMatch(/^forever-/);
    expect((await h.call('GET', '/account/info', { token: pat })).body.code).toBe(1);
    // A second token created and read (the first one's shown copy and row are gone).
    await h.call('POST', '/account/access-token', { token: second.token });
    const pat2 = ((await h.call('GET', '/account/access-token', { token: second.token })).body.data as { token: string }).token;

    const file = h.config.database.slice('sqlite:'.length);
    for (const [what, bytes] of [
      ['while running', fileBytes(file)],
      ['after a restart', await h.restart().then(() => fileBytes(file))],
    ] as const) {
      for (const [name, plain] of Object.entries({ secret, pat, pat2, token, login: second.token })) {
        expect(bytes.includes(plain), `${name} ${what}`).toBe(false);
      }
    }
  });
});

describe('credential and gateway secrets are sealed in the database file', () => {
  it('after creates and edits (password, private key, passphrase), and a restart', async () => {
    const h = await startHarness();
    const token = await h.accessToken(SUPER_ADMIN_ID);
    const passphrase = 'Rest-Passphrase-7f3a';
    const key = newKey(passphrase);
    const plain = { credPassword: 'Rest-Cred-Password-51c2', gwPassword: 'Rest-Gateway-Password-90ab', editedPassword: 'Rest-Edited-Password-3e1d', passphrase };
    const call = async (method: string, url: string, body: object) => expect((await h.call(method, url, { token, body })).body.code, `${method} ${url}`).toBe(1);
    await call('POST', '/credentials', { name: 'pw', type: 'custom', username: 'root', password: plain.credPassword });
    await call('POST', '/credentials', { name: 'key', type: 'private-key', username: 'root', privateKey: key.privateKey, passphrase });
    await call('POST', '/access-gateways', { name: 'gw', ip: '127.0.0.1', port: 1, accountType: 'custom', username: 'root', password: plain.gwPassword });
    await call('POST', '/access-gateways', { name: 'gw-key', ip: '127.0.0.1', port: 1, accountType: 'private-key', username: 'root', privateKey: key.privateKey, passphrase });
    const [cred] = await h.db.selectFrom('credentials').select('id').where('name', '=', 'pw').execute();
    await call('PUT', `/credentials/${cred!.id}`, { name: 'pw', type: 'custom', password: plain.editedPassword });

    // Every base64 line of the key, not only the whole text (a page may split it).
    const keyLines = key.privateKey.split('\n').filter((l) => l.length >= 20 && !l.startsWith('-----'));
    const file = h.config.database.slice('sqlite:'.length);
    for (const [what, bytes] of [
      ['while running', fileBytes(file)],
      ['after a restart', await h.restart().then(() => fileBytes(file))],
    ] as const) {
      for (const [name, value] of Object.entries(plain)) expect(bytes.includes(value), `${name} ${what}`).toBe(false);
      for (const line of keyLines) expect(bytes.includes(line), `a private key line ${what}`).toBe(false);
    }
  });
});

describe('no plain asset secret in the database file', () => {
  it('after assets are created, edited, copied and imported with passwords, keys, passphrases and SOCKS passwords', async () => {
    const h = await startHarness();
    const token = await h.accessToken(SUPER_ADMIN_ID);
    const secrets = { password: 'At-Rest-Pass-1', passphrase: 'At-Rest-Passphrase', socks: 'At-Rest-Socks-Pass', edited: 'At-Rest-Edited-Pass', csv: 'At-Rest-Csv-Pass' };
    const key = newKey(secrets.passphrase).privateKey;
    const keyLines = key.split('\n').filter((l) => l.length >= 20 && !l.startsWith('-----'));
    const asset = (over: Record<string, unknown>) => ({ name: 'a', protocol: 'ssh', ip: '10.0.0.1', port: 22, accountType: 'custom', username: 'root', ...over });
    const call = async (method: string, url: string, body?: unknown) => {
      const res = await h.call(method, url, { token, body });
      expect(res.body.code, res.text).toBe(1);
      return res.body.data as { id: string };
    };
    const { id } = await call('POST', '/assets', asset({ password: secrets.password, 'socks-proxy-enable': true, 'socks-proxy-password': secrets.socks }));
    await call('POST', '/assets', asset({ name: 'k', accountType: 'private-key', privateKey: key, passphrase: secrets.passphrase }));
    await call('POST', '/assets', asset({ name: 'copy', copyFrom: id }));
    await call('PUT', `/assets/${id}`, asset({ password: secrets.edited, 'socks-proxy-enable': true }));
    const B = 'b';
    const csv = `--${B}\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nc,ssh,h,22,u,${secrets.csv},,,d\r\n--${B}--\r\n`;
    expect((await h.call('POST', '/assets/import', { token, raw: csv, contentType: `multipart/form-data; boundary=${B}` })).body.code).toBe(1);

    const file = h.config.database.slice('sqlite:'.length);
    for (const [what, bytes] of [
      ['while running', fileBytes(file)],
      ['after a restart', await h.restart().then(() => fileBytes(file))],
    ] as const) {
      for (const [name, plain] of Object.entries(secrets)) expect(bytes.includes(plain), `${name} ${what}`).toBe(false);
      for (const line of keyLines) expect(bytes.includes(line), `a private key line ${what}`).toBe(false);
    }
  });
});
