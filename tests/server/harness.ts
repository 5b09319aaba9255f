import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { type Config, loadConfig } from '../../server/config.ts';
import { type Db, openStore } from '../../server/db/index.ts';
import { SEALED_COLUMNS, sealedValues } from '../../server/db/sealed.ts';
import { type SeedResult, seed } from '../../server/seed.ts';
import type { Envelope } from '../../server/http/envelope.ts';
import type { Module } from '../../server/http/routes.ts';
import type { AppDeps } from '../../server/modules/index.ts';
import { isStaticPath } from '../../server/http/static.ts';
import { ManualClock } from '../../server/lib/clock.ts';
import { sha256, uuid } from '../../server/lib/ids.ts';
import { hashPassword } from '../../server/lib/password.ts';
import type { SecretBox } from '../../server/lib/secret-box.ts';
import { usernameKey } from '../../server/lib/username.ts';
import { accessTokenHint } from '../../server/permissions/tokens.ts';
import { modules as defaultModules } from '../../server/modules/index.ts';
import type { PermissionKey, PluginManifest } from '../../shared/manifest.ts';
import { loadCatalogue, type ServerCatalogue } from '../../server/permissions/catalogue.ts';

export const ADMIN_PASSWORD = 'Admin-Test-Pass-1';

export interface CallOptions {
  token?: string;
  /** JSON body (serialized) — or a raw body (string or bytes) with `contentType`. */
  body?: unknown;
  raw?: string | Buffer;
  contentType?: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
}

export interface CallResult {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  /** Parsed JSON (an envelope for API routes); undefined when the body is not JSON. */
  body: Envelope;
  text: string;
}

export interface HarnessOptions {
  /** Admin password for the first start; null = let the server generate one. */
  adminPassword?: string | null;
  env?: Record<string, string>;
  distDir?: string;
  modules?: readonly Module<AppDeps>[];
  /** Manifests added to the product's (every plugins/<id>/manifest.ts): an integrator's plugin, the probe's keys. */
  manifests?: readonly PluginManifest[];
  /** Receives the server log (JSON lines, level info) — the product's logger options; no log when absent. */
  logStream?: { write(line: string): void };
}

export interface Harness {
  app: FastifyInstance;
  db: Db;
  /** The secret box the server was started with (key file in the data folder, or `env.JUMPGATE_SECRET_KEY`). */
  box: SecretBox;
  clock: ManualClock;
  config: Config;
  /** The permission keys this server runs with (the product's manifests plus `manifests`). */
  catalogue: ServerCatalogue;
  dataDir: string;
  seeded: SeedResult;
  call(method: string, url: string, opts?: CallOptions): Promise<CallResult>;
  /** Logs in and returns the token (fails the test on anything but success). */
  login(username: string, password: string, extra?: { remember?: boolean; totp?: string }): Promise<string>;
  /**
   * Makes the app listen on 127.0.0.1 (a free port) for what `inject` cannot do (WebSockets) and returns its base URL
   * `http://127.0.0.1:<port>`. After `restart()` the new app listens again only when asked.
   */
  listen(): Promise<string>;
  /** Closes the app and database and builds new ones on the same data folder (a server restart). */
  restart(): Promise<void>;
  close(): Promise<void>;
  /** Inserts a user directly (the identity routes do not exist yet). Returns its id. */
  createUser(u: { username: string; password?: string; type?: 'user' | 'admin'; status?: 'enabled' | 'disabled'; roles?: string[] }): Promise<string>;
  /** Inserts a role granting exactly these keys. Returns its id. */
  createRole(menus: readonly PermissionKey[], name?: string): Promise<string>;
  /** A personal access token for the user, created directly in the database (stored hashed, as the server does). */
  accessToken(userId: string): Promise<string>;
}

const open = new Set<Harness>();

// One bcrypt hash per test password: createUser runs hundreds of times in the matrices, and a fresh salt per
// user tests nothing there (login.test.ts covers hashing).
const hashes = new Map<string, Promise<string>>();
const testHash = (password: string) => {
  let h = hashes.get(password);
  if (!h) {
    h = hashPassword(password);
    hashes.set(password, h);
  }
  return h;
};

/** Closes every harness a test left open; called after each test by tests/setup/server.ts. */
export async function closeAll(): Promise<void> {
  await Promise.all([...open].map((h) => h.close()));
}

/** Plain secrets shorter than this are not looked for in answers (too likely to occur by chance); tests use longer ones. */
const MIN_CHECKED_SECRET = 8;

// Nothing a client can see may carry a bcrypt hash, or any value of a sealed column (SEALED_COLUMNS: TOTP seeds,
// asset secrets…), sealed or opened (1.3.9 quirks 4 and 7).
async function assertNoSecrets(db: Db, box: SecretBox, text: string): Promise<void> {
  expect(text, 'response carries a bcrypt hash').not.toMatch(/\$2[aby]\$\d\d\$/);
  for (const column of SEALED_COLUMNS) {
    for (const { key, value } of await sealedValues(db, column)) {
      const what = `${column.table}.${column.column} of ${key}`;
      expect(text.includes(value), `response carries the sealed ${what}`).toBe(false);
      const plain = box.decrypt(value);
      if (plain.length >= MIN_CHECKED_SECRET) expect(text.includes(plain), `response carries the secret ${what}`).toBe(false);
    }
  }
}

