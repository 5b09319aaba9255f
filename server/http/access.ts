import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import type { Clock } from '../lib/clock.ts';
import type { SecretBox } from '../lib/secret-box.ts';
import type { Gateways } from '../modules/gateways/service.ts';
import type { ServerCatalogue } from '../permissions/catalogue.ts';
import type { LiveSessions } from '../modules/sessions/live.ts';

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
  /** Access gateways, live: SSH clients, tunnels through them and their connected state (modules/gateways/service.ts). */
  gateways: Gateways;
  /** The sessions running in this process (modules/sessions/live.ts): terminal, monitor, files, stats. */
  live: LiveSessions;
  /** Background work a module runs beside its routes (timers, a first pass at start): started and stopped with the app. */
  lifecycle: Lifecycle;
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
