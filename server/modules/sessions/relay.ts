import type { Duplex, Readable } from 'node:stream';
import type { Protocol } from '../../db/schema.ts';
import type { RouteDef } from '../../http/routes.ts';
import type { SessionDeps } from './deps.ts';
import type { Capabilities } from './live.ts';
import type { FileOffer } from './flags.ts';
import type { Target } from './reach.ts';

/*
 * The relay port: what a protocol gives the sessions core. A relay names its protocol and its socket routes and
 * opens the connection to the host; the core does the rest (attach.ts: the row, single attach, the caps, the access
 * rule at attach and after; terminal-session.ts: frames, batching, back-pressure, heartbeat, recording, command
 * index, monitor; cuts.ts and lifecycle.ts: the re-checks and forced ends). The list of relays is relays.ts.
 */

// A connect failure is a ConnectError (reach.ts): relays import it from here.
export { ConnectError } from './reach.ts';

/** The connection a relay opened, as the terminal core drives it. */
export interface TerminalLink {
  /** The host's output (read) and the user's input (written): an SSH shell channel, a TCP socket… */
  readonly stream: Duplex;
  /** More output, shown as the stream's (SSH's stderr), when the protocol has it. */
  readonly errors?: Readable;
  /** Tells the host the terminal's new size, when the protocol can. */
  resize?(cols: number, rows: number): void;
  /** `fn` runs when the connection under the stream ends (the SSH connection closing), when that can differ. */
  onGone?(fn: () => void): void;
  /** Ends the connection: the session ended, or it was never handed over (a failure or the user left). */
  end(): void;
}

/** A desktop's framebuffer as the target announced it (RFB's ServerInit). */
export interface DesktopInit {
  readonly width: number;
  readonly height: number;
  /** Bits per pixel of the target's pixel format. */
  readonly bitsPerPixel: number;
  /** The desktop's name, printable. */
  readonly name: string;
  /** The ServerInit message exactly as the target sent it: what the browser gets. */
  readonly raw: Buffer;
}

/** One RFB connection to the desktop, logged in and past its ServerInit (ClientInit sent shared). */
export interface DesktopConnection {
  /** Paused right after the ServerInit: RFB messages follow. */
  readonly socket: Duplex;
  readonly init: DesktopInit;
}

/**
 * The connection a desktop relay opened (VNC; RDP through a virtual display served as VNC), as the desktop core
 * drives it (desktop-session.ts): RFB after the bastion's handshake, the browser offered None.
 */
export interface DesktopLink {
  readonly kind: 'desktop';
  readonly connection: DesktopConnection;
  /** Another shared connection to the same desktop, for a watcher (the bastion logs in again). */
  watcher(): Promise<DesktopConnection>;
  /** Ends the connection (and whatever the relay runs for it). */
  end(): void;
}

export const isDesktop = (link: TerminalLink | DesktopLink): link is DesktopLink => 'kind' in link && link.kind === 'desktop';

export interface Opened {
  /** The account used on the host (stored on the row). */
  readonly username: string;
  /** A terminal (TerminalLink) or a desktop (DesktopLink). */
  readonly link: TerminalLink | DesktopLink;
  /** What the relay offers beyond the terminal (the core adds `watch`). */
  readonly capabilities?: Omit<Capabilities, 'watch'>;
}

export interface OpenContext {
  readonly deps: SessionDeps;
  readonly sessionId: string;
  readonly userId: string;
  readonly assetId: string;
  readonly cols: number;
  readonly rows: number;
  /** The asset's address and the way to it (reach.ts targetOf), read when asked. */
  target(): Promise<Target>;
  /** True once the user's socket closed: a relay may stop early (the core checks it after `open` anyway). */
  userLeft(): boolean;
}

export interface Relay {
  readonly protocol: Protocol;
  /** Socket routes: the terminal's (`GET <attach>?cols=&rows=`) and, when it has one, the monitor's. */
  readonly paths: { readonly attach: string; readonly monitor?: string };
  /** The recording's file name in the session's folder (`<recordingDir>/<id>/<recordingFile>`: asciicast v2, or a desktop's `recording.rfb`). */
  readonly recordingFile: string;
  /** Connects to the asset; rejects with a ConnectError whose code and detail end the attach. */
  open(ctx: OpenContext): Promise<Opened>;
  /** The closed frame's text for a connect failure (the detail may name the address); default: the detail. */
  userReason?(code: number, detail: string): string;
  /** The relay's own HTTP routes on live sessions (SSH: the file manager and the stats panel). */
  routes?(deps: SessionDeps): RouteDef[];
  /**
   * What a new session on this asset offers for files (POST /sessions answers it as `fileSystem`, `storageId`), from
   * the asset's attributes; default: nothing.
   */
  files?(attributes: ReadonlyMap<string, string>, callerId: string): FileOffer;
}

/** The relay serving `protocol`, if any. */
export const relayFor = (relays: readonly Relay[], protocol: string): Relay | undefined => relays.find((r) => r.protocol === protocol);
