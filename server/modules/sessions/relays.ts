import type { Relay } from './relay.ts';
import { sshRelay } from './ssh/relay.ts';

/*
 * The protocols the app can open sessions for: one relay per protocol folder. Adding a protocol is one folder and one
 * entry here (and its console plugin); tests pass their own list to `sessionsModule`.
 */
export const defaultRelays: readonly Relay[] = [sshRelay];
