import { loadCatalogue } from '../../../server/permissions/catalogue.ts';
import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../server/config.ts';
import { openDatabase } from '../../../server/db/index.ts';
import { createSecretBox, newKey, parseKey } from '../../../server/lib/secret-box.ts';
import { seed } from '../../../server/seed.ts';
import { PASSWORD_MSG } from '../../../server/lib/password.ts';
import { SUPER_ADMIN_ID } from '../../../server/permissions/effective.ts';
import { type Harness, startHarness } from '../harness.ts';
import { identityHarness } from './helpers.ts';

const newUser = (username: string) => ({ username, password: 'user-password', nickname: 'N', type: 'user' });

describe('usernames', () => {
  it('refuses control, format (zero-width), NUL, separator characters and lone surrogates', async () => {
    const { api } = await identityHarness();
    for (const bad of ['a\u0000b', 'a\u0007', 'ab\u200b', '\u200dab', 'a\u202eb', 'a\ufeffb', 'a\u2028b', 'ab\ud800', '\udc00ab', 'a\nb']) {
      const res = await api.call('POST', '/users', { body: newUser(bad) });
      expect(res.body, JSON.stringify(bad)).toMatchObject({ code: 400, message: expect.stringMatching(/^username: no control/) });
    }
    // A well-formed astral character (a surrogate pair) is fine, and so is CJK.
    await api.ok('POST', '/users', { body: newUser('张三😀') });
  });

  it('stores NFC and treats case and composition as the same name, on create and edit', async () => {
    const { h, api } = await identityHarness();
    const decomposed = 'Jose\u0301';
    const created = await api.ok<{ id: string; username: string }>('POST', '/users', { body: newUser(decomposed) });
    expect(created.username).toBe('José'); // composed
    expect(created.username).toBe('Jos\u00e9');
    for (const clash of ['josé', 'JOSÉ', 'jose\u0301', ' José ']) {
      expect((await api.call('POST', '/users', { body: newUser(clash) })).body.message, clash).toMatch(/已被使用/);
    }
    const other = await api.ok<{ id: string }>('POST', '/users', { body: newUser('maria') });
    expect((await api.call('PUT', `/users/${other.id}`, { body: { ...newUser('JOSÉ'), roles: [] } })).body.message).toMatch(/已被使用/);
    // Renaming oneself to another case of the same name is fine.
    await api.ok('PUT', `/users/${other.id}`, { body: { ...newUser('Maria'), roles: [] } });
    const row = await h.db.selectFrom('users').select(['username', 'usernameKey']).where('id', '=', other.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ username: 'Maria', usernameKey: 'maria' });
  });

  it('logs in by any case or composition of the name', async () => {
    const h = await startHarness();
    await h.createUser({ username: 'José', password: 'jose-password' });
    for (const typed of ['José', 'josé', 'JOSÉ', 'Jose\u0301']) expect(typeof (await h.login(typed, 'jose-password'))).toBe('string');
  });

  it('treats compatibility look-alikes (full-width, ligatures) and case folding as the same name', async () => {
    const { api } = await identityHarness();
    for (const clash of ['ＡＤＭＩＮ', 'Ａdmin', 'ａｄｍｉｎ ']) {
      expect((await api.call('POST', '/users', { body: newUser(clash) })).body.message, clash).toMatch(/已被使用/);
    }
    await api.ok('POST', '/users', { body: newUser('Straße') });
    await api.ok('POST', '/users', { body: newUser('ﬁle') });
    for (const clash of ['STRASSE', 'strasse', 'file', 'FILE']) {
      expect((await api.call('POST', '/users', { body: newUser(clash) })).body.message, clash).toMatch(/已被使用/);
    }
  });

  it('migration 012 recomputes the keys; accounts that now collide stay and log in by their exact name', async () => {
    // Back to before 012, with the keys 005's rule (NFC + lower case) gave: look-alikes of admin and bob that it let
    // in, 'Ｂｏｂ' older than 'bob' (its new key is the one 'bob' holds), and a key that only changes form.
    await onOldDatabase(`DROP TABLE operation_logs; ALTER TABLE assets DROP COLUMN host_key; ALTER TABLE access_gateways DROP COLUMN host_key;
        ALTER TABLE sessions DROP COLUMN recording_failure; ALTER TABLE sessions DROP COLUMN recording_failed_at;
        DELETE FROM kysely_migration WHERE name >= '012';
        INSERT INTO users (id, username, username_key, password, created) SELECT 'u1', 'ＡＤＭＩＮ', 'ａｄｍｉｎ', password, 2 FROM users WHERE username = 'admin';
        INSERT INTO users (id, username, username_key, password, created) SELECT 'u2', 'Ｂｏｂ', 'ｂｏｂ', password, 3 FROM users WHERE username = 'admin';
        INSERT INTO users (id, username, username_key, password, created) SELECT 'u3', 'bob', 'bob', password, 4 FROM users WHERE username = 'admin';
        INSERT INTO users (id, username, username_key, password, created) SELECT 'u4', 'Straße', 'straße', password, 5 FROM users WHERE username = 'admin';`, async (h) => {
      const keys = await h.db.selectFrom('users').select(['username', 'usernameKey']).orderBy('created').execute();
      expect(keys).toEqual([
        { username: 'admin', usernameKey: 'admin' },
        { username: 'ＡＤＭＩＮ', usernameKey: 'admin\u0000u1' },
        { username: 'Ｂｏｂ', usernameKey: 'bob\u0000u2' },
        { username: 'bob', usernameKey: 'bob' },
        { username: 'Straße', usernameKey: 'strasse' },
      ]);
      const idOf = async (typed: string) => ((await h.call('POST', '/login', { body: { username: typed, password: 'Admin-Test-Pass-1' } })).body.data as { info: { id: string } }).info.id;
      expect(await idOf('ＡＤＭＩＮ')).toBe('u1');
      expect(await idOf('Admin')).toBe(SUPER_ADMIN_ID);
      expect(await idOf('Ｂｏｂ')).toBe('u2');
      expect(await idOf('BOB')).toBe('u3');
      expect(await idOf('STRASSE')).toBe('u4');
      // New collisions are refused.
      const token = await h.login('admin', 'Admin-Test-Pass-1');
      const res = await h.call('POST', '/users', { token, body: newUser('ａｄｍｉｎ') });
      expect(res.body.message).toMatch(/已被使用/);
      // A restart runs nothing again.
      await h.restart();
      expect(await h.db.selectFrom('users').select(['username', 'usernameKey']).orderBy('created').execute()).toEqual(keys);
    });
  });

  it('migrates an existing database: keys backfilled, names differing only in case keep logging in by exact name', async () => {
    // Back to the 004 schema with two names that differ only in case (a 1.3.9 import could hold them); the later
    // migrations' tables go too, so that they run again after 005.
    await onOldDatabase(`DROP TABLE login_attempts; DROP INDEX users_username_key; ALTER TABLE users DROP COLUMN username_key;
        DROP TABLE credentials; DROP TABLE access_gateways; DROP TABLE commands;
        DROP TABLE session_commands; DROP TABLE storage_logs; DROP INDEX login_logs_state; DROP INDEX login_logs_client_ip;
        DROP INDEX tokens_expires; DROP INDEX tokens_login_log;
        DROP TABLE authorised; DROP TABLE strategies; DROP TABLE sessions; DROP TABLE asset_tags; DROP TABLE tags; DROP TABLE asset_attributes; DROP TABLE assets;
        DROP TABLE operation_logs;
        DELETE FROM kysely_migration WHERE name >= '005';
        INSERT INTO users (id, username, password, created) SELECT 'u1', 'Bob', password, 2 FROM users WHERE username = 'admin';
        INSERT INTO users (id, username, password, created) SELECT 'u2', 'bob', password, 3 FROM users WHERE username = 'admin';`, async (h) => {
      const keys = await h.db.selectFrom('users').select(['username', 'usernameKey']).orderBy('created').execute();
      expect(keys).toEqual([
        { username: 'admin', usernameKey: 'admin' },
        { username: 'Bob', usernameKey: 'bob' },
        { username: 'bob', usernameKey: 'bob\u0000u2' },
      ]);
      const idOf = async (typed: string) => ((await h.call('POST', '/login', { body: { username: typed, password: 'Admin-Test-Pass-1' } })).body.data as { info: { id: string } }).info.id;
      expect(await idOf('bob')).toBe('u2');
      expect(await idOf('Bob')).toBe('u1');
      expect(await idOf('BOB')).toBe('u1');
    });
  });
});

