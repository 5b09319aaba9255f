import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG_HOST_KEY } from '../../../server/modules/credentials/host-key.ts';
import { connectSsh } from '../../../server/modules/sessions/ssh/connect.ts';
import { type FakeSsh, startFakeSsh } from '../fake-ssh.ts';
import { adminWith, resourcesHarness } from '../resources/helpers.ts';
import { sshdUnavailable, startSshd, type TestSshd } from '../sshd.ts';
import { sshAsset, storedAsset } from './helpers.ts';

/*
 * Issue 28, rule 2: a secret goes only where it was entered for. SSH host keys are pinned per asset and per gateway
 * (trust on first use); a host showing another key is refused before any password is offered; only the owner, the
 * super admin or whoever enters the secret again trusts another key; a gateway moved by someone else carries no
 * asset that no host key protects. A fake SSH server records every password offered to it, so "never reached" is
 * asserted. Against the real test sshd.
 */

const skip = sshdUnavailable();
let sshd: TestSshd;
const fakes: FakeSsh[] = [];

beforeAll(async () => {
  if (!skip) sshd = await startSshd();
});
afterAll(async () => {
  await Promise.all(fakes.map((f) => f.stop()));
  await sshd?.stop();
});

async function fake(opts: Parameters<typeof startFakeSsh>[0] = {}): Promise<FakeSsh> {
  const f = await startFakeSsh(opts);
  fakes.push(f);
  return f;
}

async function setup() {
  const r = await resourcesHarness();
  const connect = async (assetId: string) => {
    const { client } = await connectSsh({ db: r.h.db, box: r.h.box, gateways: r.gateways }, assetId);
    client.end();
  };
  return { ...r, connect };
}

const ASSET_PASSWORD = () => sshd.password;

