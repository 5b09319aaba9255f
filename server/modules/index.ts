import type { Module } from '../http/routes.ts';
import access from './access/index.ts';
import account from './account/index.ts';
import assets from './assets/index.ts';
import auth from './auth/index.ts';
import authorised from './authorised/index.ts';
import branding from './branding/index.ts';
import commands from './commands/index.ts';
import credentials from './credentials/index.ts';
import firstScreen from './first-screen/index.ts';
import gateways from './gateways/index.ts';
import identity from './identity/index.ts';
import logs from './logs/index.ts';
import menus from './menus/index.ts';
import overview from './overview/index.ts';
import sessions from './sessions/index.ts';
import strategies from './strategies/index.ts';

/** Every API module; adding one is one line here. */
export const modules: readonly Module[] = [auth, account, branding, menus, identity, credentials, gateways, commands, assets, strategies, authorised, access, sessions, overview, logs, firstScreen];
