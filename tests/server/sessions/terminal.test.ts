import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG_NEEDS_UPGRADE } from '../../../server/http/routes.ts';
import { ed25519KeyPair, startSshd, type TestSshd } from '../sshd.ts';
import { eventually, TermClient, terminalWorld } from './helpers.ts';

/** A minimal SOCKS5 proxy with user name/password (RFC 1928/1929) for the test; counts the tunnels it opened. */
async function socksProxy(user: string, pass: string) {
  let tunnels = 0;
  const server = net.createServer((client) => {
    client.once('data', (hello) => {
      client.write(Buffer.from([5, hello.includes(2) ? 2 : 0xff]));
      client.once('data', (auth) => {
        const u = auth.subarray(2, 2 + (auth[1] as number)).toString();
        const p = auth.subarray(3 + (auth[1] as number)).toString();
        const good = u === user && p === pass;
        client.write(Buffer.from([1, good ? 0 : 1]));
        if (!good) return client.end();
        client.once('data', (req) => {
          const len = req[4] as number;
          const host = req.subarray(5, 5 + len).toString();
          const port = req.readUInt16BE(5 + len);
          const target = net.connect(port, host, () => {
            tunnels++;
            client.write(Buffer.from([5, 0, 0, 1, 127, 0, 0, 1, 0, 0]));
            client.pipe(target).pipe(client);
          });
          target.on('error', () => client.destroy());
        });
      });
    });
    client.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as net.AddressInfo).port, tunnels: () => tunnels, close: () => new Promise((r) => server.close(r)) };
}

let sshd: TestSshd;
beforeAll(async () => {
  sshd = await startSshd();
});
afterAll(() => sshd?.stop());