/**
 * A database seeded today, taken back by `sql` to how an older version left it, then opened by the server (which
 * migrates it) for `check`.
 */
async function onOldDatabase(sql: string, check: (h: Harness) => Promise<void>): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jumpgate-test-'));
  try {
    const file = path.join(dir, 'old.db');
    const db = await openDatabase(`sqlite:${file}`, testBox());
    await seed(db, { catalogue: await loadCatalogue(), adminPassword: 'Admin-Test-Pass-1', now: 1 });
    await db.destroy();
    const raw = new Database(file);
    raw.exec(sql);
    raw.close();
    await check(await startHarness({ env: { JUMPGATE_DATABASE: `sqlite:${file}` } }));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A box for databases opened outside the harness (nothing sealed is read back here). */
const testBox = () => createSecretBox(parseKey(newKey(), 'test'));

describe('password rules', () => {
  it('JUMPGATE_ADMIN_PASSWORD follows them: a clear start-up error', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jumpgate-test-'));
    try {
      const db = await openDatabase(`sqlite:${path.join(dir, 'a.db')}`, testBox());
      await expect(seed(db, { catalogue: await loadCatalogue(), adminPassword: 'short', now: 1 })).rejects.toThrow(ConfigError);
      await expect(seed(db, { catalogue: await loadCatalogue(), adminPassword: 'é'.repeat(37), now: 1 })).rejects.toThrow(/JUMPGATE_ADMIN_PASSWORD: needs at least 8 characters and at most 72 bytes/);
      expect(await db.selectFrom('users').select('id').execute()).toEqual([]);
      await seed(db, { catalogue: await loadCatalogue(), adminPassword: 'long-enough', now: 1 });
      await db.destroy();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('counts characters for the minimum and UTF-8 bytes for the maximum', async () => {
    const { h, api } = await identityHarness();
    const id = await h.createUser({ username: 'pat' });
    const set = (password: string) => api.call('POST', `/users/${id}/change-password`, { body: { password } });
    expect((await set('密码密码密码密')).body.message).toBe(PASSWORD_MSG.tooShort); // 7 characters, 21 bytes
    expect((await set('密码密码密码密码')).body.code).toBe(1); // 8 characters
    expect((await set('密'.repeat(24))).body.code).toBe(1); // 72 bytes
    expect((await set(`${'密'.repeat(24)}x`)).body.message).toBe(PASSWORD_MSG.tooLong); // 73 bytes
    await h.login('pat', '密'.repeat(24));
  });
});
