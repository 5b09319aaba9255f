import net from 'node:net';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { Client, type ConnectConfig } from 'ssh2';
import type { Db } from '../../db/index.ts';
import { sha256 } from '../../lib/ids.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { pace, TURN_BUDGET } from '../../lib/pace.ts';
import { Semaphore } from '../../lib/semaphore.ts';
import { openSecrets } from '../credentials/index.ts';
import { hostCheck } from '../credentials/index.ts';
import { isCostly, kdfProblem, unlockKey } from '../credentials/index.ts';

/*
 * Access gateways, live: one kept-alive SSH client per gateway, opened on demand (the first tunnel or check) and
 * opened again after it dropped; TCP tunnels through it with `forwardOut`; and each gateway's state from its last
 * real handshake. In memory, per server process (1.3.9 did the same).
 */

/** A gateway's socket carries several sessions: four sessions' share of a turn (each tunnel is paced again). */
const GATEWAY_TURN_BUDGET = 4 * TURN_BUDGET;

/** What the gateway list shows (contract §3.7 `connected`/`message`). */
export interface GatewayState {
  connected: boolean;
  message: string;
}

export interface Gateways {
  /**
   * A TCP stream to host:port opened by the gateway (SSH direct-tcpip). Rejects after `timeoutMs` (handshake
   * included) or on failure with an Error whose message is a zh-CN sentence fit for the user.
   */
  connect(gatewayId: string, host: string, port: number, timeoutMs: number): Promise<Duplex>;
  /** The state from the last real handshake (never checked yet: a background check is started). */
  state(gatewayId: string): GatewayState;
  /** A fresh handshake now (the connection-test button); never rejects. */
  check(gatewayId: string): Promise<GatewayState>;
  /** After an edit: if how to connect changed, the old client (and its tunnels) ends and the state is checked again. */
  reload(gatewayId: string): Promise<void>;
  /** After a delete: the client and its tunnels end, the state is forgotten. */
  remove(gatewayId: string): void;
  /** Ends every client and refuses new work (app close). */
  close(): Promise<void>;
}

export const READY_TIMEOUT_MS = 10_000;
const KEEPALIVE_MS = 15_000;
/** Background checks (after a create, an edit, or a list showing a gateway never checked) at once. */
const BACKGROUND_CHECKS = 4;

export const MSG_CONNECTED = '连接成功';
export const MSG_NOT_CHECKED = '尚未检测';
const unavailable = (why: string) => `接入网关不可用：${why}`;

/** ssh2 and socket errors in the console's language; the raw text when nothing better is known. */
export function describeSshError(err: unknown): string {
  const e = err as { code?: string; level?: string; message?: string };
  const raw = e?.message ?? String(err);
  if (e?.level === 'client-authentication') return '认证失败，请检查授权账户、密码或私钥';
  if (e?.level === 'client-timeout') return `握手超时（${READY_TIMEOUT_MS / 1000} 秒）`;
  switch (e?.code) {
    case 'ECONNREFUSED':
      return `连接被拒绝（${raw.replace(/^connect ECONNREFUSED\s*/, '')}）`;
    case 'ETIMEDOUT':
      return '连接超时';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return '主机不可达';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return '无法解析主机名';
    case 'ECONNRESET':
      return '连接被重置';
  }
  return raw;
}

/** How to log in to a gateway, with its id and pinned host key (null = none yet: the first login pins it). */
type Login = Pick<ConnectConfig, 'host' | 'port' | 'username' | 'password' | 'privateKey' | 'passphrase'> & { id: string; hostKey: string | null };

interface Entry {
  /** Bumped by reload/remove: a handshake begun before answers into the void. */
  generation: number;
  /** Hash of how to connect (secrets included), to tell a real change from a rename. */
  fingerprint?: string;
  client?: Client;
  opening?: Promise<Client>;
  checking?: Promise<GatewayState>;
  state?: GatewayState;
}

class GatewayError extends Error {}

