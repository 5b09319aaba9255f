import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import type { Clock } from '../lib/clock.ts';
import type { SecretBox } from '../lib/secret-box.ts';
import type { Catalogue, TreeMenu } from '../../shared/manifest.ts';
import type { User } from '../db/schema.ts';
import type { Events } from './events.ts';

/** What a module's routes get from the app. */
export interface Deps {
  db: Db;
  config: Config;
  clock: Clock;
  log: FastifyBaseLogger;
  /** The secret box, loaded once at start (lib/secret-box.ts): seal every secret stored at rest with it. */
  box: SecretBox;
  /** The permission keys of every plugin manifest (GET /menus, role checks, effective keys, route gates). */
  catalogue: ServerCatalogue;
  /** Who calls and whether a gate lets them through (permissions/principal.ts implements it; the routes only ask). */
  gatekeeper: Gatekeeper;
  /** How modules react to each other's changes without importing each other (events.ts). */
  events: Events;
  /** Background work a module runs beside its routes (timers, a first pass at start): started and stopped with the app. */
  lifecycle: Lifecycle;
}

/**
 * The permission keys the server knows (permissions/catalogue.ts builds it from every plugin manifest), with the tree
 * GET /menus answers (zh-CN `title` and both `titles`).
 */
export interface ServerCatalogue extends Catalogue {
  readonly tree: TreeMenu[];
}

/** The user fields auth needs; password and TOTP secret stay out. */
export type PrincipalUser = Pick<User, 'id' | 'username' | 'nickname' | 'type' | 'status'> & { totpEnabled: boolean };

export interface UserAccess {
  /** Role ids, sorted. */
  roles: string[];
  /** Effective menu keys in tree order: only keys some manifest declares. */
  menus: string[];
}

/**
 * Who is calling, resolved from the token on every request: nothing is snapshotted at login (quirk 8). Rows are
 * cached in process only until the next write to the tables they come from, so changes apply on the next request.
 */
export interface Principal {
  user: PrincipalUser;
  /** `tokens.id` (SHA-256) of a login token; null for a personal access token. */
  tokenId: string | null;
  /** Role ids and effective menu keys, loaded on first use within the request. */
  access(): Promise<UserAccess>;
}

/** How the routes check who calls: the HTTP floor asks, the permissions floor answers. */
export interface Gatekeeper {
  /** The caller behind a token: null when there is none, or it is unknown, expired or its account disabled. */
  principal(token: string | undefined): Promise<Principal | null>;
  /** Throws the 401/403 envelope unless `principal` passes the gate. */
  authorize(gate: Exclude<Gate, 'anonymous'>, principal: Principal | null): Promise<void>;
}

/** `X-Auth-Token` header, else the `X-Auth-Token` query parameter (downloads, WebSockets). */
export function tokenOf(req: FastifyRequest): string | undefined {
  const header = req.headers['x-auth-token'];
  if (typeof header === 'string' && header) return header;
  const q = (req.query as Record<string, unknown> | undefined)?.['X-Auth-Token'];
  return typeof q === 'string' && q ? q : undefined;
}

export interface Lifecycle {
  /** Runs before the app is ready (awaited by `app.ready()` / `listen`), e.g. a clean-up that must happen at start. */
  onReady(fn: () => Promise<void> | void): void;
  /** Runs when the app closes: stop timers here so that nothing outlives the app. */
  onClose(fn: () => Promise<void> | void): void;
}

/**
 * Who may call a route:
 *  - 'anonymous': no token looked at (/login, /branding);
 *  - 'authenticated': any valid token, any user type (/account/*, /worker/*);
 *  - 'granted': an admin-type user holding a permission key whose plugin manifest grants this route
 *    (`grants: ['GET /users']` in plugins/<id>/manifest.ts): the manifests are the one source of route gates;
 *  - 'super-admin': the built-in super administrator only.
 */
export type Access = 'anonymous' | 'authenticated' | 'granted' | 'super-admin';

/** A route's gate once resolved against the manifests: the keys that grant it ([] = the super admin only). */
export type Gate = 'anonymous' | 'authenticated' | readonly string[];
