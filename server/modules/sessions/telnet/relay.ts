import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { pace } from '../../../lib/pace.ts';
import { text } from '../../../lib/i18n.ts';
import { userConnectReason } from '../../../policy/user-reason.ts';
import { NO_FILES } from '../flags.ts';
import { CLOSE } from '../live.ts';
import { loginOf } from '../login.ts';
import { gatewayError, ReachError, reach } from '../reach.ts';
import { ConnectError, type Relay } from '../relay.ts';
import { autoLogin, patternsOf } from './login.ts';
import { TelnetStream } from './stream.ts';

/*
 * The Telnet relay (issue 31): a TCP connection to the asset (reach.ts: directly, through its access gateway or its
 * SOCKS5 proxy), Telnet's options negotiated by our own TelnetStream (stream.ts), the asset's account typed at the
 * host's prompts (login.ts), and the stream handed to the core as the terminal: the same xterm page, recording,
 * command index and monitor as SSH. No file manager. Routes `/sessions/:id/telnet` and `/sessions/:id/telnet-monitor`.
 */

export const TELNET_RECORDING = 'recording.cast';
export const CONNECT_TIMEOUT_MS = 10_000;
const KEEPALIVE_MS = 15_000;

/** Code 806 for a Telnet connection or login that failed (the user reads a fixed reason: policy/user-reason.ts). */
export const telnetFailed = (why: string) => `创建Telnet连接失败：${why}`;
export const MSG_LOGIN_FAILED = text(telnetFailed('登录失败，请检查授权账户和密码'), 'Could not connect to the Telnet host: login failed; check the account and password');
const MSG_HOST_CLOSED = telnetFailed('远程主机关闭了连接');

const PATTERN_ATTRIBUTES = ['username-regex', 'password-regex', 'login-success-regex', 'login-failure-regex'];

export const telnetRelay: Relay = {
  protocol: 'telnet',
  paths: { attach: '/sessions/:id/telnet', monitor: '/sessions/:id/telnet-monitor' },
  recordingFile: TELNET_RECORDING,
  userReason: userConnectReason,
  files: () => NO_FILES,
  async open({ deps, sessionId, assetId, cols, rows, target, userLeft }) {
    const login = await loginOf(deps, assetId);
    const attributes = new Map(
      (await deps.db.selectFrom('assetAttributes').select(['name', 'value']).where('assetId', '=', assetId).where('name', 'in', PATTERN_ATTRIBUTES).execute()).map((a) => [
        a.name,
        a.value,
      ]),
    );
    const { patterns, invalid } = patternsOf(attributes);
    if (invalid.length > 0) deps.log.warn({ sessionId, assetId, attributes: invalid }, 'telnet login pattern is not a valid expression: the default is used');

    let socket: Duplex;
    try {
      socket = await reach(deps, await target(), CONNECT_TIMEOUT_MS);
    } catch (err) {
      if (!(err instanceof ReachError)) throw err;
      throw err.via === 'gateway' ? gatewayError(err.message) : new ConnectError(806, telnetFailed(err.message));
    }
    // A direct or SOCKS socket: keys go out at once, and TCP keep-alive notices a host that vanished (Telnet has none
    // of its own). A gateway's channel has neither (the gateway's SSH connection keeps itself alive).
    (socket as Partial<Socket>).setNoDelay?.(true);
    (socket as Partial<Socket>).setKeepAlive?.(true, KEEPALIVE_MS);
    const stream = new TelnetStream(socket, { cols, rows });
    // Read fairly (lib/pace.ts); the stream holds the socket through the handle while the terminal is paused.
    stream.paceWith(pace(socket));
    try {
      stream.start();
      if (login.named) {
        const { outcome, shown } = await autoLogin(stream, { username: login.username, password: login.password }, patterns, userLeft);
        if (outcome === 'failed') throw new ConnectError(806, MSG_LOGIN_FAILED);
        if (outcome === 'closed') throw new ConnectError(806, MSG_HOST_CLOSED);
        if (outcome === 'left') throw new ConnectError(CLOSE.normal.code, CLOSE.normal.message);
        if (outcome === 'gave-up') deps.log.info({ sessionId, assetId }, 'telnet login not automated: the user logs in');
        stream.deliver(shown);
      }
      if (userLeft()) throw new ConnectError(CLOSE.normal.code, CLOSE.normal.message);
      return {
        username: login.named ? login.username : '',
        link: {
          stream,
          resize: (c, r) => stream.resize(c, r),
          end: () => stream.destroy(),
        },
      };
    } catch (err) {
      stream.destroy();
      throw err;
    }
  },
};
