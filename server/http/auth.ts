import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/index.ts';
import { prepared } from '../db/prepared.ts';
import type { User } from '../db/schema.ts';
import { sha256 } from '../lib/ids.ts';
import { ACCESS_TOKEN_PREFIX, endLoginTokens, SLIDE_AFTER_MS, ttlOf } from '../modules/auth/tokens.ts';
import { type Access as UserAccess, accessOf, SUPER_ADMIN_ID } from '../modules/menus/effective.ts';
import { forbidden, unauthorized } from './envelope.ts';
import type { Access, Deps } from './routes.ts';

/** The user fields auth needs; password and TOTP secret stay out. */
export type PrincipalUser = Pick<User, 'id' | 'username' | 'nickname' | 'type' | 'status'> & { totpEnabled: boolean };

/** Who is calling, resolved from the token on every request (nothing is snapshotted at login: quirk 8). */
export interface Principal {
  user: PrincipalUser;
  /** `tokens.id` (SHA-256) of a login token; null for a personal access token. */
  tokenId: string | null;
  /** Role ids and effective menu keys, loaded on first use within the request. */
  access(): Promise<UserAccess>;
}

export const totpEnabled = (secret: string) => secret !== '' && secret !== '-';

/** `X-Auth-Token` header, else the `X-Auth-Token` query parameter (downloads, WebSockets). */
export function tokenOf(req: FastifyRequest): string | undefined {
  const header = req.headers['x-auth-token'];
  if (typeof header === 'string' && header) return header;
  const q = (req.query as Record<string, unknown> | undefined)?.['X-Auth-Token'];
  return typeof q === 'string' && q ? q : undefined;
}

const USER_COLUMNS = ['u.id', 'u.username', 'u.nickname', 'u.type', 'u.status', 'u.totpSecret'] as const;

/** The per-request queries, compiled once per database (see db/prepared.ts). */
function queriesFor(db: Db) {
  let q = cache.get(db);
  if (!q) {
    q = {
      byLoginToken: prepared(db, (tokenId: string) =>
        db.selectFrom('tokens as t').innerJoin('users as u', 'u.id', 't.userId').select([...USER_COLUMNS, 't.expiresAt', 't.refreshedAt', 't.remember']).where('t.id', '=', tokenId),
      ),
      byAccessToken: prepared(db, (token: string) => db.selectFrom('accessToken as t').innerJoin('users as u', 'u.id', 't.userId').select(USER_COLUMNS).where('t.token', '=', token)),
    };
    cache.set(db, q);
  }
  return q;
}
const cache = new WeakMap<Db, { byLoginToken: (id: string) => Promise<LoginRow[]>; byAccessToken: (token: string) => Promise<UserRow[]> }>();
type UserRow = Pick<User, 'id' | 'username' | 'nickname' | 'type' | 'status' | 'totpSecret'>;
type LoginRow = UserRow & { expiresAt: number; refreshedAt: number; remember: number };

export async function resolvePrincipal(deps: Deps, token: string | undefined): Promise<Principal | null> {
  if (!token || token.length > 200) return null;
  const { db, clock } = deps;
  const queries = queriesFor(db);
  let row: UserRow | undefined;
  let tokenId: string | null = null;

  if (token.startsWith(ACCESS_TOKEN_PREFIX)) {
    row = (await queries.byAccessToken(token))[0];
  } else {
    tokenId = sha256(token);
    const found = (await queries.byLoginToken(tokenId))[0];
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
      access ??= accessOf(db, user.id);
      return access;
    },
  };
}

/**
 * Applies a route's `allow`: 'authenticated' = any user type; a menu-key list = admin-type users holding
 * one of those keys (the super admin holds all). Throws the 401/403 envelope.
 */
export async function authorize(allow: Exclude<Access, 'anonymous'>, principal: Principal | null): Promise<void> {
  if (!principal) throw unauthorized();
  if (allow === 'authenticated') return;
  if (principal.user.type !== 'admin') throw forbidden();
  if (principal.user.id === SUPER_ADMIN_ID) return;
  const { menus } = await principal.access();
  if (!allow.some((k) => menus.includes(k))) throw forbidden();
}
