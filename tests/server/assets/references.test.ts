import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startSshd, type TestSshd } from '../sshd.ts';
import { assetHarness, sshAsset, storedAsset } from './helpers.ts';

/*
 * What assets point at: credentials and access gateways (another module's tables). The asset routes check that they
 * exist; their deletes are refused while assets use them; tcping goes through an asset's gateway (real sshd).
 */

type Api = Awaited<ReturnType<typeof assetHarness>>['api'];

const credential = (api: Api, name: string) => api.ok<{ id: string }>('POST', '/credentials', { body: { name, type: 'custom', username: 'root', password: 'Credential-Pass-1' } });
/** A gateway record; it is only dialled by tcping. */
const gateway = (api: Api, name: string, g: { ip: string; port: number; username?: string; password?: string }) =>
  api.ok<{ id: string }>('POST', '/access-gateways', { body: { name, accountType: 'custom', username: 'root', password: 'Gateway-Pass-1', ...g } });

describe('asset references', () => {
  it('a credential account needs an existing credential, a gateway must exist', async () => {
    const { h, api } = await assetHarness();
    const cred = await credential(api, 'prod root');
    const gw = await gateway(api, 'jump', { ip: '127.0.0.1', port: 1 });
    expect((await api.call('POST', '/assets', { body: sshAsset({ accountType: 'credential', credentialId: 'ghost' }) })).body).toEqual({ code: -1, message: '授权凭证不存在：ghost' });
    expect((await api.call('POST', '/assets', { body: sshAsset({ accessGatewayId: 'nowhere' }) })).body).toEqual({ code: -1, message: '接入网关不存在：nowhere' });
    expect(await h.db.selectFrom('assets').select('id').execute()).toEqual([]);

    const { id } = await api.ok<{ id: string }>('POST', '/assets', { body: sshAsset({ accountType: 'credential', credentialId: cred.id, accessGatewayId: gw.id }) });
    expect(await api.ok('GET', `/assets/${id}`)).toMatchObject({ accountType: 'credential', credentialId: cred.id, accessGatewayId: gw.id, username: '' });
    expect((await api.call('PUT', `/assets/${id}`, { body: sshAsset({ accountType: 'credential', credentialId: 'ghost', accessGatewayId: gw.id }) })).body).toEqual({ code: -1, message: '授权凭证不存在：ghost' });
    // A credential id is only kept for credential accounts: another type does not check (nor keep) it.
    await api.ok('PUT', `/assets/${id}`, { body: sshAsset({ credentialId: 'ghost', accessGatewayId: '' }) });
    expect(await storedAsset(h, 'web-1')).toMatchObject({ accountType: 'custom', credentialId: null, accessGatewayId: null });
  });

  it('deleting a credential or a gateway that assets use is refused, naming the assets; unused ones go', async () => {
    const { h, api } = await assetHarness();
    const [used, spare] = [await credential(api, 'used'), await credential(api, 'spare')];
    const [jump, idle] = [await gateway(api, 'jump', { ip: '127.0.0.1', port: 1 }), await gateway(api, 'idle', { ip: '127.0.0.1', port: 2 })];
    for (const name of ['db-1', 'web-2', 'web-1']) {
      await api.ok('POST', '/assets', { body: sshAsset({ name, accountType: 'credential', credentialId: used.id, accessGatewayId: name === 'db-1' ? '' : jump.id }) });
    }

    expect((await api.call('DELETE', `/credentials/${spare.id},${used.id}`)).body).toEqual({
      code: -1,
      message: '授权凭证「used」仍被 3 个资产使用，不能删除：db-1、web-1、web-2',
      data: { [used.id]: ['db-1', 'web-1', 'web-2'] },
    });
    expect((await api.call('DELETE', `/access-gateways/${jump.id},${idle.id}`)).body).toMatchObject({ code: -1, message: '接入网关「jump」仍被 2 个资产使用，不能删除：web-1、web-2' });
    // All-or-nothing: the unused ones are still there too.
    expect((await h.db.selectFrom('credentials').select('name').orderBy('name').execute()).map((c) => c.name)).toEqual(['spare', 'used']);
    expect((await h.db.selectFrom('accessGateways').select('name').orderBy('name').execute()).map((g) => g.name)).toEqual(['idle', 'jump']);

    // Once the assets let go, the deletes go through.
    const ids = (await api.ok<{ id: string }[]>('GET', '/assets')).map((a) => a.id);
    await api.ok('DELETE', `/assets/${ids.join(',')}`);
    await api.ok('DELETE', `/credentials/${spare.id},${used.id}`);
    await api.ok('DELETE', `/access-gateways/${jump.id},${idle.id}`);
  });

  it('names at most ten assets per record, and says how many in all', async () => {
    const { api } = await assetHarness();
    const cred = await credential(api, 'many');
    for (let i = 0; i < 12; i++) await api.ok('POST', '/assets', { body: sshAsset({ name: `h${String(i).padStart(2, '0')}`, accountType: 'credential', credentialId: cred.id }) });
    expect((await api.call('DELETE', `/credentials/${cred.id}`)).body.message).toBe('授权凭证「many」仍被 12 个资产使用，不能删除：h00、h01、h02、h03、h04、h05、h06、h07、h08、h09 等');
  });
});

