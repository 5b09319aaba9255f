import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../server/db/index.ts';
import { sealedValues, SEALED_COLUMNS } from '../../../server/db/sealed.ts';
import { newKey as newBoxKey } from '../../../server/lib/secret-box.ts';
import type { Harness } from '../harness.ts';
import { newKey } from '../resources/helpers.ts';
import { adminWith, assetHarness, csvUpload, sshAsset, storedAsset } from './helpers.ts';

/** An ed25519 key sealed with its passphrase, as an admin would paste it. */
const KEY = newKey('Key-Passphrase-9').privateKey;
const SECRETS = ['ssh-Secret-Pass-1', KEY, 'Key-Passphrase-9', 'Socks-Secret-77'];

/** The plain secrets of an asset, opened from the database (null = none). */
async function openedSecrets(h: Harness, name: string) {
  const a = await storedAsset(h, name);
  for (const v of [a.password, a.privateKey, a.passphrase]) if (v !== null) expect(h.box.isSealed(v)).toBe(true);
  const socks = await h.db.selectFrom('assetAttributes').select('value').where('assetId', '=', a.id).where('name', '=', 'socks-proxy-password').executeTakeFirst();
  if (socks) expect(h.box.isSealed(socks.value)).toBe(true);
  return {
    password: h.box.decryptNullable(a.password),
    privateKey: h.box.decryptNullable(a.privateKey),
    passphrase: h.box.decryptNullable(a.passphrase),
    socks: socks ? h.box.decrypt(socks.value) : null,
  };
}

const socksOn = { 'socks-proxy-enable': true, 'socks-proxy-host': '127.0.0.1', 'socks-proxy-port': 1080, 'socks-proxy-username': 'proxy', 'socks-proxy-password': 'Socks-Secret-77' };

