import { type FileOffer, NO_FILES } from './flags.ts';
import { rdpRelay } from './rdp/relay.ts';
import { type Relay, relayFor } from './relay.ts';
import { sshRelay } from './ssh/relay.ts';
import { telnetRelay } from './telnet/relay.ts';
import { vncRelay } from './vnc/relay.ts';

/*
 * The protocols the app can open sessions for: one relay per protocol folder. Adding a protocol is one folder and one
 * entry here (and its console plugin); tests pass their own list to `sessionsModule`.
 */
export const defaultRelays: readonly Relay[] = [sshRelay, telnetRelay, vncRelay, rdpRelay];

/** What a new session on an asset of `protocol` offers for files: its relay's word, else nothing. */
export function fileOffer(relays: readonly Relay[], protocol: string, attributes: ReadonlyMap<string, string>, callerId: string): FileOffer {
  return relayFor(relays, protocol)?.files?.(attributes, callerId) ?? NO_FILES;
}
