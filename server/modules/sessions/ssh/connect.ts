import { pinFirstHostKey } from '../../assets/index.ts';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import ssh2, { type Client, type ConnectConfig } from 'ssh2';
import type { SessionDeps } from '../deps.ts';
import { hostCheck, unlockKey } from '../../credentials/index.ts';
import { describeSshError } from '../../gateways/index.ts';
import { pace } from '../../../lib/pace.ts';
import { ConnectError } from '../relay.ts';
import { gatewayError, ReachError, tunnel } from '../reach.ts';
import { type Login, loginOf } from '../login.ts';

// ssh2 is CommonJS: Node's ESM loader (npm start) sees only its default export.
const { Client: SshClient } = ssh2;

/*
 * Opening the SSH connection of a terminal session (contract §5.1): the account of the asset or of its credential,
 * directly, through the asset's access gateway, or through its SOCKS5 proxy (../reach.ts). The asset's host key
 * is checked before authenticating (credentials/host-key.ts): a pinned key must match, or the handshake ends with
 * nothing offered; with none pinned the key of the first login is pinned (trust on first use). A connect that OpenSSH
 * drops before its handshake (MaxStartups refuses bursts of simultaneous handshakes) is tried once more.
 */

export const READY_TIMEOUT_MS = 10_000;
export const KEEPALIVE_MS = 15_000;
const KEEPALIVE_COUNT_MAX = 3;

export { ConnectError };
/** Code 806 (NewSshClientError) for a failed SSH login or connection to the asset itself. */
export const sshClientFailed = (why: string) => `创建SSH客户端失败：${why}`;

/** ssh2's error when the server closed the connection before its identification (OpenSSH's MaxStartups). */
const LOST_BEFORE_HANDSHAKE = /connection lost before handshake/i;

/** A ready SSH client for the asset. Rejects with a ConnectError whose message is fit for the user. */
export async function connectSsh(deps: Pick<SessionDeps, 'db' | 'box' | 'gateways'>, assetId: string): Promise<{ client: Client; username: string }> {
  const login = await loginOf(deps, assetId);
  let client: Client;
  try {
    client = await attempt(deps, login);
  } catch (err) {
    if (!(err instanceof LostBeforeHandshake)) throw err;
    try {
      client = await attempt(deps, login);
    } catch (again) {
      throw again instanceof LostBeforeHandshake ? again.failure : again;
    }
  }
  return { client, username: login.username };
}

/** A first try that the server dropped before its handshake: worth one more. */
class LostBeforeHandshake extends Error {
  constructor(readonly failure: ConnectError) {
    super(failure.message);
  }
}

/** One connection: the route's socket, the handshake (host key checked, pinned on first use), the login. */
async function attempt(deps: Pick<SessionDeps, 'db' | 'box' | 'gateways'>, login: Login): Promise<Client> {
  let via: Duplex | undefined;
  try {
    via = await tunnel(deps, login, READY_TIMEOUT_MS);
  } catch (err) {
    if (!(err instanceof ReachError)) throw err;
    throw err.via === 'gateway' ? gatewayError(err.message) : new ConnectError(806, sshClientFailed(err.message));
  }
  const host = hostCheck(login.hostKey);
  // A key whose passphrase runs bcrypt is opened in a worker, never by ssh2 on the event loop (credentials/key-check.ts).
  const key = login.privateKey
    ? await unlockKey(login.privateKey, login.passphrase).catch((err: Error) => {
        via?.destroy();
        return Promise.reject(new ConnectError(-1, err.message));
      })
    : null;
  // Direct: our own socket (still connecting: ssh2 waits for it and words its errors), so that it can be paced.
  const sock = via ?? net.connect({ host: login.host, port: login.port, noDelay: true });
  const config: ConnectConfig = {
    host: login.host,
    port: login.port,
    username: login.username,
    readyTimeout: READY_TIMEOUT_MS,
    keepaliveInterval: KEEPALIVE_MS,
    keepaliveCountMax: KEEPALIVE_COUNT_MAX,
    // During the key exchange, before any authentication: a changed key ends the handshake with nothing offered.
    hostVerifier: host.verify,
    sock,
    ...(key ? { privateKey: key.privateKey, passphrase: key.passphrase } : { password: login.password ?? '', tryKeyboard: true }),
  };
  const client: Client = new SshClient();
  await new Promise<void>((resolve, reject) => {
    let ready = false;
    let lastError: Error | undefined;
    const onError = (err: Error) => {
      lastError = err;
    };
    client.on('error', onError);
    // PAM password logins may be offered as keyboard-interactive only: answer every prompt with the password.
    client.on('keyboard-interactive', (_name, _instructions, _lang, prompts, finish) => finish(prompts.map(() => login.password ?? '')));
    client.once('ready', () => {
      ready = true;
      resolve();
    });
    client.once('close', () => {
      if (ready) return;
      const refused = host.refusal();
      if (refused) return reject(new ConnectError(806, sshClientFailed(refused)));
      const failure = new ConnectError(806, sshClientFailed(describeSshError(lastError ?? new Error('连接已关闭'))));
      reject(lastError && LOST_BEFORE_HANDSHAKE.test(lastError.message) ? new LostBeforeHandshake(failure) : failure);
    });
    try {
      client.connect(config);
    } catch (err) {
      // A malformed private key throws synchronously.
      reject(new ConnectError(806, sshClientFailed(describeSshError(err))));
      client.end();
    }
  });
  // Read fairly from now on: a session that streams yields to the others' keystrokes and to HTTP (lib/pace.ts).
  pace(sock);
  // Trust on first use: the key of the first login is pinned (unless someone pinned one meanwhile).
  const seen = host.presented();
  if (login.hostKey === null && seen !== undefined) {
    await pinFirstHostKey(deps.db, login.assetId, seen);
  }
  return client;
}
