import type { AppDeps } from '../../../server/modules/index.ts';
import fs from 'node:fs';
import path from 'node:path';
import ssh2, { type SFTPWrapper } from 'ssh2';
import type { Config } from '../../../server/config.ts';
import type { SessionsTable } from '../../../server/db/schema.ts';
import { defineModule } from '../../../server/http/routes.ts';
import { uuid } from '../../../server/lib/ids.ts';
import type { LiveSession, LiveSessions } from '../../../server/modules/sessions/live.ts';
import { recordingPath, sshCapabilities } from '../../../server/modules/sessions/ssh/relay.ts';
import type { HarnessOptions } from '../harness.ts';
import { resourcesHarness } from '../resources/helpers.ts';
import { sessionRow } from '../overview/rows.ts';
import type { TestSshd } from '../sshd.ts';
import { expect } from 'vitest';
import WebSocket from 'ws';

const { Client } = ssh2;

/**
 * The resources harness plus the running app's `deps.live` (to register sessions as the relay does) and its config
 * (the recording folder).
 */
export async function sessionsHarness(opts: HarnessOptions = {}) {
  let live: LiveSessions | undefined;
  let config: Config | undefined;
  const grab = defineModule<AppDeps>('grab-live', (deps) => {
    live = deps.live;
    config = deps.config;
    return [];
  });
  const r = await resourcesHarness({ ...opts, modules: [...(opts.modules ?? []), grab] });
  const { h } = r;
  return {
    ...r,
    get live(): LiveSessions {
      if (!live) throw new Error('live sessions not captured');
      return live;
    },
    get config(): Config {
      if (!config) throw new Error('config not captured');
      return config;
    },
    /** Inserts a session row as the relay leaves it (defaults: a disconnected SSH session of the super admin). */
    async seedSession(s: Partial<SessionsTable> = {}): Promise<string> {
      const id = s.id ?? uuid();
      const now = h.clock.now();
      const row = sessionRow({ assetId: 'no-asset', ip: '10.0.0.7', connectionId: id, created: now, connectedTime: now, disconnectedTime: now + 1000, ...s, id });
      await h.db.insertInto('sessions').values(row).execute();
      return id;
    },
    /** Writes the session's recording file (as the relay would) and returns its path. */
    writeRecording(sessionId: string, content: string | Buffer): string {
      const file = recordingPath(config!, sessionId);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, content);
      return file;
    },
  };
}

export type SessionsHarness = Awaited<ReturnType<typeof sessionsHarness>>;

/** A LiveSession whose close() is observable: every call is recorded, and it leaves the registry as the relay's does. */
export interface TestLiveSession extends LiveSession {
  /** The SSH connection: its `files` and `exec` capabilities use it (and `sftp()`) at each call, so a test may swap them. */
  ssh: ssh2.Client;
  sftp(): Promise<SFTPWrapper>;
  closed: { code: number; message: string }[];
  /** Ends the SSH connection (afterAll / test end). */
  end(): void;
}

/**
 * Registers a live session backed by a real ssh2 connection to the test sshd, standing in for the terminal relay
 * (another part of the server): what the file manager, stats and forced disconnect need from a running session.
 */
export async function connectLive(live: LiveSessions, sshd: TestSshd, s: { id: string; creator: string; assetId: string }): Promise<TestLiveSession> {
  const ssh = new Client();
  await new Promise<void>((resolve, reject) => {
    ssh.once('ready', () => resolve());
    ssh.once('error', reject);
    ssh.connect({ host: sshd.host, port: sshd.port, username: sshd.username, privateKey: sshd.privateKey, readyTimeout: 10_000 });
  });
  ssh.on('error', () => {}); // a connection reset after the test is not its failure
  let sftp: Promise<SFTPWrapper> | undefined;
  const { exec } = sshCapabilities(() => session.ssh);
  const session: TestLiveSession = {
    ...s,
    ssh,
    closed: [],
    capabilities: { exec, files: { sftp: () => session.sftp() } },
    sftp() {
      sftp ??= new Promise((resolve, reject) => ssh.sftp((err, channel) => (err ? reject(err) : resolve(channel))));
      return sftp;
    },
    async close(code, message) {
      session.closed.push({ code, message });
      live.remove(session);
      ssh.end();
    },
    end() {
      live.remove(session);
      ssh.end();
    },
  };
  live.add(session);
  return session;
}

/** The end of a shell prompt (bash may follow it with an erase-to-end-of-line). */
export const PROMPT = new RegExp(`[$#] (${String.fromCharCode(27)}\\[K)?$`);

/** A terminal or monitor socket as a test sees it: every frame kept, the output joined, waits with deadlines. */
export class TermClient {
  readonly frames: string[] = [];
  output = '';
  /** The `0…` frame's text, once received. */
  closedWith: string | undefined;
  readonly closed: Promise<void>;
  private waiters: (() => void)[] = [];

  constructor(readonly ws: WebSocket) {
    ws.on('message', (data: Buffer) => {
      const text = data.toString('utf8');
      this.frames.push(text);
      if (text[0] === '2') this.output += text.slice(1);
      if (text[0] === '0') this.closedWith = text.slice(1);
      for (const w of this.waiters) w();
    });
    this.closed = new Promise((resolve) => ws.once('close', () => resolve()));
    this.closed.then(() => {
      for (const w of this.waiters) w();
    });
  }