describe('asset secrets', () => {
  it('are sealed at rest and absent from every answer: create, detail, paging, list, export, import', async () => {
    const { h, api, root } = await assetHarness();
    const created = await api.call('POST', '/assets', { body: sshAsset({ ...socksOn }) });
    const keyed = await api.call('POST', '/assets', { body: sshAsset({ name: 'keyed', accountType: 'private-key', privateKey: KEY, passphrase: 'Key-Passphrase-9' }) });
    const { id } = created.body.data as { id: string };
    const answers = [
      created,
      keyed,
      await api.call('GET', `/assets/${id}`),
      await api.call('GET', '/assets/paging'),
      await api.call('GET', '/assets'),
      await api.call('GET', '/tags'),
      await h.call('GET', '/assets/export', { query: { 'X-Auth-Token': root } }),
      await api.call('POST', '/assets/import', { query: { dryRun: 'true' }, ...csvUpload(`x,ssh,h,22,u,Csv-Secret-Pass,,,d\n`) }),
    ];
    const keyLines = KEY.split('\n').filter((l) => l.length >= 20 && !l.startsWith('-----'));
    for (const res of answers) {
      for (const s of [...SECRETS, ...keyLines, 'Csv-Secret-Pass']) expect(res.text.includes(s), `${s.slice(0, 20)} in ${res.text.slice(0, 80)}`).toBe(false);
    }
    expect(answers[2]!.body.data).toMatchObject({ passwordSet: true, privateKeySet: false, passphraseSet: false, socksProxyPasswordSet: true, 'socks-proxy-username': 'proxy' });
    expect(await api.ok('GET', `/assets/${(keyed.body.data as { id: string }).id}`)).toMatchObject({ passwordSet: false, privateKeySet: true, passphraseSet: true, socksProxyPasswordSet: false });
    expect(await openedSecrets(h, 'web-1')).toEqual({ password: 'ssh-Secret-Pass-1', privateKey: null, passphrase: null, socks: 'Socks-Secret-77' });
    expect(await openedSecrets(h, 'keyed')).toEqual({ password: null, privateKey: KEY, passphrase: 'Key-Passphrase-9', socks: null });
    // Every one of them is watched by the harness's answer check and by key rotation (SEALED_COLUMNS).
    const watched = (await Promise.all(SEALED_COLUMNS.map((c) => sealedValues(h.db, c)))).flat().map((v) => h.box.decrypt(v.value));
    expect(watched).toEqual(expect.arrayContaining(SECRETS));
  });

  it('edit: absent, "" and "-" keep a secret; a value replaces it (the 1.3.9 console sends its form back with secrets empty)', async () => {
    const { h, api } = await assetHarness();
    const { id } = await api.ok<{ id: string }>('POST', '/assets', { body: sshAsset({ ...socksOn }) });
    // The detail as the 1.3.9 console loads it, sent back unchanged: no secret in it, and all are kept.
    const detail = await api.ok<Record<string, unknown>>('GET', `/assets/${id}`);
    await api.ok('PUT', `/assets/${id}`, { body: { ...detail, 'socks-proxy-enable': 'true' } });
    expect(await openedSecrets(h, 'web-1')).toEqual({ password: 'ssh-Secret-Pass-1', privateKey: null, passphrase: null, socks: 'Socks-Secret-77' });
    for (const empty of ['', '-', null]) {
      await api.ok('PUT', `/assets/${id}`, { body: sshAsset({ ...socksOn, password: empty, 'socks-proxy-password': empty }) });
      expect(await openedSecrets(h, 'web-1'), String(empty)).toEqual({ password: 'ssh-Secret-Pass-1', privateKey: null, passphrase: null, socks: 'Socks-Secret-77' });
    }
    await api.ok('PUT', `/assets/${id}`, { body: sshAsset({ ...socksOn, password: 'New-Secret-Pass-2', 'socks-proxy-password': 'New-Socks-Secret-3' }) });
    expect(await openedSecrets(h, 'web-1')).toEqual({ password: 'New-Secret-Pass-2', privateKey: null, passphrase: null, socks: 'New-Socks-Secret-3' });
  });

  it('edit: switching the account type clears the secrets it does not use; the proxy off or another protocol clears the SOCKS password', async () => {
    const { h, api } = await assetHarness();
    const { id } = await api.ok<{ id: string }>('POST', '/assets', { body: sshAsset({ ...socksOn }) });
    // A sealed key without its passphrase is refused (the credentials' rule); with it, the password goes.
    expect((await api.call('PUT', `/assets/${id}`, { body: sshAsset({ ...socksOn, accountType: 'private-key', privateKey: KEY, passphrase: '' }) })).body).toEqual({ code: -1, message: '私钥已加密，请输入私钥密码' });
    expect((await api.call('PUT', `/assets/${id}`, { body: sshAsset({ ...socksOn, accountType: 'private-key', privateKey: 'not a key' }) })).body.message).toMatch(/^无法解析私钥：/);
    expect((await api.call('PUT', `/assets/${id}`, { body: sshAsset({ ...socksOn, accountType: 'private-key', privateKey: '' }) })).body).toEqual({ code: -1, message: '请输入私钥' });
    await api.ok('PUT', `/assets/${id}`, { body: sshAsset({ ...socksOn, accountType: 'private-key', password: 'ignored-Pass-5', privateKey: KEY, passphrase: 'Key-Passphrase-9' }) });
    expect(await openedSecrets(h, 'web-1')).toEqual({ password: null, privateKey: KEY, passphrase: 'Key-Passphrase-9', socks: 'Socks-Secret-77' });
    // Sent back without secrets: both kept.
    await api.ok('PUT', `/assets/${id}`, { body: sshAsset({ ...socksOn, accountType: 'private-key', privateKey: '', passphrase: '-' }) });
    expect(await openedSecrets(h, 'web-1')).toEqual({ password: null, privateKey: KEY, passphrase: 'Key-Passphrase-9', socks: 'Socks-Secret-77' });
    // Back to a password account without giving one: the key goes, no password appears.
    await api.ok('PUT', `/assets/${id}`, { body: sshAsset({ ...socksOn, accountType: 'custom', password: '' }) });
    expect(await openedSecrets(h, 'web-1')).toEqual({ password: null, privateKey: null, passphrase: null, socks: 'Socks-Secret-77' });
    // A credential account keeps no account of its own.
    const cred = await api.ok<{ id: string }>('POST', '/credentials', { body: { name: 'shared root', type: 'custom', username: 'root', password: 'Credential-Pass-8' } });
    await api.ok('PUT', `/assets/${id}`, { body: sshAsset({ ...socksOn, accountType: 'credential', credentialId: cred.id, password: 'Pass-For-Nothing-1', username: 'root' }) });
    expect(await storedAsset(h, 'web-1')).toMatchObject({ accountType: 'credential', credentialId: cred.id, username: '', password: null, privateKey: null, passphrase: null });
    await api.ok('PUT', `/assets/${id}`, { body: sshAsset({ ...socksOn, 'socks-proxy-enable': false, 'socks-proxy-password': '' }) });
    expect((await openedSecrets(h, 'web-1')).socks).toBeNull();
    await api.ok('PUT', `/assets/${id}`, { body: sshAsset({ ...socksOn }) });
    expect((await openedSecrets(h, 'web-1')).socks).toBe('Socks-Secret-77');
    await api.ok('PUT', `/assets/${id}`, { body: sshAsset({ ...socksOn, protocol: 'telnet', port: 23, 'socks-proxy-password': '' }) });
    expect(await h.db.selectFrom('assetAttributes').select('name').where('assetId', '=', id).where('name', 'like', 'socks%').execute()).toEqual([]);
    expect(await api.ok('GET', `/assets/${id}`)).toMatchObject({ credentialId: '', socksProxyPasswordSet: false, passwordSet: true });
  });

  it('copyFrom: the copy gets the source’s secrets it was not given (sealed anew), for holders of asset-copy only', async () => {
    const { h, api } = await assetHarness();
    const source = await api.ok<{ id: string }>('POST', '/assets', { body: sshAsset({ ...socksOn }) });
    const keyed = await api.ok<{ id: string }>('POST', '/assets', { body: sshAsset({ name: 'keyed', accountType: 'private-key', privateKey: KEY, passphrase: 'Key-Passphrase-9' }) });
    const copier = await adminWith(h, ['asset-copy'], 'copier');
    const adder = await adminWith(h, ['asset-add'], 'adder');

    // What the console sends: the source's detail (no secrets), renamed, with copyFrom.
    const detail = await api.ok<Record<string, unknown>>('GET', `/assets/${source.id}`);
    const copyBody = { ...detail, id: undefined, name: 'web-1 copy', copyFrom: source.id };
    expect((await h.call('POST', '/assets', { token: adder.token, body: copyBody })).body).toEqual({ code: -1, message: '复制资产需要「复制」权限（asset-copy）' });
    expect(await h.db.selectFrom('assets').select('name').where('name', '=', 'web-1 copy').execute()).toEqual([]);

    // A copier who may not open the source (issue 28, rule 3) copies it without its secrets.
    await h.call('POST', '/assets', { token: copier.token, body: { ...copyBody, name: 'web-1 bare' } });
    expect(await openedSecrets(h, 'web-1 bare')).toEqual({ password: null, privateKey: null, passphrase: null, socks: null });
    // Once it may open the source without restriction, the copy takes them.
    await api.ok('POST', '/authorised/users', { body: { userIds: [copier.id], assetId: source.id } });
    const copy = await h.call('POST', '/assets', { token: copier.token, body: copyBody });
    expect(copy.body.code).toBe(1);
    expect(await openedSecrets(h, 'web-1 copy')).toEqual({ password: 'ssh-Secret-Pass-1', privateKey: null, passphrase: null, socks: 'Socks-Secret-77' });
    expect((await storedAsset(h, 'web-1 copy')).password).not.toBe((await storedAsset(h, 'web-1')).password);
    expect(await api.ok('GET', `/assets/${(copy.body.data as { id: string }).id}`)).toMatchObject({ owner: copier.id, passwordSet: true, socksProxyPasswordSet: true, tags: 'prod,web' });

    // A secret given in the body wins; the account type of the copy decides which secrets are taken.
    await api.ok('POST', '/assets', { body: sshAsset({ ...socksOn, name: 'copy-1', password: 'Copy-Own-Pass-5', 'socks-proxy-password': '', copyFrom: source.id }) });
    expect(await openedSecrets(h, 'copy-1')).toEqual({ password: 'Copy-Own-Pass-5', privateKey: null, passphrase: null, socks: 'Socks-Secret-77' });
    await api.ok('POST', '/assets', { body: sshAsset({ name: 'copy-2', accountType: 'private-key', privateKey: '', passphrase: '', copyFrom: keyed.id }) });
    expect(await openedSecrets(h, 'copy-2')).toEqual({ password: null, privateKey: KEY, passphrase: 'Key-Passphrase-9', socks: null });
    await api.ok('POST', '/assets', { body: sshAsset({ name: 'copy-3', password: '', copyFrom: keyed.id }) });
    expect(await openedSecrets(h, 'copy-3')).toEqual({ password: null, privateKey: null, passphrase: null, socks: null });
    expect((await api.call('POST', '/assets', { body: sshAsset({ name: 'copy-4', copyFrom: 'ghost' }) })).body).toMatchObject({ code: -1, message: '资产不存在：ghost' });
  });
});