describe('tcping through an access gateway (real sshd)', () => {
  let sshd: TestSshd;
  const servers: net.Server[] = [];
  beforeAll(async () => {
    sshd = await startSshd();
  });
  afterAll(async () => {
    await sshd?.stop();
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  });

  it('asks the gateway to connect: a port listening behind it is active, a closed one is not, a dead gateway says so', async () => {
    const { h, api } = await assetHarness();
    const server = net.createServer((socket) => socket.destroy());
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const open = (server.address() as net.AddressInfo).port;
    const closed = await freePort();
    const gw = await gateway(api, 'sshd', { ip: sshd.host, port: sshd.port, username: sshd.username, password: sshd.password });
    const dead = await gateway(api, 'dead', { ip: '127.0.0.1', port: await freePort() });

    const up = await api.ok<{ id: string }>('POST', '/assets', { body: sshAsset({ name: 'behind-open', ip: '127.0.0.1', port: open, accessGatewayId: gw.id }) });
    const down = await api.ok<{ id: string }>('POST', '/assets', { body: sshAsset({ name: 'behind-closed', ip: '127.0.0.1', port: closed, accessGatewayId: gw.id }) });
    const unreachable = await api.ok<{ id: string }>('POST', '/assets', { body: sshAsset({ name: 'behind-dead', ip: '127.0.0.1', port: open, accessGatewayId: dead.id }) });

    expect(await api.ok('POST', `/assets/${up.id}/tcping`)).toEqual({ active: true, message: '' });
    const refused = await api.ok<{ active: boolean; message: string }>('POST', `/assets/${down.id}/tcping`);
    expect(refused.active).toBe(false);
    expect(refused.message).toContain(`127.0.0.1:${closed}`);
    const noGateway = await api.ok<{ active: boolean; message: string }>('POST', `/assets/${unreachable.id}/tcping`);
    expect(noGateway).toEqual({ active: false, message: expect.stringMatching(/^接入网关/) });
    expect(await storedAsset(h, 'behind-closed')).toMatchObject({ active: 0, activeMessage: refused.message });
    expect(await storedAsset(h, 'behind-dead')).toMatchObject({ active: 0, activeMessage: noGateway.message });

    // The batch goes through the gateway too, and a direct asset beside it directly.
    const direct = await api.ok<{ id: string }>('POST', '/assets', { body: sshAsset({ name: 'direct', ip: '127.0.0.1', port: open }) });
    const batch = await api.ok<{ id: string; active: boolean }[]>('POST', '/assets/tcping', { body: { ids: [up.id, down.id, direct.id] } });
    expect(batch.map((r) => [r.id, r.active])).toEqual([
      [up.id, true],
      [down.id, false],
      [direct.id, true],
    ]);
  });
});