export async function startHarness(opts: HarnessOptions = {}): Promise<Harness> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'jumpgate-test-'));
  const adminPassword = opts.adminPassword === null ? undefined : (opts.adminPassword ?? ADMIN_PASSWORD);
  const config: Config = {
    ...loadConfig(['--data', dataDir], { ...opts.env }),
    ...(opts.distDir ? { distDir: opts.distDir } : { distDir: path.join(dataDir, 'no-dist') }),
    adminPassword,
  };
  const clock = new ManualClock();
  const catalogue = await loadCatalogue(opts.manifests);

  const boot = async () => {
    const { db, box } = await openStore(config);
    const seeded = await seed(db, { catalogue, adminPassword: config.adminPassword, now: clock.now() });
    let app: FastifyInstance;
    try {
      const logger = opts.logStream ? { level: 'info', stream: opts.logStream } : undefined;
      // A test module named as a default one replaces it (the echo relay's sessions module); others are added.
      const extra = opts.modules ?? [];
      const modules = [...defaultModules.filter((m) => !extra.some((e) => e.name === m.name)), ...extra];
      app = await buildApp({ config, db, box, clock, catalogue, logger, modules });
      await app.ready();
    } catch (error) {
      await db.destroy(); // a start that fails (e.g. a gate no manifest grants) leaves nothing open
      throw error;
    }
    return { db, box, app, seeded };
  };

  let state = await boot();
  let closed = false;

  const h: Harness = {
    get app() {
      return state.app;
    },
    get db() {
      return state.db;
    },
    get box() {
      return state.box;
    },
    get seeded() {
      return state.seeded;
    },
    clock,
    config,
    catalogue,
    dataDir,

    async call(method, url, o = {}) {
      const headers: Record<string, string> = { ...o.headers };
      if (o.token) headers['x-auth-token'] = o.token;
      let payload: string | Buffer | undefined;
      if (o.raw !== undefined) {
        payload = o.raw;
        headers['content-type'] = o.contentType ?? 'application/json';
      } else if (o.body !== undefined) {
        payload = JSON.stringify(o.body);
        headers['content-type'] = 'application/json';
      }
      // biome-ignore lint/suspicious/noExplicitAny: light-my-request's method type is a string union we pass through unchecked on purpose (tests send odd methods).
      const res = await state.app.inject({ method: method as any, url, query: o.query, headers, payload });
      await assertNoSecrets(state.db, state.box, res.body);
      let body: Envelope;
      try {
        body = JSON.parse(res.body) as Envelope;
      } catch {
        body = undefined as unknown as Envelope; // not JSON (static files)
      }
      // Contract §1.2: every envelope answer is HTTP 200, whatever its code (the 1.3.9 console hangs on HTTP errors);
      // static paths answer real statuses and never an envelope. Checked on every call of every test.
      const isEnvelope = typeof body === 'object' && body !== null && typeof body.code === 'number' && typeof body.message === 'string';
      if (isEnvelope) expect(res.statusCode, `${method} ${url}: an envelope answer must be HTTP 200`).toBe(200);
      if (isStaticPath(new URL(url, 'http://h').pathname)) expect(isEnvelope, `${method} ${url}: a static path must not answer an envelope`).toBe(false);
      return { status: res.statusCode, headers: res.headers, body, text: res.body };
    },

    async login(username, password, extra = {}) {
      const res = await h.call('POST', '/login', { body: { username, password, remember: false, totp: '', ...extra } });
      expect(res.body, `login ${username}`).toMatchObject({ code: 1 });
      return (res.body.data as { token: string }).token;
    },

    async listen() {
      await state.app.listen({ host: '127.0.0.1', port: 0 });
      const address = state.app.server.address();
      if (!address || typeof address === 'string') throw new Error('the app did not listen on a TCP port');
      return `http://127.0.0.1:${address.port}`;
    },

    async restart() {
      await state.app.close();
      await state.db.destroy();
      state = await boot();
    },

    async close() {
      if (closed) return;
      closed = true;
      open.delete(h);
      await state.app.close();
      await state.db.destroy();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },

    async createUser(u) {
      const id = uuid();
      await state.db
        .insertInto('users')
        .values({
          id,
          username: u.username,
          usernameKey: usernameKey(u.username),
          password: await testHash(u.password ?? 'Passw0rd!'),
          nickname: u.username,
          totpSecret: '-',
          online: 0,
          status: u.status ?? 'enabled',
          type: u.type ?? 'user',
          mail: '',
          source: '',
          created: clock.now(),
        })
        .execute();
      for (const roleId of u.roles ?? []) await state.db.insertInto('usersRolesRef').values({ id: uuid(), userId: id, roleId }).execute();
      return id;
    },

    async createRole(menus, name = 'test role') {
      const id = uuid();
      await state.db.insertInto('roles').values({ id, name, type: 'new', deletable: 1, modifiable: 1, created: clock.now() }).execute();
      if (menus.length) await state.db.insertInto('rolesMenusRef').values(menus.map((menuId) => ({ id: uuid(), roleId: id, menuId, checked: 1 }))).execute();
      return id;
    },

    async accessToken(userId) {
      const token = `forever-${uuid()}`;
      await state.db.deleteFrom('accessToken').where('userId', '=', userId).execute();
      await state.db.insertInto('accessToken').values({ id: uuid(), userId, tokenHash: sha256(token), hint: accessTokenHint(token), shown: null, created: clock.now() }).execute();
      return token;
    },
  };
  open.add(h);
  return h;
}
