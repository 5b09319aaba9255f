import net from 'node:net';
import type { Duplex } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG_CONNECTED, MSG_NOT_CHECKED } from '../../../server/modules/gateways/service.ts';
import { freePort, startSshd, type TestSshd } from '../sshd.ts';
import { adminWith, newKey, type Paged, resourcesHarness } from './helpers.ts';

interface Gateway {
  id: string;
  name: string;
  ip: string;
  port: number;
  accountType: string;
  username: string;
  owner: string;
  ownerName: string;
  created: string;
  passwordSet?: boolean;
  privateKeySet?: boolean;
  passphraseSet?: boolean;
  connected: boolean;
  message: string;
}

/** A loopback port nothing listens on. */
const closedPort = () => freePort();

/** A loopback TCP server that answers each line with `echo:<line>`. */
async function echoServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('data', (data) => socket.write(`echo:${data}`));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

const roundTrip = (stream: Duplex, text: string) =>
  new Promise<string>((resolve, reject) => {
    stream.once('data', (data: Buffer) => resolve(data.toString()));
    stream.once('error', reject);
    stream.write(text);
  });

describe('access gateways: records', () => {
  it('creates, reads, lists, updates and deletes, never answering a secret', async () => {
    const { h, api, secret } = await resourcesHarness();
    const port = await closedPort();
    const password = secret('gateway-password-1');
    // The 1.3.9 console sends accountType 'password' for a password login: stored as 'custom'.
    const created = await api.ok<Gateway>('POST', '/access-gateways', { body: { name: 'jump', ip: '127.0.0.1', port, accountType: 'password', username: 'root', password, privateKey: '', passphrase: '' } });
    expect(created).toMatchObject({ name: 'jump', ip: '127.0.0.1', port, accountType: 'custom', username: 'root', passwordSet: true, privateKeySet: false, passphraseSet: false, connected: false });
    const row = await h.db.selectFrom('accessGateways').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(h.box.decrypt(row.password!)).toBe(password);
    expect(await api.ok('GET', '/access-gateways')).toEqual([{ id: created.id, name: 'jump' }]);
    expect(await api.ok('GET', `/access-gateways/${created.id}`)).toMatchObject({ id: created.id, passwordSet: true });

    // The console's edit form echo (secrets empty) keeps the password.
    const detail = await api.ok<Gateway>('GET', `/access-gateways/${created.id}`);
    await api.ok('PUT', `/access-gateways/${created.id}`, { body: { ...detail, name: 'jump-2', password: '', privateKey: '', passphrase: '' } });
    const after = await h.db.selectFrom('accessGateways').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    expect([after.name, h.box.decrypt(after.password!)]).toEqual(['jump-2', password]);

    // A kept password does not follow the gateway to another address or login: the server would log in there at
    // once. Its owner (here the super admin) may; an editor gives the password again (issue 28, rule 2).
    const elsewhere = await closedPort();
    const editor = await adminWith(h, ['access-gateway', 'access-gateway-edit'], 'gw-editor');
    for (const to of [{ ip: '127.0.0.2' }, { port: elsewhere }, { username: 'someone-else' }]) {
      expect((await h.call('PUT', `/access-gateways/${created.id}`, { token: editor.token, body: { ...detail, ...to, password: '', privateKey: '', passphrase: '' } })).body).toEqual({
        code: -1,
        message: '接入网关的地址、端口或授权账户已更改，请重新输入密码（已保存的密码只发往原来的地址）',
      });
    }
    await api.ok('PUT', `/access-gateways/${created.id}`, { body: { ...detail, port: elsewhere, password: 'gateway-password-2', privateKey: '', passphrase: '' } });

    await api.ok('DELETE', `/access-gateways/${created.id}`);
    expect((await api.call('GET', `/access-gateways/${created.id}`)).body).toEqual({ code: -1, message: `接入网关不存在：${created.id}` });
    expect((await api.call('POST', `/access-gateways/${created.id}/reconnect`)).body).toEqual({ code: -1, message: `接入网关不存在：${created.id}` });
  });

  it('validates the login: username, password for custom, a parseable key for private-key; port and host', async () => {
    const { api, secret } = await resourcesHarness();
    const base = { name: 'g', ip: '127.0.0.1', port: 22 };
    const post = (body: object) => api.call('POST', '/access-gateways', { body: { ...base, ...body } });
    expect((await post({ accountType: 'custom', username: 'root' })).body).toEqual({ code: -1, message: '请输入授权密码' });
    expect((await post({ accountType: 'custom', password: secret('some-password') })).body).toEqual({ code: -1, message: '请输入授权账户' });
    expect((await post({ accountType: 'private-key', username: 'root' })).body).toEqual({ code: -1, message: '请输入私钥' });
    expect((await post({ accountType: 'private-key', username: 'root', privateKey: 'junk' })).body).toEqual({ code: -1, message: '无法解析私钥：Unsupported key format' });
    expect((await post({ accountType: 'telnet', username: 'root' })).body).toEqual({ code: 400, message: 'accountType: expected custom or private-key' });
    expect((await post({ accountType: 'custom', username: 'root', password: 'x', port: 0 })).body).toEqual({ code: 400, message: 'port: expected 1-65535' });
    expect((await post({ accountType: 'custom', username: 'root', password: 'x', port: '22' })).body.code).toBe(400);
    expect((await post({ accountType: 'custom', username: 'root', password: 'x', ip: 'a b' })).body).toEqual({ code: 400, message: 'ip: expected a host name or an IP address' });
    expect((await post({ accountType: 'custom', username: 'root', password: 'x', ip: '999.1.1.1' })).body).toEqual({ code: 400, message: 'ip: expected a host name or an IP address' });
    const key = newKey();
    secret(key.privateKey);
    const g = await api.ok<Gateway>('POST', '/access-gateways', { body: { ...base, accountType: 'private-key', username: 'root', privateKey: key.privateKey } });
    expect(g).toMatchObject({ accountType: 'private-key', privateKeySet: true, passwordSet: false });
    // Switching to a password login needs the password; the key is then cleared.
    expect((await api.call('PUT', `/access-gateways/${g.id}`, { body: { ...base, accountType: 'custom', username: 'root' } })).body).toEqual({ code: -1, message: '请输入授权密码' });
    await api.ok('PUT', `/access-gateways/${g.id}`, { body: { ...base, accountType: 'custom', username: 'root', password: secret('now-a-password') } });
    expect(await api.ok('GET', `/access-gateways/${g.id}`)).toMatchObject({ accountType: 'custom', privateKeySet: false, passwordSet: true });
  });

  it('refuses duplicate names; pages for real by name and ip with the gateway sort (only descend is DESC)', async () => {
    const { h, api } = await resourcesHarness();
    const port = await closedPort();
    const make = (name: string, ip: string) => {
      h.clock.advance(1000);
      return api.ok<Gateway>('POST', '/access-gateways', { body: { name, ip, port, accountType: 'custom', username: 'u', password: 'p' } });
    };
    const a = await make('alpha', '127.0.0.1');
    await make('beta', '127.0.0.2');
    await make('gamma', '127.0.1.3');
    expect((await api.call('POST', '/access-gateways', { body: { name: 'alpha', ip: '127.0.0.9', port, accountType: 'custom', username: 'u', password: 'p' } })).body).toEqual({
      code: -1,
      message: '接入网关名称「alpha」已存在',
    });
    expect((await api.call('PUT', `/access-gateways/${a.id}`, { body: { name: 'beta', ip: '127.0.0.1', port, accountType: 'custom', username: 'u' } })).body.code).toBe(-1);
    const page = (q: string) => api.ok<Paged<Gateway>>('GET', `/access-gateways/paging?${q}`);
    const names = (p: Paged<Gateway>) => p.items.map((g) => g.name);
    expect(names(await page(''))).toEqual(['alpha', 'beta', 'gamma']); // created, ascending unless 'descend'
    expect(names(await page('order=descend'))).toEqual(['gamma', 'beta', 'alpha']);
    expect(names(await page('field=name&order=descend'))).toEqual(['gamma', 'beta', 'alpha']);
    expect(names(await page('ip=127.0.0'))).toEqual(['alpha', 'beta']);
    expect(names(await page('name=a&ip=.1.'))).toEqual(['gamma']);
    expect(await page('pageIndex=2&pageSize=2')).toMatchObject({ total: 3, items: [{ name: 'gamma' }] });
    const item = (await page('name=alpha')).items[0]!;
    expect(Object.keys(item).sort()).toEqual(['accountType', 'connected', 'created', 'id', 'ip', 'message', 'name', 'owner', 'ownerName', 'port', 'username']);
  });

  it('deletes comma lists all or nothing', async () => {
    const { h, api } = await resourcesHarness();
    const body = (name: string) => ({ name, ip: '127.0.0.1', port: 1, accountType: 'custom', username: 'u', password: 'p' });
    const a = await api.ok<Gateway>('POST', '/access-gateways', { body: body('a') });
    const b = await api.ok<Gateway>('POST', '/access-gateways', { body: body('b') });
    expect((await api.call('DELETE', `/access-gateways/ghost,${a.id}`)).body).toEqual({ code: -1, message: '接入网关不存在：ghost', data: ['ghost'] });
    expect(await h.db.selectFrom('accessGateways').select('id').execute()).toHaveLength(2);
    await api.ok('DELETE', `/access-gateways/${a.id},${b.id}`);
    expect(await h.db.selectFrom('accessGateways').select('id').execute()).toEqual([]);
  });

  it('gates by method', async () => {
    const { h, api, as } = await resourcesHarness();
    const g = await api.ok<Gateway>('POST', '/access-gateways', { body: { name: 'a', ip: '127.0.0.1', port: 1, accountType: 'custom', username: 'u', password: 'p' } });
    const lister = as((await adminWith(h, ['access-gateway'], 'lister')).token);
    expect((await lister.call('GET', '/access-gateways/paging')).body.code).toBe(1);
    expect((await lister.call('POST', `/access-gateways/${g.id}/reconnect`)).body.code).toBe(1);
    expect((await lister.call('GET', `/access-gateways/${g.id}`)).body.code).toBe(403);
    const editor = as((await adminWith(h, ['access-gateway-edit'], 'editor')).token);
    expect((await editor.call('DELETE', `/access-gateways/${g.id}`)).body.code).toBe(403);
    expect((await editor.call('PUT', `/access-gateways/${g.id}`, { body: { name: 'b', ip: '127.0.0.1', port: 1, accountType: 'custom', username: 'u' } })).body.code).toBe(1);
  });
});

