import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import type { Clock } from '../lib/clock.ts';
import type { MenuKey } from '../modules/menus/tree.ts';

/** What a module's routes get from the app. */
export interface Deps {
  db: Db;
  config: Config;
  clock: Clock;
  log: FastifyBaseLogger;
}

/**
 * Who may call a route:
 *  - 'anonymous': no token looked at (/login, /branding);
 *  - 'authenticated': any valid token, any user type (/account/*, /worker/*);
 *  - menu keys: an admin-type user holding at least one of them ([] = super admin only).
 */
export type Access = 'anonymous' | 'authenticated' | readonly MenuKey[];