describe('GET /sessions/:id/ssh', () => {
  it('connects, relays keys and output, and ends with code 0 when the user leaves', async () => {
    const w = await terminalWorld(sshd);
    const { id, term } = await w.terminal();
    expect(await w.row(id)).toMatchObject({ status: 'connected', username: sshd.username, connectionId: id, width: 120, height: 40, code: 0 });
    expect(w.live.get(id)).toBeDefined();
    const from = term.output.length;
    term.type('echo "hello $((6*7))"\r');
    await term.waitOutput('hello 42', from);
    // The file manager's SFTP channel: opened once, on the session's own connection.
    const live = w.live.get(id);
    const sftp = await live?.sftp();
    expect(await live?.sftp()).toBe(sftp);
    const names = await new Promise<string[]>((resolve, reject) => sftp?.readdir('.', (err, list) => (err ? reject(err) : resolve(list.map((f) => f.filename)))));
    expect(names).toContain('.bashrc');
    // The asset became active with the connect.
    expect((await w.h.db.selectFrom('assets').select('active').where('id', '=', w.web).executeTakeFirstOrThrow()).active).toBe(1);
    await term.close();
    await eventually('the row disconnected', async () => (await w.row(id)).status === 'disconnected');
    expect(await w.row(id)).toMatchObject({ code: 0, message: '用户正常退出' });
    expect(w.live.get(id)).toBeUndefined();
    w.assertNoSecretIn(term);
  });

  it('applies a resize to the PTY and stores width = cols, height = rows (also by POST /resize)', async () => {
    const w = await terminalWorld(sshd);
    const { id, term } = await w.terminal();
    term.resize(100, 30);
    await eventually('the stored size', async () => (await w.row(id)).width === 100);
    expect(await w.row(id)).toMatchObject({ width: 100, height: 30 });
    const from = term.output.length;
    term.type('stty size\r');
    await term.waitOutput('30 100', from);
    // A malformed resize is ignored, the session goes on.
    term.ws.send('3not-base64-json');
    term.ws.send('9unknown type');
    expect(await w.api.ok('POST', `/sessions/${id}/resize?width=90&height=20`)).toBe('');
    expect(await w.row(id)).toMatchObject({ width: 90, height: 20 });
    expect((await w.api.call('POST', `/sessions/${id}/resize?width=90`)).body.code).toBe(400);
    term.ws.send('4');
    await term.until('the pong', () => term.frames.includes('4'));
    await term.close();
  });

  it('pauses the SSH stream while the client asks (5) and resumes on 6', async () => {
    const w = await terminalWorld(sshd);
    const { term } = await w.terminal();
    term.ws.send('5');
    const from = term.output.length;
    term.type('seq 1 200000\r');
    await new Promise((r) => setTimeout(r, 700)); // seq alone would be done in well under 100 ms
    expect(term.output.slice(from)).not.toContain('200000');
    term.ws.send('6');
    await term.waitOutput('\n200000\r\n', from);
    await term.close();
  });

  it('keeps a UTF-8 character whole when SSH splits it across chunks', async () => {
    const w = await terminalWorld(sshd);
    const { term } = await w.terminal();
    const from = term.output.length;
    // 中 = e4 b8 ad, 文 = e6 96 87: the first two bytes of 中 leave alone, the rest 300 ms later.
    term.type("printf '\\344\\270'; sleep 0.3; printf '\\255\\346\\226\\207 done\\n'\r");
    await term.waitOutput('中文 done', from);
    expect(term.output).not.toContain('\uFFFD');
    await term.close();
  });

  it('logs in with a private key, and through the asset access gateway', async () => {
    const w = await terminalWorld(sshd);
    const keyed = await w.asset('keyed', { accountType: 'private-key', password: '', privateKey: sshd.privateKey });
    const a = await w.terminal(keyed);
    a.term.type('echo key-$((1+1))\r');
    await a.term.waitOutput('key-2');
    await a.term.close();

    const gateway = await w.api.ok<{ id: string }>('POST', '/access-gateways', {
      body: { name: 'jump', ip: sshd.host, port: sshd.port, accountType: 'custom', username: sshd.username, password: sshd.password },
    });
    // The asset's address is seen from the gateway (here the same host).
    const behind = await w.asset('behind', { accessGatewayId: gateway.id, ip: '127.0.0.1' });
    const b = await w.terminal(behind);
    b.term.type('echo via-$((2+3))\r');
    await b.term.waitOutput('via-5');
    await b.term.close();
    w.assertNoSecretIn(a.term, b.term);
  });

  it('connects through the asset SOCKS5 proxy with its user name and password', async () => {
    const w = await terminalWorld(sshd);
    const proxy = await socksProxy('proxy-user', 'Proxy-Pass-12345');
    try {
      const socks = { 'socks-proxy-enable': true, 'socks-proxy-host': '127.0.0.1', 'socks-proxy-port': proxy.port, 'socks-proxy-username': 'proxy-user' };
      const proxied = await w.asset('proxied', { ...socks, 'socks-proxy-password': w.secret('Proxy-Pass-12345') });
      const { term } = await w.terminal(proxied);
      term.type('echo socks-$((4+4))\r');
      await term.waitOutput('socks-8');
      expect(proxy.tunnels()).toBe(1);
      await term.close();
      const wrong = await w.asset('proxied-wrong', { ...socks, 'socks-proxy-password': w.secret('Wrong-Proxy-Pass-1') });
      const bad = await w.attach(await w.open(wrong));
      await bad.closed;
      expect(bad.closedWith).toBe('创建SSH客户端失败：SOCKS 代理连接失败：代理认证失败');
      w.assertNoSecretIn(term, bad);
    } finally {
      await proxy.close();
    }
  });

  it('refuses a wrong password or key with a reason, storing code and message', async () => {
    const w = await terminalWorld(sshd);
    const wrongPassword = await w.asset('wrong-password', { password: w.secret('Not-The-Password-1') });
    const otherKey = ed25519KeyPair().private;
    const wrongKey = await w.asset('wrong-key', { accountType: 'private-key', password: '', privateKey: w.secret(otherKey) });
    for (const assetId of [wrongPassword, wrongKey]) {
      const id = await w.open(assetId);
      const term = await w.attach(id);
      await term.closed;
      expect(term.closedWith).toBe('创建SSH客户端失败：认证失败，请检查授权账户、密码或私钥');
      expect(term.frames).not.toContain('1');
      expect(await w.row(id)).toMatchObject({ status: 'disconnected', code: 806, message: term.closedWith });
      w.assertNoSecretIn(term);
    }
    // Unreachable: a port nothing listens on.
    const closedPort = await w.asset('closed-port', { port: 1 });
    const id = await w.open(closedPort);
    const term = await w.attach(id);
    await term.closed;
    expect(term.closedWith).toMatch(/^创建SSH客户端失败：连接被拒绝/);
    // A gateway that cannot log in: 803.
    const gw = await w.api.ok<{ id: string }>('POST', '/access-gateways', {
      body: { name: 'bad-jump', ip: sshd.host, port: sshd.port, accountType: 'custom', username: sshd.username, password: 'Wrong-Gateway-Pass-1' },
    });
    const behind = await w.asset('behind-bad', { accessGatewayId: gw.id });
    const sid = await w.open(behind);
    const t2 = await w.attach(sid);
    await t2.closed;
    expect(t2.closedWith).toMatch(/^获取接入网关失败：接入网关不可用：认证失败/);
    expect(await w.row(sid)).toMatchObject({ status: 'disconnected', code: 803 });
  });

  it('lets only the creator attach, once, to a session never attached', async () => {
    const w = await terminalWorld(sshd);
    const aliceId = await w.h.createUser({ username: 'alice', type: 'user' });
    const alice = await w.h.accessToken(aliceId);
    const id = await w.open();
    // Another user: refused with the answer an unknown session gets.
    const intruder = await w.attach(id, alice);
    await intruder.closed;
    expect(intruder.frames).toEqual(['0获取会话失败']);
    const ghost = await w.attach('no-such-session');
    await ghost.closed;
    expect(ghost.frames).toEqual(['0获取会话失败']);
    expect((await w.row(id)).status).toBe('no_connect');
    // No token, a bad token: the 401 text as a close frame.
    const anon = await TermClient.open(w.socketUrl(id, 'bogus-token'));
    await anon.closed;
    expect(anon.frames).toEqual(['0您的登录信息已失效，请重新登录后再试。']);
    // Bad input: the 400 text.
    const bad = await w.attach(id, w.root, 'cols=abc&rows=40');
    await bad.closed;
    expect(bad.frames[0]).toMatch(/^0cols: /);

    const term = await w.attach(id);
    await term.connected();
    const second = await w.attach(id);
    await second.closed;
    expect(second.frames).toEqual(['0获取会话失败']);
    // Alice may not connect or resize it either.
    expect((await w.as(alice).call('POST', `/sessions/${id}/connect`)).body).toEqual({ code: -1, message: '获取会话失败' });
    expect((await w.as(alice).call('POST', `/sessions/${id}/resize?width=80&height=24`)).body).toEqual({ code: -1, message: '获取会话失败' });
    await term.close();
    // A session that ended cannot be attached again.
    await eventually('disconnected', async () => (await w.row(id)).status === 'disconnected');
    const again = await w.attach(id);
    await again.closed;
    expect(again.frames).toEqual(['0获取会话失败']);
    expect((await w.api.call('POST', `/sessions/${id}/connect`)).body).toEqual({ code: -1, message: '会话尚未建立连接' });
  });

  it('answers a plain GET with an envelope after the same checks', async () => {
    const w = await terminalWorld(sshd);
    const id = await w.open();
    expect((await w.h.call('GET', `/sessions/${id}/ssh`)).body.code).toBe(401);
    expect((await w.api.call('GET', `/sessions/${id}/ssh?cols=80&rows=24`)).body).toEqual({ code: 400, message: MSG_NEEDS_UPGRADE });
    expect((await w.api.call('GET', `/sessions/${id}/ssh?cols=0`)).body.code).toBe(400);
  });

  it('ends on a forced close with the reason, and when the remote shell exits', async () => {
    const w = await terminalWorld(sshd);
    const a = await w.terminal();
    await w.live.get(a.id)?.close(802, '管理员强制关闭了此会话');
    await a.term.closed;
    expect(a.term.closedWith).toBe('管理员强制关闭了此会话');
    expect(await w.row(a.id)).toMatchObject({ status: 'disconnected', code: 802, message: '管理员强制关闭了此会话' });
    expect(w.live.get(a.id)).toBeUndefined();

    const b = await w.terminal();
    b.term.type('exit\r');
    await b.term.closed;
    expect(b.term.closedWith).toBe('远程连接已关闭');
    await eventually('disconnected', async () => (await w.row(b.id)).status === 'disconnected');
    expect(await w.row(b.id)).toMatchObject({ code: -1, message: '远程连接已关闭' });
  });
});
