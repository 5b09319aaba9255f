import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Config } from '../../../config.ts';
import { pinFirstHostKey } from '../../assets/index.ts';
import { sessionAccess } from '../access.ts';
import type { FileOffer } from '../flags.ts';
import { CLOSE } from '../live.ts';
import { loginOf } from '../login.ts';
import { ConnectError, type DesktopConnection, type Relay } from '../relay.ts';
import { rfbConnect, rfbServerInit } from '../vnc/rfb-handshake.ts';
import { RfbError } from '../vnc/rfb-reader.ts';
import { type Desktop, openRdpDesktop } from './desktop.ts';
import { RDP_FAILED, REASON, userRdpReason } from './reasons.ts';
import { DesktopSlots, stopAllDesktops, sweepOrphans } from './supervise.ts';

/*
 * The RDP relay (issue 31): the session's Xvnc with xfreerdp in it (desktop.ts), served to the core as a desktop
 * exactly like a VNC asset — the bastion connects to the Xvnc's Unix socket (security None, rfb-handshake.ts) and the
 * core (desktop-session.ts) offers the browser None, records `recording.rfb`, serves the monitor. Routes
 * `/sessions/:id/rdp` and `/sessions/:id/rdp-monitor`.
 *
 * The display's size is the browser's (the attach's `width`, `height`: `screen: 'pixels'`, bounded by the core and
 * again by display.ts), 1280×800 when not given. The relay's init hook sweeps the desktops a crashed server left (at
 * the app's ready) and stops this server's at its close.
 */

export const RDP_RECORDING = 'recording.rfb';
const DEFAULT_SIZE = { width: 1280, height: 800 };

/** One cap per configuration (per app: tests build several). */
const slotsByConfig = new WeakMap<Config, DesktopSlots>();
const slotsOf = (config: Config) => {
  let slots = slotsByConfig.get(config);
  if (!slots) {
    slots = new DesktopSlots(config.desktopMax);
    slotsByConfig.set(config, slots);
  }
  return slots;
};

/** The drive FreeRDP shares: a per-session folder under the data folder (until storages exist). */
const driveFolder = (config: Config, sessionId: string) => path.join(config.dataDir, 'rdp-drive', path.basename(sessionId));

/** A shared RFB connection to the display's Xvnc (its Unix socket; None). */
async function connectDisplay(desktop: Desktop): Promise<DesktopConnection> {
  const socket = net.connect(desktop.socketPath);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('error', reject);
  });
  try {
    const connected = await rfbConnect(socket);
    const init = await rfbServerInit(connected.socket, true);
    return { socket: connected.socket, init: { width: init.width, height: init.height, bitsPerPixel: init.pixelFormat.bitsPerPixel, name: init.name, raw: init.raw } };
  } catch (err) {
    socket.destroy();
    if (err instanceof RfbError) throw new ConnectError(806, `${RDP_FAILED}：${REASON.started}（${err.full}）`);
    throw err;
  }
}

/** An RDP asset's drive, as 1.3.9 answered it (POST /sessions `fileSystem`, `storageId`). */
function files(attributes: ReadonlyMap<string, string>, callerId: string): FileOffer {
  const drive = attributes.get('enable-drive') === 'true';
  return { fileSystem: drive ? 1 : 0, storageId: drive ? attributes.get('drive-path') || callerId : '' };
}

export const rdpRelay: Relay = {
  protocol: 'rdp',
  screen: 'pixels',
  paths: { attach: '/sessions/:id/rdp', monitor: '/sessions/:id/rdp-monitor' },
  recordingFile: RDP_RECORDING,
  userReason: userRdpReason,
  files,
  init(deps) {
    return {
      ready() {
        const swept = sweepOrphans();
        if (swept.length > 0) deps.log.warn({ pids: swept.map((o) => o.pid) }, 'desktop processes of a crashed server were killed');
      },
      close: () => stopAllDesktops(),
    };
  },
  async open({ deps, sessionId, userId, assetId, target, userLeft, pixels }) {
    const login = await loginOf(deps, assetId);
    const access = await sessionAccess(deps.db, userId, assetId, deps.clock.now());
    if (!access) throw new ConnectError(CLOSE.denied.code, CLOSE.denied.message);
    const row = await deps.db.selectFrom('sessions').select(['fileSystem']).where('id', '=', sessionId).executeTakeFirst();
    const attributes = new Map(
      (await deps.db.selectFrom('assetAttributes').select(['name', 'value']).where('assetId', '=', assetId).execute()).map((a) => [a.name, a.value] as const),
    );
    const { flags } = access;
    let driveDir: string | undefined;
    if (row?.fileSystem === 1 && (flags.upload === 1 || flags.download === 1)) {
      driveDir = driveFolder(deps.config, sessionId);
      fs.mkdirSync(driveDir, { recursive: true, mode: 0o700 });
    }
    const desktop = await openRdpDesktop({
      deps,
      sessionId,
      target: await target(),
      username: login.username,
      password: login.password ?? '',
      pinned: login.hostKey,
      attributes,
      flags: { clipboard: flags.copy === 1 || flags.paste === 1, driveDir },
      ...(pixels ?? DEFAULT_SIZE),
      slots: slotsOf(deps.config),
      baseDir: path.join(deps.config.dataDir, 'run'),
      pin: (fingerprint) => pinFirstHostKey(deps.db, assetId, fingerprint),
    });
    let connection: DesktopConnection;
    try {
      connection = await connectDisplay(desktop);
    } catch (err) {
      await desktop.stop();
      throw err;
    }
    if (userLeft()) {
      connection.socket.destroy();
      await desktop.stop();
      throw new ConnectError(CLOSE.normal.code, CLOSE.normal.message);
    }
    // FreeRDP or the display ending by itself ends the session with its reason.
    let ended = false;
    void desktop.ended.then(async (message) => {
      if (ended) return;
      deps.log.info({ sessionId, reason: message }, 'rdp desktop ended');
      await deps.live.get(sessionId)?.close(-1, userRdpReason(-1, message));
      await desktop.stop();
    });
    return {
      username: login.username,
      link: {
        kind: 'desktop',
        connection,
        watcher: () => connectDisplay(desktop),
        end: () => {
          ended = true;
          connection.socket.destroy();
          void desktop.stop();
        },
      },
    };
  },
};
