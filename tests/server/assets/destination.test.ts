import { describe, expect, it } from 'vitest';
import { newKey } from '../resources/helpers.ts';
import { adminWith, assetHarness, sshAsset, storedAsset } from './helpers.ts';

/*
 * A stored secret goes only where it was entered for, and a credential’s secret only to assets its owner (or the super
 * admin) pointed at it: the right to edit an address, copy an asset or see the credential list is
 * never a way to receive a secret on a host of one's own (credentials/account.ts, assets/usage.ts).
 */

const MOVED = '资产的连接目标（协议、地址、端口、接入网关或代理）已更改，请重新输入密码（已保存的密码只发往原来的地址）';
const socks = { 'socks-proxy-enable': true, 'socks-proxy-host': '10.9.0.1', 'socks-proxy-port': 1080, 'socks-proxy-username': 'proxy' };

describe('a kept password follows no asset elsewhere', () => {
  it('edit: a new host, port, protocol or gateway — added or removed — needs the password again; other edits keep it', async () => {
    const { h, api, as } = await assetHarness();
    const gateway = await api.ok<{ id: string }>('POST', '/access-gateways', { body: { name: 'hop', ip: '127.0.0.1', port: 1, accountType: 'custom', username: 'u', password: 'Hop-Secret-1' } });
    const { id } = await api.ok<{ id: string }>('POST', '/assets', { body: sshAsset({ name: 'db', password: 'Db-Secret-1', accessGatewayId: gateway.id }) });
    const stored = await storedAsset(h, 'db');
    const editor = as((await adminWith(h, ['asset', 'asset-edit'], 'editor')).token);

    // Dropping the gateway is a move too: the same ip:port seen from the bastion is another host (issue 28).
    for (const change of [{ ip: '203.0.113.7' }, { port: 2222 }, { protocol: 'telnet' }, { accessGatewayId: '' }]) {
      expect((await editor.call('PUT', `/assets/${id}`, { body: sshAsset({ name: 'db', password: '', accessGatewayId: gateway.id, ...change }) })).body).toEqual({ code: -1, message: MOVED });
    }
    expect(await storedAsset(h, 'db')).toEqual(stored);

    // Same address: the password is kept (the 1.3.9 console sends its edit form back with the secrets empty).
    await editor.ok('PUT', `/assets/${id}`, { body: sshAsset({ name: 'db', password: '', accessGatewayId: gateway.id, description: 'renamed box' }) });
    expect(h.box.decryptNullable((await storedAsset(h, 'db')).password)).toBe('Db-Secret-1');
    // A new address with the password given again.
    await editor.ok('PUT', `/assets/${id}`, { body: sshAsset({ name: 'db', ip: '203.0.113.7', password: 'Db-Secret-2' }) });
    expect(h.box.decryptNullable((await storedAsset(h, 'db')).password)).toBe('Db-Secret-2');
    // The owner (here the super admin) entered the secret and may send it elsewhere without typing it again.
    await api.ok('PUT', `/assets/${id}`, { body: sshAsset({ name: 'db', ip: '203.0.113.8', password: '' }) });
    expect(h.box.decryptNullable((await storedAsset(h, 'db')).password)).toBe('Db-Secret-2');
  });

  it('a private key moves with its asset (public-key login never sends the key)', async () => {
    const { h, api } = await assetHarness();
    const key = newKey().privateKey;
    const { id } = await api.ok<{ id: string }>('POST', '/assets', { body: sshAsset({ name: 'k', accountType: 'private-key', password: '', privateKey: key }) });
    await api.ok('PUT', `/assets/${id}`, { body: sshAsset({ name: 'k', accountType: 'private-key', password: '', privateKey: '', ip: '203.0.113.9' }) });
    expect(h.box.decryptNullable((await storedAsset(h, 'k')).privateKey)).toBe(key);
  });

  it('the SOCKS password stays with its proxy, and a new proxy moves the account too', async () => {
    const { h, api: root, as } = await assetHarness();
    const { id } = await root.ok<{ id: string }>('POST', '/assets', { body: sshAsset({ name: 'p', ...socks, 'socks-proxy-password': 'Socks-Secret-1' }) });
    const api = as((await adminWith(h, ['asset', 'asset-edit'], 'editor')).token);
    const elsewhere = { ...socks, 'socks-proxy-host': '198.51.100.4' };
    expect((await api.call('PUT', `/assets/${id}`, { body: sshAsset({ name: 'p', password: '', ...elsewhere }) })).body).toEqual({ code: -1, message: MOVED });
    expect((await api.call('PUT', `/assets/${id}`, { body: sshAsset({ name: 'p', password: 'New-Pass-1', ...elsewhere }) })).body).toEqual({
      code: -1,
      message: 'SOCKS 代理的地址或端口已更改，请重新输入SOCKS 代理密码（已保存的SOCKS 代理密码只发往原来的地址）',
    });
    await api.ok('PUT', `/assets/${id}`, { body: sshAsset({ name: 'p', password: 'New-Pass-1', ...elsewhere, 'socks-proxy-password': 'Socks-Secret-2' }) });
    // Dropping the proxy is a move: the same ip:port seen from the bastion is another host (issue 28).
    expect((await api.call('PUT', `/assets/${id}`, { body: sshAsset({ name: 'p', password: '', ...elsewhere, 'socks-proxy-enable': false }) })).body).toEqual({ code: -1, message: MOVED });
    await api.ok('PUT', `/assets/${id}`, { body: sshAsset({ name: 'p', password: 'New-Pass-2', ...elsewhere, 'socks-proxy-enable': false }) });
  });

  it('copy: the source’s password goes only to the source’s address', async () => {
    const { h, api: root, as } = await assetHarness();
    const { id } = await root.ok<{ id: string }>('POST', '/assets', { body: sshAsset({ name: 'src', password: 'Src-Secret-1' }) });
    const copier = await adminWith(h, ['asset', 'asset-copy'], 'copier');
    await root.ok('POST', '/authorised/users', { body: { userIds: [copier.id], assetId: id } });
    const api = as(copier.token);
    expect((await api.call('POST', '/assets', { body: sshAsset({ name: 'mine', copyFrom: id, password: '', ip: '203.0.113.50' }) })).body).toEqual({ code: -1, message: MOVED });
    await api.ok('POST', '/assets', { body: sshAsset({ name: 'twin', copyFrom: id, password: '' }) });
    expect(h.box.decryptNullable((await storedAsset(h, 'twin')).password)).toBe('Src-Secret-1');
  });
});

