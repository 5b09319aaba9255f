import { expect } from 'vitest';
import WebSocket from 'ws';
import { defineModule } from '../../../server/http/routes.ts';
import type { LiveSessions } from '../../../server/modules/sessions/live.ts';
import type { HarnessOptions } from '../harness.ts';
import { resourcesHarness } from '../resources/helpers.ts';
import type { TestSshd } from '../sshd.ts';

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
  const grab = defineModule('grab-live', (deps) => {
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
    /** `deps.live` of the running app (after a restart, of the new one). */
    get live(): LiveSessions {
      if (!live) throw new Error('live sessions not captured');
      return live;
    },
    base, asset, web, open, attach, monitor, terminal, row, socketUrl, assertNoSecretIn };
}

/** Waits until `test` holds (polling), for rows written after a socket event. */
export async function eventually(what: string, test: () => Promise<boolean> | boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