describe('the Kubernetes client key', () => {
  const CLIENT_KEY = '-----BEGIN PRIVATE KEY-----\nK8S-CLIENT-KEY-SECRET-0123456789\n-----END PRIVATE KEY-----';
  const k8s = (over: Record<string, unknown> = {}) =>
    sshAsset({ name: 'k8s-1', protocol: 'kubernetes', port: 6443, accountType: 'custom', password: '', pod: 'web-0', 'use-ssl': true, 'client-cert': 'CERT', 'client-key': CLIENT_KEY, ...over });
  const storedKey = async (h: Harness, name: string) => {
    const a = await storedAsset(h, name);
    return (await h.db.selectFrom('assetAttributes').select('value').where('assetId', '=', a.id).where('name', '=', 'client-key').executeTakeFirst())?.value ?? null;
  };

  it('is sealed at rest, never answered (clientKeySet instead), kept on an edit that does not send it', async () => {
    const { h, api } = await assetHarness();
    const { id } = await api.ok<{ id: string }>('POST', '/assets', { body: k8s() });
    const sealed = await storedKey(h, 'k8s-1');
    expect(h.box.isSealed(sealed!)).toBe(true);
    expect(h.box.decrypt(sealed!)).toBe(CLIENT_KEY);

    // An admin who may only read assets (the audit's repro), and the full admin: neither gets it.
    const reader = await adminWith(h, ['asset-detail'], 'reader');
    for (const token of [reader.token, undefined]) {
      const res = token ? await h.call('GET', `/assets/${id}`, { token }) : await api.call('GET', `/assets/${id}`);
      expect(res.text).not.toContain('K8S-CLIENT-KEY-SECRET');
      expect(res.body.data).not.toHaveProperty('client-key');
      expect(res.body.data).toMatchObject({ 'client-cert': 'CERT', 'use-ssl': 'true', clientKeySet: true });
    }

    // What the console sends back on an edit: the detail, without the key. Kept, not resealed.
    const detail = await api.ok<Record<string, unknown>>('GET', `/assets/${id}`);
    await api.ok('PUT', `/assets/${id}`, { body: { ...detail, description: 'edited' } });
    expect(await storedKey(h, 'k8s-1')).toBe(sealed);
    await api.ok('PUT', `/assets/${id}`, { body: k8s({ 'client-key': '' }) });
    expect(await storedKey(h, 'k8s-1')).toBe(sealed);
    // A new key replaces it; TLS off drops it.
    await api.ok('PUT', `/assets/${id}`, { body: k8s({ 'client-key': 'New-Client-Key-Secret-2' }) });
    expect(h.box.decrypt((await storedKey(h, 'k8s-1'))!)).toBe('New-Client-Key-Secret-2');
    await api.ok('PUT', `/assets/${id}`, { body: k8s({ 'use-ssl': false, 'client-key': '' }) });
    expect(await storedKey(h, 'k8s-1')).toBeNull();
    expect(await api.ok('GET', `/assets/${id}`)).toMatchObject({ clientKeySet: false });
  });

  it('a copy takes the source’s key, sealed anew', async () => {
    const { h, api } = await assetHarness();
    const { id } = await api.ok<{ id: string }>('POST', '/assets', { body: k8s() });
    await api.ok('POST', '/assets', { body: k8s({ name: 'k8s-copy', 'client-key': '', copyFrom: id }) });
    const [source, copy] = [await storedKey(h, 'k8s-1'), await storedKey(h, 'k8s-copy')];
    expect(copy).not.toBe(source);
    expect(h.box.decrypt(copy!)).toBe(CLIENT_KEY);
  });
});

