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
  /** A terminal's columns and rows (the attach's `cols`, `rows`; 80 × 24 for a desktop relay). */
  readonly cols: number;
  readonly rows: number;
  /**
   * A desktop relay's (`screen: 'pixels'`) size for the desktop it makes, from the attach's `width`, `height` (the
   * browser's pixels, 640–3840 × 480–2160, default 1280 × 800); a relay that connects to an existing desktop (VNC)
   * ignores it. Absent for a terminal relay.
   */
  readonly pixels?: { readonly width: number; readonly height: number };
  /** The asset's address and the way to it (reach.ts targetOf), read when asked. */
  target(): Promise<Target>;
  /** True once the user's socket closed: a relay may stop early (the core checks it after `open` anyway). */
  userLeft(): boolean;
}

/** What a relay runs around the app's life (Relay.init): awaited in the app's ready and close hooks. */
export interface RelayHooks {
  /** At start, before the app serves (e.g. killing the processes a crashed server left). */
  ready?(): Promise<void> | void;
  /** When the app closes, after the live sessions ended (e.g. stopping what is left of the relay's processes). */
  close?(): Promise<void> | void;
}

export interface Relay {
  readonly protocol: Protocol;
  /**
   * What the attach's size is: a terminal's `cols`/`rows` (default) or a desktop's `width`/`height` in pixels
   * (`GET <attach>?width=&height=`, 640–3840 × 480–2160, default 1280 × 800; OpenContext.pixels).
   */
  readonly screen?: 'cells' | 'pixels';
  /** Socket routes: the attach's (`GET <attach>?cols=&rows=`, or `?width=&height=` for pixels) and, when it has one, the monitor's. */
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
   * Called once per app when the sessions module is built, with its deps; the hooks it returns run at the app's ready
   * and close (the core registers them on `deps.lifecycle`). A relay keeps its per-app state here or keyed by `deps`.
   */
  init?(deps: SessionDeps): RelayHooks | undefined;
  /**
   * What a new session on this asset offers for files (POST /sessions answers it as `fileSystem`, `storageId`), from
   * the asset's attributes; default: nothing.
   */
  files?(attributes: ReadonlyMap<string, string>, callerId: string): FileOffer;
}

/** The relay serving `protocol`, if any. */
export const relayFor = (relays: readonly Relay[], protocol: string): Relay | undefined => relays.find((r) => r.protocol === protocol);
