import { type FileOffer, NO_FILES } from './flags.ts';
import { type Relay, relayFor } from './relay.ts';
import { sshRelay } from './ssh/relay.ts';
import { telnetRelay } from './telnet/relay.ts';
import { vncRelay } from './vnc/relay.ts';

/*
 * The protocols the app can open sessions for: one relay per protocol folder. Adding a protocol is one folder and one
 * entry here (and its console plugin); tests pass their own list to `sessionsModule`.
 */
export const defaultRelays: readonly Relay[] = [sshRelay, telnetRelay, vncRelay];

/**
 * An RDP asset's drive (1.3.9's answer for its desktops): offered when `enable-drive` is on, mapping `drive-path` or
 * else the caller's own storage. Said here until RDP has a relay, which then declares it as its `files`.
 */
function rdpDrive(attributes: ReadonlyMap<string, string>, callerId: string): FileOffer {
  const drive = attributes.get('enable-drive') === 'true';
  return { fileSystem: drive ? 1 : 0, storageId: drive ? attributes.get('drive-path') || callerId : '' };
}

/** What a new session on an asset of `protocol` offers for files: its relay's word, else nothing. */
export function fileOffer(relays: readonly Relay[], protocol: string, attributes: ReadonlyMap<string, string>, callerId: string): FileOffer {
  const relay = relayFor(relays, protocol);
  if (relay) return relay.files?.(attributes, callerId) ?? NO_FILES;
  return protocol === 'rdp' ? rdpDrive(attributes, callerId) : NO_FILES;
}
