// A database that looks lived-in: every list has rows with every column filled, made the way a real installation
// makes them — through the server's own API and a real SSH session on a real sshd (recorded, with its command index,
// file operations and a forced disconnect), not by writing rows behind the server's back. Issue 27: a page broke only
// in the production bundle, only once a column (an asset's last access time) was filled.
import WebSocket from 'ws';
import type { TestSshd } from '../server/sshd';
import type { RunningServer } from './server';

type Method = 'GET' | 'POST' | 'PUT';

/** One envelope call; throws with the server's message on anything but code 1. */
async function call<T>(server: RunningServer, token: string | null, method: Method, path: string, data?: unknown): Promise<T> {
  const res = await fetch(`${server.baseURL}${path}`, {
    method,
    headers: { ...(token ? { 'X-Auth-Token': token } : {}), ...(data === undefined ? {} : { 'content-type': 'application/json' }) },
    body: data === undefined ? undefined : JSON.stringify(data),
  });
  const body = (await res.json()) as { code: number; message: string; data: T };
  if (body.code !== 1) throw new Error(`${method} ${path}: ${body.code} ${body.message}`);
  return body.data;
}

async function login(server: RunningServer, username: string, password: string): Promise<string> {
  return (await call<{ token: string }>(server, null, 'POST', '/login', { username, password })).token;
}

