import type { Deps, Module } from '../http/routes.ts';
import access from './access/index.ts';
import account from './account/index.ts';
import assets from './assets/index.ts';
import auth from './auth/index.ts';
import authorised from './authorised/index.ts';
import branding from './branding/index.ts';
import commands from './commands/index.ts';
import credentials from './credentials/index.ts';
import firstScreen from './first-screen/index.ts';
import gateways, { type Gateways } from './gateways/index.ts';
import identity from './identity/index.ts';
import logs from './logs/index.ts';
import menus from './menus/index.ts';
import overview from './overview/index.ts';
import sessions, { type LiveSessions } from './sessions/index.ts';
import strategies from './strategies/index.ts';

/** What the app gives its modules: the app's Deps and the services of the modules others use (built in app.ts). */
export type AppDeps = Deps & { gateways: Gateways; live: LiveSessions };

/** Every API module; adding one is one line here. */
export const modules: readonly Module<AppDeps>[] = [auth, account, branding, menus, identity, credentials, gateways, commands, assets, strategies, authorised, access, sessions, overview, logs, firstScreen];
