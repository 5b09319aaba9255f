import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { CamelCasePlugin, Kysely, Migrator, SqliteDialect, type SqliteDatabase } from 'kysely';
import { WriteCounter } from './changes.ts';
import type { Config } from '../config.ts';
import { loadSecretBox, type SecretBox } from '../lib/secret-box.ts';
import { migrationProvider } from './migrations.ts';
import type { DB } from './schema.ts';
import { resealSecrets } from './sealed.ts';

export type Db = Kysely<DB>;

const counters = new WeakMap<Db, WriteCounter>();

/** The write counter of a database opened here (see db/changes.ts). */
export function writesOf(db: Db): WriteCounter {
  const c = counters.get(db);
  if (!c) throw new Error('writesOf(): not a database from openDatabase()');
  return c;
}

/** Owner-only modes: the data folder and what it holds carry password hashes and sealed secrets. */
export const DIR_MODE = 0o700;
export const FILE_MODE = 0o600;

/** Creates a folder (and missing parents) owner-only, and makes an existing one owner-only. */
export function ensurePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: DIR_MODE });
  fs.chmodSync(dir, DIR_MODE);
}

/** SQLite creates -wal and -shm with the main file's mode; chmod them too, in case an older start made them 0644. */
function makeOwnerOnly(file: string): void {
  for (const f of [file, `${file}-wal`, `${file}-shm`]) {
    if (fs.existsSync(f)) fs.chmodSync(f, FILE_MODE);
  }
}

/**
 * Opens the database named by a `sqlite:<file>` URL and brings its schema up to date; values sealed by an old
 * secret-box key are sealed again with the current one (db/sealed.ts). The dialect is chosen here only; modules
 * see a plain Kysely<DB>. The file and its -wal/-shm are 0600, a folder created for it 0700.
 */
export async function openDatabase(url: string, box: SecretBox): Promise<Db> {
  if (!url.startsWith('sqlite:')) throw new Error(`unsupported database URL: ${url}`);
  const file = path.resolve(url.slice('sqlite:'.length));
  if (!fs.existsSync(path.dirname(file))) ensurePrivateDir(path.dirname(file));
  fs.closeSync(fs.openSync(file, 'a', FILE_MODE));
  makeOwnerOnly(file);
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL'); // safe with WAL, far fewer fsyncs
  sqlite.pragma('busy_timeout = 5000');
  // Deleted or overwritten content is zeroed, not left in free pages: a secret replaced by its sealed form (or a
  // dropped shown-once token) does not linger in the file's bytes.
  sqlite.pragma('secure_delete = ON');
  // The counter comes first so it sees the query-builder (camelCase) table names.
  const writes = new WriteCounter();
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }), plugins: [writes, new CamelCasePlugin()] });
  counters.set(db, writes);
  await migrate(db, box);
  makeOwnerOnly(file);
  await resealSecrets(db, box);
  return db;
}

/**
 * Kysely prepares every query anew; preparing costs more than running the small queries auth makes on each
 * request. Keep prepared statements by SQL text (bounded: queries are built from code, values are bound).
 */
function withStatementCache(sqlite: Database.Database): SqliteDatabase {
  const cache = new Map<string, Database.Statement>();
  return {
    close: () => sqlite.close(),
    prepare: (query: string) => {
      let stmt = cache.get(query);
      if (!stmt) {
        stmt = sqlite.prepare(query);
        if (cache.size >= 500) cache.clear();
        cache.set(query, stmt);
      }
      return stmt;
    },
  } as SqliteDatabase;
}

/** What every start does before serving: data folder 0700, secret box key loaded (or created), database opened. */
export async function openStore(config: Pick<Config, 'dataDir' | 'database' | 'secretKey' | 'secretKeysOld'>): Promise<{ db: Db; box: SecretBox }> {
  ensurePrivateDir(config.dataDir);
  const box = loadSecretBox(config);
  return { db: await openDatabase(config.database, box), box };
}

export async function migrate(db: Db, box: SecretBox): Promise<void> {
  const { error, results } = await new Migrator({ db, provider: migrationProvider(box) }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}