export function createGateways({ db, box, log }: { db: Db; box: SecretBox; log: FastifyBaseLogger }): Gateways {
  const entries = new Map<string, Entry>();
  /** Every client not yet closed, ready or still shaking hands: close() ends them all. */
  const clients = new Set<Client>();
  const background = new Semaphore(BACKGROUND_CHECKS);
  let closed = false;

  const entryOf = (id: string): Entry => {
    let entry = entries.get(id);
    if (!entry) {
      entry = { generation: 0 };
      entries.set(id, entry);
    }
    return entry;
  };

  async function loginOf(id: string): Promise<Login | undefined> {
    const row = await db
      .selectFrom('accessGateways')
      .select(['ip', 'port', 'accountType', 'username', 'password', 'privateKey', 'passphrase', 'hostKey'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) return undefined;
    const secrets = openSecrets(box, row);
    return row.accountType === 'private-key'
      ? { id, hostKey: row.hostKey, host: row.ip, port: row.port, username: row.username, privateKey: secrets.privateKey, passphrase: secrets.passphrase }
      : { id, hostKey: row.hostKey, host: row.ip, port: row.port, username: row.username, password: secrets.password };
  }

  const fingerprintOf = (login: Login) => sha256(JSON.stringify([login.host, login.port, login.username, login.password, login.privateKey, login.passphrase, login.hostKey]));

  /**
   * One SSH handshake; resolves with the ready client, rejects with its error. The client never emits unhandled errors.
   * The gateway's host key is checked before authenticating (credentials/host-key.ts): a pinned key must match, else
   * nothing is offered; with none pinned, the first login pins the key it saw (trust on first use).
   */
  function open(login: Login): Promise<Client> {
    if (closed) return Promise.reject(new GatewayError('服务正在关闭'));
    // A key whose passphrase runs bcrypt is opened in a worker first, never on the event loop (credentials/key-check.ts).
    const passphrase = typeof login.passphrase === 'string' ? login.passphrase : undefined;
    if (typeof login.privateKey === 'string' && (isCostly(login.privateKey, passphrase) || kdfProblem(login.privateKey)))
      return unlockKey(login.privateKey, passphrase).then((key) => open({ ...login, privateKey: key.privateKey, passphrase: undefined }), (err: Error) => Promise.reject(new GatewayError(err.message)));
    return new Promise((resolve, reject) => {
      const client = new Client();
      clients.add(client);
      const host = hostCheck(login.hostKey);
      let ready = false;
      let lastError: Error | undefined;
      client.on('error', (err) => {
        lastError = err;
        if (ready) log.debug({ err }, 'access gateway connection error');
      });
      // Password logins through PAM may be offered as keyboard-interactive only: answer every prompt with it.
      client.on('keyboard-interactive', (_name, _instructions, _lang, prompts, finish) => finish(prompts.map(() => login.password ?? '')));
      client.once('ready', () => {
        ready = true;
        const seen = host.presented();
        if (login.hostKey !== null || seen === undefined) return resolve(client);
        db.updateTable('accessGateways')
          .set({ hostKey: seen })
          .where('id', '=', login.id)
          .where('hostKey', 'is', null)
          .execute()
          .then(
            () => resolve(client),
            (err: unknown) => {
              client.end();
              reject(err);
            },
          );
      });
      client.once('close', () => {
        clients.delete(client);
        const refused = host.refusal();
        if (!ready) reject(refused ? new GatewayError(refused) : (lastError ?? new GatewayError('连接已关闭')));
      });
      const { host: address, port, username, password, privateKey, passphrase } = login;
      // Our own socket (ssh2 waits for its connect), read fairly once logged in: it carries every session tunnelled
      // through the gateway, so its share per event-loop turn is several sessions' (lib/pace.ts).
      const sock = net.connect({ host: address ?? '', port: port ?? 22, noDelay: true });
      client.once('ready', () => pace(sock, GATEWAY_TURN_BUDGET));
      client.connect({ host: address, port, username, password, privateKey, passphrase, sock, hostVerifier: host.verify, readyTimeout: READY_TIMEOUT_MS, keepaliveInterval: KEEPALIVE_MS, keepaliveCountMax: 3, tryKeyboard: login.password !== undefined });
    });
  }

  /** Makes `client` the gateway's kept client; when it drops, the next use opens another. */
  function adopt(entry: Entry, client: Client): void {
    entry.client = client;
    let dropError: Error | undefined;
    client.on('error', (err) => {
      dropError = err;
    });
    client.once('close', () => {
      if (entry.client !== client) return;
      entry.client = undefined;
      // A drop with an error (keep-alive unanswered, reset) says the gateway is gone; a clean close says nothing.
      if (dropError) entry.state = { connected: false, message: unavailable(describeSshError(dropError)) };
    });
  }

  /** The gateway's kept client, opening it if needed (one handshake at a time per gateway). */
  function clientFor(id: string): Promise<Client> {
    if (closed) return Promise.reject(new GatewayError('服务正在关闭'));
    const entry = entryOf(id);
    if (entry.client) return Promise.resolve(entry.client);
    if (entry.opening) return entry.opening;
    const opening = (async () => {
      const generation = entry.generation;
      const login = await loginOf(id);
      if (!login) {
        if (entries.get(id) === entry && !entry.client) entries.delete(id);
        throw new GatewayError(`接入网关不存在：${id}`);
      }
      let client: Client;
      try {
        client = await open(login);
      } catch (err) {
        if (generation === entry.generation) entry.state = { connected: false, message: unavailable(describeSshError(err)) };
        throw new GatewayError(unavailable(describeSshError(err)));
      }
      if (generation !== entry.generation || closed) {
        client.end();
        throw new GatewayError('接入网关的配置刚刚变更，请重试');
      }
      entry.fingerprint = fingerprintOf(login);
      entry.state = { connected: true, message: MSG_CONNECTED };
      adopt(entry, client);
      return client;
    })().finally(() => {
      if (entry.opening === opening) entry.opening = undefined;
    });
    entry.opening = opening;
    return opening;
  }

  function forward(client: Client, host: string, port: number): Promise<Duplex> {
    return new Promise((resolve, reject) => {
      try {
        client.forwardOut('127.0.0.1', 0, host, port, (err, stream) => {
          if (err) reject(new GatewayError(`接入网关无法连接 ${host}:${port}：${err.message.replace(/^\(SSH\) /, '')}`));
          else resolve(stream);
        });
      } catch (err) {
        reject(err); // "Not connected": the client dropped under us
      }
    });
  }

  function check(id: string): Promise<GatewayState> {
    const entry = entryOf(id);
    if (entry.checking) return entry.checking;
    const checking = (async (): Promise<GatewayState> => {
      const generation = entry.generation;
      const login = await loginOf(id);
      if (!login) {
        entries.delete(id);
        return { connected: false, message: `接入网关不存在：${id}` };
      }
      let state: GatewayState;
      try {
        const client = await open(login);
        state = { connected: true, message: MSG_CONNECTED };
        // This fresh client becomes the kept one when there is none; otherwise it only proved the handshake.
        if (generation === entry.generation && !closed && !entry.client) {
          entry.fingerprint = fingerprintOf(login);
          adopt(entry, client);
        } else {
          client.end();
        }
      } catch (err) {
        state = { connected: false, message: unavailable(describeSshError(err)) };
      }
      if (generation === entry.generation) entry.state = state;
      return state;
    })()
      .catch((err): GatewayState => ({ connected: false, message: unavailable(describeSshError(err)) }))
      .finally(() => {
        if (entry.checking === checking) entry.checking = undefined;
      });
    entry.checking = checking;
    return checking;
  }

  function checkInBackground(id: string): void {
    if (closed) return;
    void background.run(() => (closed ? Promise.resolve(undefined) : check(id)));
  }

  /** Forgets the gateway's client, handshakes in flight and state: what follows starts from its stored record. */
  function retire(entry: Entry): void {
    entry.generation++;
    entry.client?.end();
    entry.client = undefined;
    entry.opening = undefined;
    entry.checking = undefined;
    entry.state = undefined;
    entry.fingerprint = undefined;
  }

  function remove(gatewayId: string): void {
    const entry = entries.get(gatewayId);
    if (!entry) return;
    retire(entry);
    entries.delete(gatewayId);
  }

  return {
    async connect(gatewayId, host, port, timeoutMs) {
      let timer: NodeJS.Timeout | undefined;
      let settled = false;
      const attempt = async (): Promise<Duplex> => {
        const client = await clientFor(gatewayId);
        try {
          return await forward(client, host, port);
        } catch (err) {
          if (err instanceof GatewayError) throw err;
          // The kept client died between its last use and now: one more try on a fresh one.
          if (entryOf(gatewayId).client === client) entryOf(gatewayId).client = undefined;
          return forward(await clientFor(gatewayId), host, port);
        }
      };
      const work = attempt().then((stream) => {
        stream.on('error', (err: Error) => log.debug({ err }, 'access gateway tunnel error'));
        if (settled) stream.destroy(); // too late: the caller has its timeout already
        return stream;
      });
      const timeout = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new GatewayError(`通过接入网关连接 ${host}:${port} 超时（${timeoutMs} 毫秒）`)), timeoutMs);
      });
      try {
        return await Promise.race([work, timeout]);
      } finally {
        settled = true;
        clearTimeout(timer);
        work.catch(() => {}); // a late failure after the timeout is nobody's business
      }
    },

    state(gatewayId) {
      const entry = entryOf(gatewayId);
      if (entry.state) return entry.state;
      if (!entry.checking) checkInBackground(gatewayId);
      return { connected: false, message: MSG_NOT_CHECKED };
    },

    check,

    async reload(gatewayId) {
      const entry = entryOf(gatewayId);
      const login = await loginOf(gatewayId);
      if (!login) {
        remove(gatewayId);
        return;
      }
      if (entry.fingerprint !== fingerprintOf(login) || !entry.state) {
        retire(entry);
        checkInBackground(gatewayId);
      }
    },

    remove,

    async close() {
      closed = true;
      const closing = [...clients].map(
        (client) =>
          new Promise<void>((resolve) => {
            client.once('close', () => resolve());
            client.destroy();
            setTimeout(resolve, 1000).unref(); // a socket already half-closed has nothing left to destroy
          }),
      );
      entries.clear();
      await Promise.all(closing);
    },
  };
}