describe.skipIf(skip)('SSH host keys (issue 28 rule 2)', () => {
  it('the first login pins the key; a host showing another key is refused before any password is offered, naming both', async () => {
    const { h, api, connect } = await setup();
    const { id } = await api.ok<{ id: string }>('POST', '/assets', { body: sshAsset({ name: 'real', ip: sshd.host, port: sshd.port, username: sshd.username, password: ASSET_PASSWORD() }) });
    expect((await storedAsset(h, 'real')).hostKey).toBeNull();
    await connect(id);
    const pinned = (await storedAsset(h, 'real')).hostKey;
    expect(pinned).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    expect(await api.ok('GET', `/assets/${id}`)).toMatchObject({ hostKey: pinned });

    // The host behind the address changes (another machine, a man in the middle): here a fake SSH server.
    const impostor = await fake();
    await h.db.updateTable('assets').set({ port: impostor.port }).where('id', '=', id).execute();
    await expect(connect(id)).rejects.toMatchObject({ code: 806, message: expect.stringContaining(MSG_HOST_KEY.changed(pinned!, impostor.fingerprint)) });
    expect(impostor.offered).toEqual([]);
    expect((await storedAsset(h, 'real')).hostKey).toBe(pinned);
  });

  it('a second real sshd (another host key) behind the same asset is refused, naming both fingerprints', async () => {
    const { h, api, connect } = await setup();
    const second = await startSshd();
    try {
      const { id } = await api.ok<{ id: string }>('POST', '/assets', { body: sshAsset({ name: 'swap', ip: sshd.host, port: sshd.port, username: sshd.username, password: ASSET_PASSWORD() }) });
      await connect(id);
      const pinned = (await storedAsset(h, 'swap')).hostKey!;
      await h.db.updateTable('assets').set({ port: second.port }).where('id', '=', id).execute();
      const refused = await connect(id).then(
        () => null,
        (err: Error) => err.message,
      );
      // Pinned → presented, both named.
      expect(refused).toContain(`主机密钥已变更（已记录 → 对方出示）`);
      expect(refused).toMatch(new RegExp(`：${pinned.replace(/[+/]/g, '\\$&')} → SHA256:[A-Za-z0-9+/]{43}$`));
      expect(refused).not.toContain(`→ ${pinned}`);
    } finally {
      await second.stop();
    }
  });

  it('trust: only the owner or the super admin, or an edit that enters the secret again', async () => {
    const { h, api, as, connect } = await setup();
    const impostor = await fake({ accept: { username: sshd.username, password: 'Another-Box-1' } });
    const { id } = await api.ok<{ id: string }>('POST', '/assets', { body: sshAsset({ name: 'a', ip: sshd.host, port: sshd.port, username: sshd.username, password: ASSET_PASSWORD() }) });
    await connect(id);
    const pinned = (await storedAsset(h, 'a')).hostKey!;
    const editor = await adminWith(h, ['asset', 'asset-edit'], 'editor');
    const e = as(editor.token);
    const refused = { code: -1, message: MSG_HOST_KEY.trustRefused };

    // An editor may neither trust another key nor drop the pin, without the secret.
    expect((await e.call('POST', `/assets/${id}/trust-host-key`, { body: { hostKey: impostor.fingerprint } })).body).toEqual(refused);
    expect((await e.call('POST', `/assets/${id}/trust-host-key`, { body: {} })).body).toEqual(refused);
    const body = sshAsset({ name: 'a', ip: sshd.host, port: sshd.port, username: sshd.username, password: '' });
    expect((await e.call('PUT', `/assets/${id}`, { body: { ...body, hostKey: impostor.fingerprint } })).body).toEqual(refused);
    expect((await e.call('PUT', `/assets/${id}`, { body: { ...body, hostKey: '' } })).body).toEqual(refused);
    expect((await storedAsset(h, 'a')).hostKey).toBe(pinned);
    // The echo of the edit form (the same pin) is no trust.
    await e.ok('PUT', `/assets/${id}`, { body: { ...body, hostKey: pinned, description: 'relabelled' } });
    // A malformed fingerprint is bad input.
    expect((await api.call('POST', `/assets/${id}/trust-host-key`, { body: { hostKey: 'MD5:aa' } })).body).toMatchObject({ code: 400, message: expect.stringContaining('hostKey') });

    // The owner (the super admin here) trusts the fake's key: the next login goes there with the pinned key.
    expect(await api.ok('POST', `/assets/${id}/trust-host-key`, { body: { hostKey: `${impostor.fingerprint}=` } })).toEqual({ hostKey: impostor.fingerprint });
    await h.db.updateTable('assets').set({ port: impostor.port, password: h.box.encrypt('Another-Box-1') }).where('id', '=', id).execute();
    await connect(id);
    expect(impostor.passwords).toContain('Another-Box-1');

    // An editor that enters the password again may trust the host it sends it to (here: drop the pin, pinned anew).
    await e.ok('PUT', `/assets/${id}`, { body: { ...body, password: ASSET_PASSWORD(), hostKey: '' } });
    expect((await storedAsset(h, 'a')).hostKey).toBeNull();
    await connect(id);
    expect((await storedAsset(h, 'a')).hostKey).toBe(pinned);
  });

  it('a move by someone who may not trust keeps the pin: the new host must show the old key', async () => {
    const { h, api, as, connect } = await setup();
    const key = sshd.privateKey;
    const { id } = await api.ok<{ id: string }>('POST', '/assets', {
      body: sshAsset({ name: 'k', ip: sshd.host, port: sshd.port, username: sshd.username, accountType: 'private-key', password: '', privateKey: key }),
    });
    await connect(id);
    const pinned = (await storedAsset(h, 'k')).hostKey!;
    const impostor = await fake();
    const e = as((await adminWith(h, ['asset', 'asset-edit'], 'editor')).token);
    // A private key moves with its asset (public-key login never sends it), but the pin stays.
    await e.ok('PUT', `/assets/${id}`, { body: sshAsset({ name: 'k', ip: impostor.host, port: impostor.port, username: sshd.username, accountType: 'private-key', password: '', privateKey: '' }) });
    expect((await storedAsset(h, 'k')).hostKey).toBe(pinned);
    await expect(connect(id)).rejects.toMatchObject({ message: expect.stringContaining(impostor.fingerprint) });
    expect(impostor.offered).toEqual([]);
  });

  it('issue 28: an access-gateway-edit holder cannot point the hop at its own gateway and receive an asset’s password', async () => {
    const { h, api, as, connect } = await setup();
    // A gateway on the real sshd, and an asset behind it (the same sshd, reached through the gateway).
    const gateway = await api.ok<{ id: string }>('POST', '/access-gateways', {
      body: { name: 'hop', ip: sshd.host, port: sshd.port, accountType: 'custom', username: sshd.username, password: sshd.password },
    });
    const asset = await api.ok<{ id: string }>('POST', '/assets', {
      body: sshAsset({ name: 'behind', ip: sshd.host, port: sshd.port, username: sshd.username, password: ASSET_PASSWORD(), accessGatewayId: gateway.id }),
    });
    // The attacker's gateway forwards every tunnel to its own SSH server, which records what it is offered.
    const catcher = await fake();
    const rogue = await fake({ accept: { username: 'evil', password: 'Evil-Gateway-1' }, forwardTo: catcher.port });
    const editor = as((await adminWith(h, ['access-gateway', 'access-gateway-edit'], 'gw-editor')).token);
    const repoint = { name: 'hop', ip: rogue.host, port: rogue.port, accountType: 'custom', username: 'evil', password: 'Evil-Gateway-1' };

    // The asset has no pinned key yet: nothing would stop its password at the rogue gateway, so the move is refused.
    expect((await editor.call('PUT', `/access-gateways/${gateway.id}`, { body: repoint })).body).toMatchObject({ code: -1, message: expect.stringContaining('behind') });
    await connect(asset.id); // through the real gateway: both keys pinned
    expect(catcher.offered).toEqual([]);
    const gatewayRow = await h.db.selectFrom('accessGateways').select('hostKey').where('id', '=', gateway.id).executeTakeFirstOrThrow();
    expect(gatewayRow.hostKey).toMatch(/^SHA256:/);

    // With the asset's key pinned the editor may re-point the gateway (it gave the gateway's password again)…
    await editor.ok('PUT', `/access-gateways/${gateway.id}`, { body: repoint });
    // …but the asset's password never reaches the host behind the rogue gateway: its key is not the pinned one.
    await expect(connect(asset.id)).rejects.toMatchObject({ message: expect.stringContaining(catcher.fingerprint) });
    expect(catcher.offered).toEqual([]);
    expect(rogue.passwords).not.toContain(ASSET_PASSWORD());
    expect(rogue.passwords).not.toContain(sshd.password);
  });

  it('a gateway showing another key is refused before its password is offered', async () => {
    const { h, api, gateways } = await setup();
    const gateway = await api.ok<{ id: string }>('POST', '/access-gateways', {
      body: { name: 'hop', ip: sshd.host, port: sshd.port, accountType: 'custom', username: sshd.username, password: sshd.password },
    });
    expect(await gateways.check(gateway.id)).toMatchObject({ connected: true });
    const pinned = (await h.db.selectFrom('accessGateways').select('hostKey').where('id', '=', gateway.id).executeTakeFirstOrThrow()).hostKey!;
    expect(await api.ok('GET', `/access-gateways/${gateway.id}`)).toMatchObject({ hostKey: pinned });
    const impostor = await fake();
    await h.db.updateTable('accessGateways').set({ port: impostor.port }).where('id', '=', gateway.id).execute();
    await gateways.reload(gateway.id);
    expect(await gateways.check(gateway.id)).toEqual({ connected: false, message: `接入网关不可用：${MSG_HOST_KEY.changed(pinned, impostor.fingerprint)}` });
    expect(impostor.offered).toEqual([]);
    // Only its owner (or the super admin) trusts the new key.
    const e = await adminWith(h, ['access-gateway', 'access-gateway-edit'], 'gw-editor');
    expect((await h.call('POST', `/access-gateways/${gateway.id}/trust-host-key`, { token: e.token, body: { hostKey: impostor.fingerprint } })).body).toEqual({ code: -1, message: MSG_HOST_KEY.trustRefused });
    expect(await api.ok('POST', `/access-gateways/${gateway.id}/trust-host-key`, { body: { hostKey: impostor.fingerprint } })).toEqual({ hostKey: impostor.fingerprint });
  });
});

describe.skipIf(skip)('SSH connects retry once when dropped before the handshake (issue 28 rule 6)', () => {
  it('a first connection closed before the server’s banner (OpenSSH MaxStartups) is tried again', async () => {
    const { api, connect } = await setup();
    let accepted = 0;
    const flaky = net.createServer((socket) => {
      if (accepted++ === 0) return socket.destroy();
      const upstream = net.connect(sshd.port, sshd.host);
      socket.pipe(upstream).pipe(socket);
      upstream.on('error', () => socket.destroy());
      socket.on('error', () => upstream.destroy());
    });
    await new Promise<void>((resolve) => flaky.listen(0, '127.0.0.1', () => resolve()));
    const { port } = flaky.address() as net.AddressInfo;
    try {
      const { id } = await api.ok<{ id: string }>('POST', '/assets', { body: sshAsset({ name: 'busy', ip: '127.0.0.1', port, username: sshd.username, password: ASSET_PASSWORD() }) });
      await connect(id);
      expect(accepted).toBe(2);
    } finally {
      flaky.close();
    }
  });
});
