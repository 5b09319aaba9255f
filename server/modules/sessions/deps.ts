import type { Deps } from '../../http/access.ts';
import type { Gateways } from '../gateways/index.ts';
import type { LiveSessions } from './live.ts';

/** What the sessions module needs beyond the app's Deps: the gateways' tunnels (to reach a host) and the live registry. */
export type SessionDeps = Deps & { gateways: Gateways; live: LiveSessions };
