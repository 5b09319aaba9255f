import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { say } from '../../../server/lib/i18n.ts';
import { MSG_HOST_KEY } from '../../../server/modules/credentials/host-key.ts';
import { userConnectReason } from '../../../server/policy/user-reason.ts';
import type { Paged } from '../resources/helpers.ts';
import { startSshd, type TestSshd } from '../sshd.ts';
import { terminalWorld } from './helpers.ts';

/*
 * Issue 28 rule 6: a user is never shown an asset's address — not in the terminal's closed frame when the connection
 * fails, not in the portal's `activeMessage`. The detail stays for admins (the session row, the admin asset list).
 */

let sshd: TestSshd;
beforeAll(async () => {
  sshd = await startSshd();
});
afterAll(() => sshd?.stop());

/** A loopback port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

describe('no address to users', () => {
  it('a refused connection closes the terminal with a fixed reason; the row keeps the detail for admins', async () => {
    const w = await terminalWorld(sshd);
    const port = await closedPort();
    const down = await w.asset('down', { port });
    const userId = await w.h.createUser({ username: 'alice', type: 'user' });
    const alice = await w.h.accessToken(userId);
    await w.api.ok('POST', '/authorised/users', { body: { userIds: [userId], assetId: down } });

    for (const [lng, reason] of [
      ['zh-CN', '创建SSH客户端失败：连接被拒绝'],
      ['en-US', 'Could not connect to the asset: connection refused'],
    ] as const) {
      const id = await w.open(down, alice);
      const term = await w.attach(id, alice, `cols=80&rows=24&lng=${lng}`);
      await term.closed;
      expect(term.closedWith).toBe(reason);
      const frames = term.frames.join('\n');
      expect(frames).not.toContain('127.0.0.1');
      expect(frames).not.toContain(String(port));
      expect(frames).not.toContain('ECONNREFUSED');
      // Admins read the detail in the session history.
      const row = await w.row(id);
      expect(row).toMatchObject({ status: 'disconnected', code: 806 });
      expect(row.message).toContain(`127.0.0.1:${port}`);
      const detail = await w.api.ok<{ message: string }>('GET', `/sessions/${id}`);
      expect(detail.message).toContain(`127.0.0.1:${port}`);
    }
  });

  it('an access gateway that refuses: 803 with a fixed reason, no gateway address', async () => {
    const w = await terminalWorld(sshd);
    const port = await closedPort();
    const gw = await w.api.ok<{ id: string }>('POST', '/access-gateways', {
      body: { name: 'down-jump', ip: '127.0.0.1', port, accountType: 'custom', username: sshd.username, password: w.secret('Gateway-Pass-1') },
    });
    const behind = await w.asset('behind-down', { accessGatewayId: gw.id });
    const id = await w.open(behind);
    const term = await w.attach(id);
    await term.closed;
    expect(term.closedWith).toBe('获取接入网关失败：接入网关不可用：连接被拒绝');
    expect(term.frames.join('\n')).not.toContain(String(port));
    expect(await w.row(id)).toMatchObject({ code: 803 });
    expect((await w.row(id)).message).toContain(String(port));
  });

  it("the portal's activeMessage is a fixed reason; the admin list keeps the probe's text", async () => {
    const w = await terminalWorld(sshd);
    const port = await closedPort();
    const down = await w.asset('down', { port });
    const userId = await w.h.createUser({ username: 'alice', type: 'user' });
    const alice = await w.h.accessToken(userId);
    await w.api.ok('POST', '/authorised/users', { body: { userIds: [userId], assetId: down } });
    const probe = await w.api.ok<{ active: boolean; message: string }>('POST', `/assets/${down}/tcping`);
    expect(probe.message).toContain(`127.0.0.1:${port}`);

    for (const [lng, reason] of [
      ['zh-CN', '连接被拒绝'],
      ['en-US', 'connection refused'],
    ] as const) {
      for (const path of ['/worker/assets/paging', '/account/assets']) {
        const res = await w.as(alice).call('GET', path, { query: { lng } });
        expect(res.text).not.toContain('127.0.0.1');
        expect(res.text).not.toContain(String(port));
        const items = (res.body.data as Paged<{ id: string; active: boolean; activeMessage: string }>).items;
        expect(items.find((a) => a.id === down)).toMatchObject({ active: false, activeMessage: reason });
      }
    }
    // The admin's asset list still says why, address included (admins see the address anyway).
    const admin = await w.api.ok<Paged<{ id: string; activeMessage: string }>>('GET', '/assets/paging', { query: { pageSize: '100' } });
    expect(admin.items.find((a) => a.id === down)?.activeMessage).toContain(`127.0.0.1:${port}`);
  });

  it('every connect failure a user may read: a fixed sentence, except a refused host key (fingerprints, no address)', () => {
    const cases: [number, string, string][] = [
      [806, '创建SSH客户端失败：连接被拒绝（10.0.0.7:22）', '创建SSH客户端失败：连接被拒绝'],
      [806, '创建SSH客户端失败：无法解析主机名', '创建SSH客户端失败：无法解析主机名'],
      [806, '创建SSH客户端失败：Cannot parse privateKey: Unsupported key format', '创建SSH客户端失败：无法解析私钥'],
      [806, '创建SSH客户端失败：SOCKS 代理连接失败：connect ETIMEDOUT 10.0.0.9:1080', '创建SSH客户端失败：SOCKS 代理连接失败：连接失败'],
      [806, '创建SSH客户端失败：Timed out while waiting for handshake from db.internal', '创建SSH客户端失败：连接失败'],
      [803, '获取接入网关失败：接入网关不存在：5f3c', '获取接入网关失败：接入网关不存在'],
      [804, '创建SSH隧道失败：(SSH) Channel open failure: open failed to 10.0.0.7', '创建SSH隧道失败：连接失败'],
      [800, '资产不存在或已被删除', '资产不存在或已被删除'],
    ];
    for (const [code, detail, shown] of cases) expect(userConnectReason(code, detail), detail).toBe(shown);
    const changed = `创建SSH客户端失败：${MSG_HOST_KEY.changed('SHA256:aaa', 'SHA256:bbb')}`;
    expect(userConnectReason(806, changed)).toBe(changed);
    const gateway = `获取接入网关失败：接入网关不可用：${MSG_HOST_KEY.changed('SHA256:aaa', 'SHA256:bbb')}`;
    expect(userConnectReason(803, gateway)).toBe(gateway);
    // …and an English socket reads all of it in English, the fingerprints as they are.
    expect(say(changed, 'en-US')).toBe(
      'Could not connect to the asset: The host key has changed (pinned → presented), so the connection was refused before authenticating, lest a password or private key reach an impostor; if the host really changed its key, its owner or the super admin may trust the new one: SHA256:aaa → SHA256:bbb',
    );
  });
});
