import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { text } from '../../../lib/i18n.ts';
import { userConnectReason } from '../../../policy/user-reason.ts';
import { NO_FILES } from '../flags.ts';
import { CLOSE } from '../live.ts';
import { loginOf } from '../login.ts';
import { gatewayError, ReachError, reach, type Target } from '../reach.ts';
import type { SessionDeps } from '../deps.ts';
import { ConnectError, type DesktopConnection, type Relay } from '../relay.ts';
import { rfbConnect, rfbServerInit } from './rfb-handshake.ts';
import { RfbError } from './rfb-reader.ts';

/*
 * The VNC relay (issue 31): a TCP connection to the asset (reach.ts: directly, through its access gateway or its
 * SOCKS5 proxy), the bastion's own RFB login with the asset's password (rfb-handshake.ts: None, VncAuth, VeNCrypt's
 * anonymous TLS), ClientInit always shared (a watcher's connection never drops the user's), and the connection handed
 * to the core as a desktop (desktop-session.ts), which offers the browser None. VNC has no user name: the row's stays
 * ''. Routes `/sessions/:id/vnc` and `/sessions/:id/vnc-monitor`; the recording `recording.rfb` (vnc/rfb-recording.ts).
 */

export const VNC_RECORDING = 'recording.rfb';
export const CONNECT_TIMEOUT_MS = 10_000;
const KEEPALIVE_MS = 15_000;

/** Code 806 for a VNC connection or login that failed; the user reads a fixed sentence (policy/user-reason.ts). */
export const vncFailed = (why: string) => `创建VNC连接失败：${why}`;
/** The user's reason for a wrong password (fixed; the row keeps the server's own words). */
export const MSG_VNC_AUTH_FAILED = text(vncFailed('VNC 认证失败，请检查资产的密码'), "Could not connect to the VNC desktop: VNC authentication failed; check the asset's password");

/** One logged-in RFB connection to the asset, past its ServerInit (ClientInit shared). Rejects with a ConnectError. */
async function connectDesktop(deps: SessionDeps, target: () => Promise<Target>, password: string): Promise<DesktopConnection> {
  let socket: Duplex;
  try {
    socket = await reach(deps, await target(), CONNECT_TIMEOUT_MS);
  } catch (err) {
    if (!(err instanceof ReachError)) throw err;
    throw err.via === 'gateway' ? gatewayError(err.message) : new ConnectError(806, vncFailed(err.message));
  }
  (socket as Partial<Socket>).setNoDelay?.(true);
  (socket as Partial<Socket>).setKeepAlive?.(true, KEEPALIVE_MS);
  try {
    const connected = await rfbConnect(socket, { password });
    const init = await rfbServerInit(connected.socket, true);
    return {
      socket: connected.socket,
      init: { width: init.width, height: init.height, bitsPerPixel: init.pixelFormat.bitsPerPixel, name: init.name, raw: init.raw },
    };
  } catch (err) {
    socket.destroy();
    if (err instanceof RfbError) throw new ConnectError(806, vncFailed(err.full));
    throw err;
  }
}

export const vncRelay: Relay = {
  protocol: 'vnc',
  // A desktop: the attach takes the browser's pixels (`width`, `height`), which VNC ignores (the target's size is its own).
  screen: 'pixels',
  paths: { attach: '/sessions/:id/vnc', monitor: '/sessions/:id/vnc-monitor' },
  recordingFile: VNC_RECORDING,
  userReason: userConnectReason,
  files: () => NO_FILES,
  async open({ deps, assetId, target, userLeft }) {
    const login = await loginOf(deps, assetId);
    const password = login.password ?? '';
    const connection = await connectDesktop(deps, target, password);
    if (userLeft()) {
      connection.socket.destroy();
      throw new ConnectError(CLOSE.normal.code, CLOSE.normal.message);
    }
    return {
      username: '',
      link: {
        kind: 'desktop',
        connection,
        watcher: () => connectDesktop(deps, target, password),
        end: () => connection.socket.destroy(),
      },
    };
  },
};
