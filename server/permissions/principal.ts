import { type Db, writesOf } from '../db/index.ts';
import { prepared } from '../db/prepared.ts';
import type { User } from '../db/schema.ts';
import { sha256 } from '../lib/ids.ts';
import { ACCESS_TOKEN_PREFIX, endLoginTokens, SLIDE_AFTER_MS, ttlOf } from './tokens.ts';
import { accessOf, SUPER_ADMIN_ID } from './effective.ts';
import { forbidden, unauthorized } from '../http/envelope.ts';
import type { Deps, Gate, Gatekeeper, Principal, PrincipalUser, UserAccess } from '../http/access.ts';

export const totpEnabled = (secret: string) => secret !== '' && secret !== '-';

const USER_COLUMNS = ['u.id', 'u.username', 'u.nickname', 'u.type', 'u.status', 'u.totpSecret'] as const;

type UserRow = Pick<User, 'id' | 'username' | 'nickname' | 'type' | 'status' | 'totpSecret'>;
type LoginRow = UserRow & { expiresAt: number; refreshedAt: number; remember: number };

/** Writes to these tables can change what a token resolves to (login, logout, slide, user edits). */
const TOKEN_TABLES = ['tokens', 'users', 'accessToken'] as const;

interface PerDb {
  byLoginToken: (tokenId: string) => Promise<LoginRow[]>;
  byAccessToken: (tokenHash: string) => Promise<UserRow[]>;
  /** Found rows by token hash (login or access token), valid while TOKEN_TABLES see no write (db/changes.ts). */
  rows: Map<string, { version: number; row: LoginRow | UserRow }>;
}
const perDb = new WeakMap<Db, PerDb>();

function stateOf(db: Db): PerDb {
  let s = perDb.get(db);
  if (!s) {
    s = {
      // Compiled once per database (db/prepared.ts): they run on every request.
      byLoginToken: prepared(db, (tokenId: string) =>
        db.selectFrom('tokens as t').innerJoin('users as u', 'u.id', 't.userId').select([...USER_COLUMNS, 't.expiresAt', 't.refreshedAt', 't.remember']).where('t.id', '=', tokenId),
      ),
      byAccessToken: prepared(db, (tokenHash: string) => db.selectFrom('accessToken as t').innerJoin('users as u', 'u.id', 't.userId').select(USER_COLUMNS).where('t.tokenHash', '=', tokenHash)),
      rows: new Map(),
    };
    perDb.set(db, s);
  }
  return s;
}

/** The token's row, from the cache when no relevant write happened since it was read. Unknown tokens are not cached. */
async function lookup<R extends UserRow>(db: Db, key: string, query: (key: string) => Promise<R[]>): Promise<R | undefined> {
  const state = stateOf(db);
  const version = writesOf(db).version(TOKEN_TABLES);
  const hit = state.rows.get(key);
  if (hit && hit.version === version) return hit.row as R;
  const row = (await query(key))[0];
  if (row) {
    if (state.rows.size >= 10_000) state.rows.clear();
    state.rows.set(key, { version, row });
  }
  return row;
}

async function resolvePrincipal(deps: Pick<Deps, 'db' | 'clock' | 'catalogue'>, token: string | undefined): Promise<Principal | null> {
  if (!token || token.length > 200) return null;
  const { db, clock, catalogue } = deps;
  const state = stateOf(db);
  let row: UserRow | undefined;
  let tokenId: string | null = null;

  if (token.startsWith(ACCESS_TOKEN_PREFIX)) {
    // Stored as its SHA-256 only, like login tokens (cache keys differ: the prefix is part of what is hashed).
    row = await lookup(db, sha256(token), state.byAccessToken);
  } else {
    tokenId = sha256(token);
    const found = await lookup(db, tokenId, state.byLoginToken);
    if (!found) return null;
    const now = clock.now();
    if (found.expiresAt <= now) {
      await endLoginTokens(db, { tokenId }, now);
      return null;
    }
    if (now - found.refreshedAt >= SLIDE_AFTER_MS) {
      await db.updateTable('tokens').set({ expiresAt: now + ttlOf(found.remember), refreshedAt: now }).where('id', '=', tokenId).execute();
    }
    row = found;
  }
  if (!row || row.status === 'disabled') return null;

  const user: PrincipalUser = { id: row.id, username: row.username, nickname: row.nickname, type: row.type, status: row.status, totpEnabled: totpEnabled(row.totpSecret) };
  let access: Promise<UserAccess> | undefined;
  return {
    user,
    tokenId,
    access: () => {
      access ??= accessOf(db, catalogue, user.id);
      return access;
    },
  };
}

/**
 * Applies a route's resolved gate: 'authenticated' = any user type; a key list = admin-type users holding one of
 * those keys (the super admin holds all; an empty list = the super admin only). Throws the 401/403 envelope.
 */
async function authorize(allow: Exclude<Gate, 'anonymous'>, principal: Principal | null): Promise<void> {
  if (!principal) throw unauthorized();
  if (allow === 'authenticated') return;
  if (principal.user.type !== 'admin') throw forbidden();
  if (principal.user.id === SUPER_ADMIN_ID) return;
  const { menus } = await principal.access();
  if (!allow.some((k) => menus.includes(k))) throw forbidden();
}

/** The gatekeeper the routes ask (http/access.ts): tokens resolved against this database and catalogue. */
export function createGatekeeper(deps: Pick<Deps, 'db' | 'clock' | 'catalogue'>): Gatekeeper {
  return { principal: (token) => resolvePrincipal(deps, token), authorize };
}