/** `YYYY-MM-DD HH:mm:ss` in the server's local time, `days` from now. */
function wireDate(days: number): string {
  const d = new Date(Date.now() + days * 86_400_000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/** A terminal socket driven from Node: the wire framing of contract §5 (`2` data, `3` resize, `1` connected, `0` closed). */
class Terminal {
  output = '';
  connected = false;
  closedWith: string | undefined;
  private readonly ws: WebSocket;
  private readonly opened: Promise<void>;
  private readonly closed: Promise<void>;

  constructor(url: string) {
    this.ws = new WebSocket(url, { perMessageDeflate: false });
    this.opened = new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('error', reject);
    });
    this.closed = new Promise((resolve) => this.ws.once('close', () => resolve()));
    this.ws.on('message', (data: Buffer) => {
      const text = data.toString('utf8');
      if (text === '1') this.connected = true;
      if (text[0] === '2') this.output += text.slice(1);
      if (text[0] === '0') this.closedWith = text.slice(1);
    });
  }

  async until(what: string, test: () => boolean, ms = 15_000): Promise<void> {
    await this.opened;
    const deadline = Date.now() + ms;
    while (!test()) {
      if (this.closedWith !== undefined) throw new Error(`terminal closed (${this.closedWith}) while waiting for ${what}`);
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; output: ${JSON.stringify(this.output.slice(-500))}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Types a command line and waits for `marker` in the output after it. */
  async run(line: string, marker: string): Promise<void> {
    const from = this.output.length;
    this.ws.send(`2${line}\r`);
    await this.until(`"${marker}"`, () => this.output.indexOf(marker, from) >= 0);
  }

  resize(cols: number, rows: number): void {
    this.ws.send(`3${Buffer.from(JSON.stringify({ cols, rows })).toString('base64')}`);
  }

  close(): Promise<void> {
    this.ws.close();
    return this.closed;
  }

  /** Resolves once the server has closed the socket. */
  ended(): Promise<void> {
    return this.closed;
  }
}

export interface LivedIn {
  adminToken: string;
  /** A type-user account granted assets, with sessions of its own. */
  user: { username: string; password: string };
  /** A disconnected, recorded session (playback). */
  recordedSessionId: string;
  /** The SSH asset the sessions ran on (its last access time is set). */
  assetId: string;
}

/**
 * Fills a fresh server: credentials (password and key), a gateway, commands, strategies, a role, users of both types
 * with mail and roles, a user group, assets with tags, descriptions, owners, credentials and a gateway, grants of every
 * kind with strategies and validity windows, logins that worked and failed, and SSH sessions on `sshd` that ran
 * commands, made and removed folders, one closed by its user and one cut by the admin.
 */
export async function seedLivedIn(server: RunningServer, sshd: TestSshd): Promise<LivedIn> {
  const admin = await login(server, 'admin', server.adminPassword);
  const post = <T = unknown>(path: string, data: unknown, token = admin) => call<T>(server, token, 'POST', path, data);
  const get = <T>(path: string, token = admin) => call<T>(server, token, 'GET', path);

  await post('/credentials', { name: 'prod-root', type: 'custom', username: sshd.username, password: sshd.password });
  await post('/credentials', { name: 'deploy-key', type: 'private-key', username: sshd.username, privateKey: sshd.privateKey, passphrase: '' });
  const credentials = await get<{ items: { id: string; name: string }[] }>('/credentials/paging?pageIndex=1&pageSize=10');
  const keyCredential = credentials.items.find((c) => c.name === 'deploy-key')?.id ?? '';
  await post('/access-gateways', { name: 'edge-gateway', ip: sshd.host, port: sshd.port, accountType: 'custom', username: sshd.username, password: sshd.password });
  const gateways = await get<{ items: { id: string }[] }>('/access-gateways/paging?pageIndex=1&pageSize=10');

  await post('/commands', { name: 'disk usage', content: 'df -h' });
  await post('/commands', { name: 'who is on', content: 'who' });
  await post('/strategies', { name: 'full-files', upload: true, download: true, delete: true, rename: true, edit: true, createDir: true, copy: true, paste: true });
  await post('/strategies', { name: 'read-only', download: true, copy: true });
  const strategies = await get<{ items: { id: string; name: string }[] }>('/strategies/paging?pageIndex=1&pageSize=10');
  const strategy = (name: string) => strategies.items.find((s) => s.name === name)?.id ?? '';
  await post('/roles', { name: 'operators', menus: ['asset', 'asset-detail', 'credential', 'online-session', 'offline-session', 'login-log'].map((menuId) => ({ menuId, checked: true })) });
  const roles = await get<{ items: { id: string; name: string }[] }>('/roles/paging?pageIndex=1&pageSize=20');
  const operators = roles.items.find((r) => r.name === 'operators')?.id ?? '';

  const user = { username: 'alice', password: 'Alice-Lived-In-1' };
  await post('/users', { username: user.username, nickname: 'Alice Wang', type: 'user', mail: 'alice@example.com', roles: [], password: user.password });
  await post('/users', { username: 'bob', nickname: 'Bob Li', type: 'admin', mail: 'bob@example.com', roles: [operators], password: 'Bob-Lived-In-1' });
  const users = await get<{ id: string; username: string }[]>('/users');
  const userId = (name: string) => users.find((u) => u.username === name)?.id ?? '';
  await post('/user-groups', { name: 'ops-team', members: [userId('alice'), userId('bob')] });
  const groups = await get<{ items: { id: string }[] }>('/user-groups/paging?pageIndex=1&pageSize=10');

  const common = { protocol: 'ssh', ip: sshd.host, port: sshd.port };
  const asset = await post<{ id: string }>('/assets', {
    ...common, name: 'build-host', accountType: 'custom', username: sshd.username, password: sshd.password, tags: 'prod,linux', description: 'CI build machine',
  });
  const keyAsset = await post<{ id: string }>('/assets', {
    ...common, name: 'key-host', accountType: 'credential', credentialId: keyCredential, tags: 'staging', description: 'Signs in with the deploy key',
  });
  const gatewayAsset = await post<{ id: string }>('/assets', {
    ...common, name: 'behind-gateway', accountType: 'custom', username: sshd.username, password: sshd.password, accessGatewayId: gateways.items[0]?.id ?? '',
    tags: 'dmz', description: 'Reached through edge-gateway',
  });

  const window = { validFrom: wireDate(-1), validUntil: wireDate(365) };
  await post('/authorised/users', { userIds: [userId('alice')], assetId: asset.id, strategyId: strategy('full-files'), ...window });
  await post('/authorised/user-groups', { userGroupIds: [groups.items[0]?.id ?? ''], assetId: keyAsset.id, strategyId: strategy('read-only'), ...window });
  await post('/authorised/assets', { assetIds: [gatewayAsset.id], userId: userId('alice'), userGroupId: null, strategyId: strategy('read-only'), validFrom: wireDate(-30), validUntil: wireDate(-2) });

  // The login log: successes of both accounts and a failure.
  const alice = await login(server, user.username, user.password);
  await login(server, 'bob', 'Bob-Lived-In-1');
  await fetch(`${server.baseURL}/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'alice', password: 'wrong-password-1' }) });

  const ws = server.baseURL.replace(/^http/, 'ws');
  const open = async (token: string) => {
    const { id } = await post<{ id: string }>(`/sessions?assetId=${asset.id}&mode=native`, {}, token);
    const term = new Terminal(`${ws}/sessions/${id}/ssh?cols=120&rows=40&X-Auth-Token=${encodeURIComponent(token)}`);
    await term.until('the connected frame', () => term.connected);
    await post(`/sessions/${id}/connect`, {}, token);
    await term.until('the prompt', () => /[$#] /.test(term.output));
    return { id, term };
  };

  // A session its user ends: commands for the index, folders for the file log.
  const first = await open(alice);
  await first.term.run('echo lived-$((6*7))', 'lived-42');
  await first.term.run('ls -la /', 'total');
  first.term.resize(100, 30);
  const dir = `/tmp/jumpgate-lived-in-${Date.now()}`;
  await call(server, alice, 'POST', `/sessions/${first.id}/mkdir?dir=${encodeURIComponent(dir)}`);
  await call(server, alice, 'POST', `/sessions/${first.id}/rm`, { file: dir });
  await first.term.close();

  // A session the admin cuts.
  const second = await open(alice);
  await second.term.run('uptime', 'load average');
  await post(`/sessions/${second.id}/disconnect`, {});
  await second.term.ended();

  // Both sessions are history once their rows say so.
  const deadline = Date.now() + 15_000;
  for (;;) {
    const online = await get<{ total: number }>('/sessions/paging?pageIndex=1&pageSize=10&status=connected');
    if (online.total === 0) break;
    if (Date.now() > deadline) throw new Error('the lived-in sessions did not end');
    await new Promise((r) => setTimeout(r, 100));
  }
  return { adminToken: admin, user, recordedSessionId: first.id, assetId: asset.id };
}
