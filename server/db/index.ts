import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { CamelCasePlugin, Kysely, Migrator, SqliteDialect, type SqliteDatabase } from 'kysely';
import { WriteCounter } from './changes.ts';
import { migrationProvider } from './migrations.ts';
import type { DB } from './schema.ts';

export type Db = Kysely<DB>;

const counters = new WeakMap<Db, WriteCounter>();

/** The write counter of a database opened here (see db/changes.ts). */
export function writesOf(db: Db): WriteCounter {
  const c = counters.get(db);
  if (!c) throw new Error('writesOf(): not a database from openDatabase()');
  return c;
}

/**
 * Opens the database named by a `sqlite:<file>` URL and brings its schema up to date.
 * The dialect is chosen here only; modules see a plain Kysely<DB>.
 */
export async function openDatabase(url: string): Promise<Db> {
  if (!url.startsWith('sqlite:')) throw new Error(`unsupported database URL: ${url}`);
  const file = url.slice('sqlite:'.length);
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL'); // safe with WAL, far fewer fsyncs
  sqlite.pragma('busy_timeout = 5000');
  // The counter comes first so it sees the query-builder (camelCase) table names.
  const writes = new WriteCounter();
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }), plugins: [writes, new CamelCasePlugin()] });
  counters.set(db, writes);
  await migrate(db);
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

async function migrate(db: Db): Promise<void> {
  const { error, results } = await new Migrator({ db, provider: migrationProvider }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}