  static open(url: string): Promise<TermClient> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { perMessageDeflate: false });
      const client = new TermClient(ws);
      ws.once('open', () => resolve(client));
      ws.once('error', reject);
    });
  }

  /** Resolves once `test()` holds (checked on every frame), or fails after `ms` with what was received. */
  async until(what: string, test: () => boolean, ms = 10_000): Promise<void> {
    if (test()) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== check);
        reject(new Error(`timed out waiting for ${what}; frames: ${JSON.stringify(this.frames.slice(-10)).slice(-2000)}`));
      }, ms);
      const check = () => {
        if (!test()) return;
        clearTimeout(timer);
        this.waiters = this.waiters.filter((w) => w !== check);
        resolve();
      };
      this.waiters.push(check);
    });
  }

  /** Waits for output matching `pattern` (after `from`, an index into `output`). */
  waitOutput(pattern: RegExp | string, from = 0, ms?: number): Promise<void> {
    const hit = () => (typeof pattern === 'string' ? this.output.indexOf(pattern, from) >= 0 : pattern.test(this.output.slice(from)));
    return this.until(`output ${pattern}`, hit, ms);
  }

  connected(): Promise<void> {
    return this.until('the connected frame 1', () => this.frames.includes('1') || this.closedWith !== undefined);
  }

  /** Sends keys (frame `2`). */
  type(keys: string): void {
    this.ws.send(`2${keys}`);
  }

  resize(cols: number, rows: number): void {
    this.ws.send(`3${Buffer.from(JSON.stringify({ cols, rows })).toString('base64')}`);
  }

  close(): Promise<void> {
    this.ws.close();
    return this.closed;
  }
}

/**
 * A running server (listening) with the resources harness, an SSH asset on the test sshd, and helpers to open a
 * session and attach to it. The caller owns `sshd`.
 */
export async function terminalWorld(sshd: TestSshd, opts: HarnessOptions = {}) {
  let live: LiveSessions | undefined;
  const grab = defineModule<AppDeps>('grab-live', (deps) => {
    live = deps.live;
    return [];
  });
  const r = await resourcesHarness({ ...opts, modules: [...(opts.modules ?? []), grab] });
  const { h, api } = r;
  const base = (await h.listen()).replace(/^http/, 'ws');
  const password = r.secret(sshd.password);
  r.secret(sshd.privateKey);
  const asset = async (name: string, extra: Record<string, unknown> = {}) =>
    (
      await api.ok<{ id: string }>('POST', '/assets', {
        body: { name, protocol: 'ssh', ip: sshd.host, port: sshd.port, accountType: 'custom', username: sshd.username, password, ...extra },
      })
    ).id;
  const web = await asset('web');
  /** POST /sessions as `token` (default: the super admin). */
  const open = async (assetId = web, token = r.root) => (await r.as(token).ok<{ id: string }>('POST', `/sessions?assetId=${assetId}&mode=native`)).id;
  const socketUrl = (sessionId: string, token = r.root, query = 'cols=120&rows=40') => `${base}/sessions/${sessionId}/ssh?${query}&X-Auth-Token=${encodeURIComponent(token)}`;
  const attach = (sessionId: string, token = r.root, query?: string) => TermClient.open(socketUrl(sessionId, token, query));
  const monitor = (sessionId: string, token = r.root) => TermClient.open(`${base}/sessions/${sessionId}/ssh-monitor?X-Auth-Token=${encodeURIComponent(token)}`);
  /** Opens a session, attaches, waits for `1`, calls /connect and waits for the shell's prompt. */
  const terminal = async (assetId = web) => {
    const id = await open(assetId);
    const term = await attach(id);
    await term.connected();
    expect(term.closedWith, 'the terminal closed instead of connecting').toBeUndefined();
    await api.ok('POST', `/sessions/${id}/connect`);
    await term.waitOutput(PROMPT);
    return { id, term };
  };
  const row = (id: string) => h.db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  /** No frame of any client carries a secret (the harness checks the HTTP answers). */
  const assertNoSecretIn = (...clients: TermClient[]) => {
    for (const c of clients) {
      const all = c.frames.join('\n');
      expect(all.includes(sshd.password), 'a frame carries the password').toBe(false);
      for (const line of sshd.privateKey.split('\n')) if (line.length >= 20) expect(all.includes(line), 'a frame carries the private key').toBe(false);
    }
  };
  return {
    ...r,
    /** `deps.live` of the running app (after a restart, of the new one), its SSH sessions' SFTP at `sftp()`. */
    get live() {
      if (!live) throw new Error('live sessions not captured');
      return sshView(live);
    },
    base, asset, web, open, attach, monitor, terminal, row, socketUrl, assertNoSecretIn };
}

/** An SSH session as the terminal tests use it: its `files` capability's channel at `sftp()`. */
type SshLiveSession = LiveSession & { sftp(): Promise<SFTPWrapper> };

/** The registry with `get` answering SshLiveSession (a view: the session itself acts, so close() ends it as the app's). */
function sshView(live: LiveSessions) {
  return {
    ...live,
    get(id: string): SshLiveSession | undefined {
      const s = live.get(id);
      if (!s) return undefined;
      return { id: s.id, creator: s.creator, assetId: s.assetId, capabilities: s.capabilities, close: (code, message) => s.close(code, message), sftp: () => s.capabilities.files!.sftp() };
    },
  };
}

/** Waits until `test` holds (polling), for rows written after a socket event. */
export async function eventually(what: string, test: () => Promise<boolean> | boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