describe('key rotation', () => {
  it('reseals asset secrets and the SOCKS password attribute, leaving other attributes as they are', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jumpgate-asset-keys-'));
    try {
      const [k1, k2] = [newBoxKey(), newBoxKey()];
      const store = (secretKey: string, secretKeysOld: string[] = []) => openStore({ dataDir: dir, database: `sqlite:${path.join(dir, 'j.db')}`, secretKey, secretKeysOld });
      let s = await store(k1);
      await s.db
        .insertInto('assets')
        .values({ id: 'a1', name: 'a1', protocol: 'ssh', ip: 'h', port: 22, accountType: 'private-key', username: 'u', password: null, privateKey: s.box.encrypt(KEY), passphrase: s.box.encrypt('Key-Passphrase-9'), credentialId: null, accessGatewayId: null, description: '', active: 1, activeMessage: '', created: 0, lastAccessTime: null, owner: 'o' })
        .execute();
      await s.db
        .insertInto('assetAttributes')
        .values([
          { id: 'x1', assetId: 'a1', name: 'socks-proxy-password', value: s.box.encrypt('Socks-Secret-77') },
          { id: 'x2', assetId: 'a1', name: 'socks-proxy-host', value: 'proxy.local' },
        ])
        .execute();
      await s.db.destroy();
      await expect(store(k2)).rejects.toThrow(/assets\.private_key of a1: sealed with key/);

      s = await store(k2, [k1]);
      const a = await s.db.selectFrom('assets').selectAll().executeTakeFirstOrThrow();
      expect([s.box.isCurrent(a.privateKey!), s.box.isCurrent(a.passphrase!), a.password]).toEqual([true, true, null]);
      expect(s.box.decrypt(a.privateKey!)).toBe(KEY);
      const attrs = await s.db.selectFrom('assetAttributes').select(['name', 'value']).orderBy('name').execute();
      expect(attrs[1]).toEqual({ name: 'socks-proxy-password', value: expect.stringMatching(/^v1:/) });
      expect(s.box.isCurrent(attrs[1]!.value)).toBe(true);
      expect(s.box.decrypt(attrs[1]!.value)).toBe('Socks-Secret-77');
      expect(attrs[0]).toEqual({ name: 'socks-proxy-host', value: 'proxy.local' });
      await s.db.destroy();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