describe('a credential is used only by its owner or the super admin (issue 28, rule 3)', () => {
  const KEYS = ['asset', 'asset-add', 'asset-edit', 'credential', 'credential-add'] as const;
  const body = (name: string, credentialId: string, over: Record<string, unknown> = {}) => sshAsset({ name, accountType: 'credential', password: '', credentialId, ...over });

  it('on create, copy, and an edit that changes the credential or the address', async () => {
    const { h, api, as } = await assetHarness();
    const root = await api.ok<{ id: string }>('POST', '/credentials', { body: { name: 'prod root', type: 'custom', username: 'root', password: 'Root-Secret-1' } });
    const builder = await adminWith(h, [...KEYS], 'builder');
    const peer = await adminWith(h, [...KEYS], 'peer');
    const b = as(builder.token);
    const superOwned = { code: -1, message: '不能使用授权凭证「prod root」：只有它的所有者或超级管理员可以把它用于资产' };
    const peerOwned = { code: -1, message: '不能使用授权凭证「peers」：只有它的所有者或超级管理员可以把它用于资产' };

    expect((await b.call('POST', '/assets', { body: body('harvest', root.id, { ip: '203.0.113.66' }) })).body).toEqual(superOwned);
    // Its own credential it may use; a peer's not, though it holds the same keys and could manage the peer's account.
    const own = await b.ok<{ id: string }>('POST', '/credentials', { body: { name: 'mine', type: 'custom', username: 'me', password: 'Mine-1' } });
    const peers = await as(peer.token).ok<{ id: string }>('POST', '/credentials', { body: { name: 'peers', type: 'custom', username: 'p', password: 'Peer-1' } });
    const { id } = await b.ok<{ id: string }>('POST', '/assets', { body: body('box', own.id) });
    expect((await b.call('PUT', `/assets/${id}`, { body: body('box', peers.id) })).body).toEqual(peerOwned);
    expect((await b.call('POST', '/assets', { body: body('peer-box', peers.id, { ip: '203.0.113.67' }) })).body).toEqual(peerOwned);
    // The super admin may attach anyone's.
    await api.ok('PUT', `/assets/${id}`, { body: body('box', peers.id) });

    // An asset the super admin pointed at its credential: the builder may edit what does not send the secret elsewhere.
    const prod = await api.ok<{ id: string }>('POST', '/assets', { body: body('prod', root.id) });
    await api.ok('POST', '/authorised/users', { body: { userIds: [builder.id], assetId: prod.id } });
    await b.ok('PUT', `/assets/${prod.id}`, { body: body('prod', root.id, { description: 'relabelled' }) });
    expect((await b.call('PUT', `/assets/${prod.id}`, { body: body('prod', root.id, { ip: '203.0.113.66' }) })).body).toEqual(superOwned);
    expect((await b.call('PUT', `/assets/${id}`, { body: body('box', root.id) })).body).toEqual(superOwned);
    expect((await storedAsset(h, 'prod')).ip).toBe('10.0.0.1');
  });
});

describe('change-owner hands an asset out', () => {
  it('only an asset the caller may open, between accounts it may act on', async () => {
    const { h, api, as } = await assetHarness();
    const { id } = await api.ok<{ id: string }>('POST', '/assets', { body: sshAsset({ name: 'vault' }) });
    const changer = await adminWith(h, ['asset', 'asset-change-owner'], 'changer');
    const alice = await h.createUser({ username: 'alice' });
    const c = as(changer.token);
    expect((await c.call('POST', `/assets/${id}/change-owner?owner=${changer.id}`)).body).toEqual({ code: -1, message: '不能授权您自己无权访问的资产：vault' });
    // Granted to it, the asset is still the super admin's to give.
    await api.ok('POST', '/authorised/users', { body: { userIds: [changer.id], assetId: id } });
    expect((await c.call('POST', `/assets/${id}/change-owner?owner=${alice}`)).body).toEqual({ code: -1, message: '不能转移账户「admin」的所有权：只有超级管理员本人可以这样做' });
    expect((await storedAsset(h, 'vault')).owner).not.toBe(alice);
    // Once alice owns it, the changer may move it between accounts it contains, but not take it for itself (issue 28:
    // delegation never widens; only the super admin gives itself a record).
    await api.ok('POST', `/assets/${id}/change-owner?owner=${alice}`);
    expect((await c.call('POST', `/assets/${id}/change-owner?owner=${changer.id}`)).body).toEqual({ code: -1, message: '不能把其他账户的记录转给您自己：只有超级管理员可以' });
    const bob = await h.createUser({ username: 'bob' });
    await c.ok('POST', `/assets/${id}/change-owner?owner=${bob}`);
    expect((await storedAsset(h, 'vault')).owner).toBe(bob);
  });
});