describe('access gateways against a real sshd', () => {
  let sshd: TestSshd;
  beforeAll(async () => {
    sshd = await startSshd();
  });
  afterAll(() => sshd?.stop());

  const passwordGateway = (name: string, password = sshd.password) => ({ name, ip: sshd.host, port: sshd.port, accountType: 'custom', username: sshd.username, password });

  it('reports the state of a real handshake: password and key ok, wrong password and closed port with a message', async () => {
    const { api, secret } = await resourcesHarness();
    secret(sshd.password);
    secret(sshd.privateKey);
    const byPassword = await api.ok<Gateway>('POST', '/access-gateways', { body: passwordGateway('pw') });
    expect(await api.ok('POST', `/access-gateways/${byPassword.id}/reconnect`)).toEqual({ connected: true, message: MSG_CONNECTED });

    const byKey = await api.ok<Gateway>('POST', '/access-gateways', {
      body: { name: 'key', ip: sshd.host, port: sshd.port, accountType: 'private-key', username: sshd.username, privateKey: sshd.privateKey },
    });
    expect(await api.ok('POST', `/access-gateways/${byKey.id}/reconnect`)).toEqual({ connected: true, message: MSG_CONNECTED });

    const wrong = await api.ok<Gateway>('POST', '/access-gateways', { body: passwordGateway('wrong', 'not-the-password') });
    expect(await api.ok('POST', `/access-gateways/${wrong.id}/reconnect`)).toEqual({ connected: false, message: '接入网关不可用：认证失败，请检查授权账户、密码或私钥' });

    const port = await closedPort();
    const closed = await api.ok<Gateway>('POST', '/access-gateways', { body: { ...passwordGateway('closed'), port } });
    expect(await api.ok('POST', `/access-gateways/${closed.id}/reconnect`)).toEqual({ connected: false, message: `接入网关不可用：连接被拒绝（127.0.0.1:${port}）` });

    // The list answers from the registry: the last handshake of each.
    const items = (await api.ok<Paged<Gateway>>('GET', '/access-gateways/paging?field=name&order=ascend')).items;
    expect(items.map((g) => [g.name, g.connected])).toEqual([
      ['closed', false],
      ['key', true],
      ['pw', true],
      ['wrong', false],
    ]);
    expect(items.find((g) => g.name === 'wrong')!.message).toMatch(/认证失败/);
  });

  it('a gateway never checked says so, then is checked in the background', async () => {
    const { api, gateways } = await resourcesHarness();
    const { id } = await api.ok<Gateway>('POST', '/access-gateways', { body: passwordGateway('pw') });
    gateways.remove(id); // as after a restart: nothing known about it
    expect((await api.ok<Gateway>('GET', `/access-gateways/${id}`)).message).toBe(MSG_NOT_CHECKED);
    await expect.poll(() => gateways.state(id), { timeout: 15_000 }).toEqual({ connected: true, message: MSG_CONNECTED });
    expect(await api.ok<Gateway>('GET', `/access-gateways/${id}`)).toMatchObject({ connected: true, message: MSG_CONNECTED });
  });

  it('connect() opens a TCP stream through the gateway to a loopback server; the client is kept and reused', async () => {
    const { h, api, gateways } = await resourcesHarness();
    const echo = await echoServer();
    try {
      const { id } = await api.ok<Gateway>('POST', '/access-gateways', { body: passwordGateway('pw') });
      const first = await gateways.connect(id, '127.0.0.1', echo.port, 10_000);
      expect(await roundTrip(first, 'hello')).toBe('echo:hello');
      // Kept and reused: with the stored password spoiled behind the service's back, a new handshake would fail.
      await h.db.updateTable('accessGateways').set({ password: h.box.encrypt('spoiled') }).where('id', '=', id).execute();
      const second = await gateways.connect(id, '127.0.0.1', echo.port, 10_000);
      expect(await roundTrip(second, 'again')).toBe('echo:again');
      first.destroy();
      second.destroy();
      expect(gateways.state(id)).toEqual({ connected: true, message: MSG_CONNECTED });

      // A closed target port: the gateway says so, the gateway itself stays connected.
      const port = await closedPort();
      await expect(gateways.connect(id, '127.0.0.1', port, 10_000)).rejects.toThrow(`接入网关无法连接 127.0.0.1:${port}`);
      expect(gateways.state(id).connected).toBe(true);

      // Deleting the gateway ends its tunnels.
      const open = await gateways.connect(id, '127.0.0.1', echo.port, 10_000);
      const ended = new Promise<void>((resolve) => open.once('close', () => resolve()));
      open.resume(); // a channel says 'close' once its end has been read
      await api.ok('DELETE', `/access-gateways/${id}`);
      await ended;
      await expect(gateways.connect(id, '127.0.0.1', echo.port, 5_000)).rejects.toThrow(`接入网关不存在：${id}`);
    } finally {
      await echo.close();
    }
  });

  it('connect() through a gateway that refuses the login rejects with its message; a timeout rejects in time', async () => {
    const { api, gateways } = await resourcesHarness();
    const wrong = await api.ok<Gateway>('POST', '/access-gateways', { body: passwordGateway('wrong', 'bad-password') });
    await expect(gateways.connect(wrong.id, '127.0.0.1', 1, 10_000)).rejects.toThrow('接入网关不可用：认证失败');
    // A "gateway" that accepts TCP but never speaks SSH: the caller's timeout wins over the 10 s handshake timeout.
    const silent = net.createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const mute = await api.ok<Gateway>('POST', '/access-gateways', { body: { ...passwordGateway('mute'), port: (silent.address() as net.AddressInfo).port } });
      const started = Date.now();
      await expect(gateways.connect(mute.id, '127.0.0.1', 1, 300)).rejects.toThrow('超时');
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      silent.close();
    }
  });

  it('an edit that changes the login is used at once (and one that keeps the secrets keeps working)', async () => {
    const { api, gateways, secret } = await resourcesHarness();
    secret(sshd.password);
    const { id } = await api.ok<Gateway>('POST', '/access-gateways', { body: passwordGateway('pw') });
    expect(await api.ok('POST', `/access-gateways/${id}/reconnect`)).toMatchObject({ connected: true });
    // The 1.3.9 console's echo with an empty password: the live gateway keeps the stored one (1.3.9 lost it: quirk 20).
    await api.ok('PUT', `/access-gateways/${id}`, { body: { ...passwordGateway('renamed'), password: '' } });
    expect(await api.ok('POST', `/access-gateways/${id}/reconnect`)).toMatchObject({ connected: true });
    // A wrong password now: the next handshake uses it.
    await api.ok('PUT', `/access-gateways/${id}`, { body: passwordGateway('renamed', 'wrong-password') });
    expect(await api.ok('POST', `/access-gateways/${id}/reconnect`)).toMatchObject({ connected: false });
    await expect(gateways.connect(id, '127.0.0.1', sshd.port, 10_000)).rejects.toThrow('认证失败');
    // Switched to the key login: works again.
    await api.ok('PUT', `/access-gateways/${id}`, {
      body: { name: 'renamed', ip: sshd.host, port: sshd.port, accountType: 'private-key', username: sshd.username, privateKey: secret(sshd.privateKey) },
    });
    expect(await api.ok('POST', `/access-gateways/${id}/reconnect`)).toEqual({ connected: true, message: MSG_CONNECTED });
  });
});
