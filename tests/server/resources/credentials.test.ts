import { describe, expect, it } from 'vitest';
import { SUPER_ADMIN_ID } from '../../../server/permissions/effective.ts';
import { adminWith, newKey, type Paged, resourcesHarness } from './helpers.ts';

interface Credential {
  id: string;
  name: string;
  type: string;
  username: string;
  owner: string;
  ownerName: string;
  created: string;
  passwordSet: boolean;
  privateKeySet: boolean;
  passphraseSet: boolean;
}

describe('credentials', () => {
  it('creates, reads, lists, updates and deletes, never answering a secret', async () => {
    const { h, api, secret } = await resourcesHarness();
    const password = secret('cred-password-Xy7');
    h.clock.advance(1000);
    const created = await api.ok<Credential>('POST', '/credentials', { body: { name: ' web ', type: 'custom', username: 'root', password, privateKey: '', passphrase: '' } });
    expect(created).toEqual({
      id: created.id,
      name: 'web',
      type: 'custom',
      username: 'root',
      owner: SUPER_ADMIN_ID,
      ownerName: expect.any(String),
      created: created.created,
      passwordSet: true,
      privateKeySet: false,
      passphraseSet: false,
    });
    expect(created.created).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(await api.ok('GET', `/credentials/${created.id}`)).toEqual(created);
    expect(await api.ok('GET', '/credentials')).toEqual([{ id: created.id, name: 'web' }]);
    const page = await api.ok<Paged<Record<string, unknown>>>('GET', '/credentials/paging?pageIndex=1&pageSize=10');
    expect(page).toEqual({ total: 1, items: [{ id: created.id, name: 'web', type: 'custom', username: 'root', owner: SUPER_ADMIN_ID, ownerName: created.ownerName, created: created.created }] });

    // Stored sealed, and opens to what was sent.
    const row = await h.db.selectFrom('credentials').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(h.box.isSealed(row.password!)).toBe(true);
    expect(h.box.decrypt(row.password!)).toBe(password);

    expect(await api.ok('PUT', `/credentials/${created.id}`, { body: { name: 'web-2', type: 'custom', username: 'admin' } })).toBeNull();
    expect(await api.ok('GET', `/credentials/${created.id}`)).toMatchObject({ name: 'web-2', username: 'admin', passwordSet: true });
    expect(await api.ok('DELETE', `/credentials/${created.id}`)).toBeNull();
    expect((await api.call('GET', `/credentials/${created.id}`)).body).toEqual({ code: -1, message: `授权凭证不存在：${created.id}` });
    expect((await api.call('PUT', '/credentials/ghost', { body: { name: 'x', type: 'custom' } })).body).toEqual({ code: -1, message: '授权凭证不存在：ghost' });
    expect(await h.db.selectFrom('credentials').select('id').execute()).toEqual([]);
  });

  it('keeps secrets on an edit without them (absent, "" or "-", the 1.3.9 form echo), replaces and clears them', async () => {
    const { h, api, secret } = await resourcesHarness();
    const passphrase = secret('key-passphrase-1');
    const key = newKey(passphrase);
    secret(key.privateKey);
    const { id } = await api.ok<Credential>('POST', '/credentials', { body: { name: 'k', type: 'private-key', username: 'deploy', privateKey: key.privateKey, passphrase, password: secret('ignored-password-1') } });
    const stored = () => h.db.selectFrom('credentials').select(['password', 'privateKey', 'passphrase']).where('id', '=', id).executeTakeFirstOrThrow();
    const opened = async () => {
      const s = await stored();
      return { password: h.box.decryptNullable(s.password), privateKey: h.box.decryptNullable(s.privateKey), passphrase: h.box.decryptNullable(s.passphrase) };
    };
    expect(await opened()).toEqual({ password: null, privateKey: key.privateKey, passphrase });
    const detail = await api.ok<Credential>('GET', `/credentials/${id}`);
    expect(detail).toMatchObject({ passwordSet: false, privateKeySet: true, passphraseSet: true });
    expect(Object.keys(detail)).not.toContain('privateKey');

    // The 1.3.9 console's edit form comes back with the secrets empty; ours leaves them out; '-' is 1.3.9's "empty".
    for (const echo of [{ password: '', privateKey: '', passphrase: '' }, {}, { privateKey: '-', passphrase: '-' }, { privateKey: null, passphrase: null }]) {
      await api.ok('PUT', `/credentials/${id}`, { body: { ...detail, ...echo } });
      expect(await opened(), JSON.stringify(echo)).toEqual({ password: null, privateKey: key.privateKey, passphrase });
    }

    // A new key that needs no passphrase: the old passphrase goes with the old key.
    const plainKey = newKey();
    secret(plainKey.privateKey);
    await api.ok('PUT', `/credentials/${id}`, { body: { name: 'k', type: 'private-key', username: 'deploy', privateKey: plainKey.privateKey } });
    expect(await opened()).toEqual({ password: null, privateKey: plainKey.privateKey, passphrase: null });
    // A new key that needs the stored passphrase keeps it.
    await api.ok('PUT', `/credentials/${id}`, { body: { name: 'k', type: 'private-key', privateKey: key.privateKey, passphrase } });
    const pp2 = secret('another-passphrase');
    const key2 = newKey(pp2);
    secret(key2.privateKey);
    expect((await api.call('PUT', `/credentials/${id}`, { body: { name: 'k', type: 'private-key', privateKey: key2.privateKey } })).body).toEqual({ code: -1, message: '私钥密码不正确' });
    expect(await opened()).toEqual({ password: null, privateKey: key.privateKey, passphrase }); // refused: nothing changed
    // A new passphrase alone must open the stored key.
    expect((await api.call('PUT', `/credentials/${id}`, { body: { name: 'k', type: 'private-key', passphrase: pp2 } })).body).toEqual({ code: -1, message: '私钥密码不正确' });

    // Switching the type clears what no longer applies; switching back needs a key again.
    const password = secret('switched-password');
    await api.ok('PUT', `/credentials/${id}`, { body: { name: 'k', type: 'custom', username: 'deploy', password, privateKey: '', passphrase: '' } });
    expect(await opened()).toEqual({ password, privateKey: null, passphrase: null });
    expect(await api.ok('GET', `/credentials/${id}`)).toMatchObject({ type: 'custom', passwordSet: true, privateKeySet: false, passphraseSet: false });
    expect((await api.call('PUT', `/credentials/${id}`, { body: { name: 'k', type: 'private-key', username: 'deploy', privateKey: '' } })).body).toEqual({ code: -1, message: '请输入私钥' });
    await api.ok('PUT', `/credentials/${id}`, { body: { name: 'k', type: 'private-key', privateKey: plainKey.privateKey } });
    expect(await opened()).toEqual({ password: null, privateKey: plainKey.privateKey, passphrase: null });
    // Replacing one secret leaves the others.
    const newPassword = secret('replaced-password');
    await api.ok('PUT', `/credentials/${id}`, { body: { name: 'k', type: 'custom', password } });
    await api.ok('PUT', `/credentials/${id}`, { body: { name: 'k', type: 'custom', password: newPassword } });
    expect(await opened()).toEqual({ password: newPassword, privateKey: null, passphrase: null });
  });

  it('checks private keys with ssh2: required, parseable, private, passphrase right', async () => {
    const { api, secret } = await resourcesHarness();
    const pp = secret('right-passphrase');
    const sealed = newKey(pp);
    secret(sealed.privateKey);
    const post = (privateKey: string, passphrase?: string) => api.call('POST', '/credentials', { body: { name: 'k', type: 'private-key', username: 'u', privateKey, passphrase } });
    expect((await post('')).body).toEqual({ code: -1, message: '请输入私钥' });
    expect((await post('not a key')).body).toEqual({ code: -1, message: '无法解析私钥：Unsupported key format' });
    expect((await post(sealed.publicKey)).body).toEqual({ code: -1, message: '这是公钥，请填写私钥' });
    expect((await post(sealed.privateKey)).body).toEqual({ code: -1, message: '私钥已加密，请输入私钥密码' });
    expect((await post(sealed.privateKey, secret('wrong-passphrase'))).body).toEqual({ code: -1, message: '私钥密码不正确' });
    expect((await post(sealed.privateKey, pp)).body.code).toBe(1);
    // A key sent with Windows line ends (a pasted file) parses too.
    const crlf = newKey();
    secret(crlf.privateKey);
    expect((await api.call('POST', '/credentials', { body: { name: 'k2', type: 'private-key', privateKey: crlf.privateKey.replace(/\n/g, '\r\n') } })).body.code).toBe(1);
    expect((await api.call('POST', '/credentials', { body: { name: 'k3', type: 'other' } })).body).toEqual({ code: 400, message: 'type: expected custom or private-key' });
    expect((await api.call('POST', '/credentials', { body: { name: ' ', type: 'custom' } })).body).toEqual({ code: 400, message: 'name: required' });
  });

  it('refuses duplicate names with a clear message, on create and edit', async () => {
    const { api } = await resourcesHarness();
    const a = await api.ok<Credential>('POST', '/credentials', { body: { name: 'a', type: 'custom' } });
    const b = await api.ok<Credential>('POST', '/credentials', { body: { name: 'b', type: 'custom' } });
    expect((await api.call('POST', '/credentials', { body: { name: 'a', type: 'custom' } })).body).toEqual({ code: -1, message: '授权凭证名称「a」已存在' });
    expect((await api.call('PUT', `/credentials/${b.id}`, { body: { name: 'a', type: 'custom' } })).body).toEqual({ code: -1, message: '授权凭证名称「a」已存在' });
    expect(await api.ok('PUT', `/credentials/${a.id}`, { body: { name: 'a', type: 'custom', username: 'same name, own record' } })).toBeNull();
  });

  it('pages for real: name filter (LIKE, escaped), sort whitelist, owner names', async () => {
    const { h, api, as } = await resourcesHarness();
    const ann = await adminWith(h, ['credential-add'], 'ann');
    await h.db.updateTable('users').set({ nickname: 'Ann A.' }).where('id', '=', ann.id).execute();
    for (const name of ['db-1', 'db-2', 'db_3', 'web-1', '100%']) {
      h.clock.advance(1000);
      await api.ok('POST', '/credentials', { body: { name, type: 'custom' } });
    }
    h.clock.advance(1000);
    await as(ann.token).ok('POST', '/credentials', { body: { name: 'anns', type: 'custom' } });
    const page = (q: string) => api.ok<Paged<Credential>>('GET', `/credentials/paging?${q}`);
    const names = (p: Paged<Credential>) => p.items.map((c) => c.name);

    expect(names(await page('pageIndex=1&pageSize=10'))).toEqual(['anns', '100%', 'web-1', 'db_3', 'db-2', 'db-1']); // created, newest first
    const second = await page('pageIndex=2&pageSize=4');
    expect(second.total).toBe(6);
    expect(names(second)).toEqual(['db-2', 'db-1']);
    expect(names(await page('name=db&field=name&order=ascend'))).toEqual(['db-1', 'db-2', 'db_3']);
    expect(names(await page('name=db_&field=name&order=ascend'))).toEqual(['db_3']); // _ is literal
    expect(names(await page('name=%25'))).toEqual(['100%']); // % is literal
    expect(names(await page('field=name&order=descend'))).toEqual(['web-1', 'db_3', 'db-2', 'db-1', 'anns', '100%']);
    expect(names(await page('field=password;drop table x'))).toHaveLength(6); // not a column: default order
    expect((await page('name=anns')).items[0]).toMatchObject({ owner: ann.id, ownerName: 'Ann A.' });
    expect((await api.call('GET', '/credentials/paging?pageSize=0')).body.code).toBe(400);
  });

  it('deletes comma lists all or nothing', async () => {
    const { h, api } = await resourcesHarness();
    const a = await api.ok<Credential>('POST', '/credentials', { body: { name: 'a', type: 'custom' } });
    const b = await api.ok<Credential>('POST', '/credentials', { body: { name: 'b', type: 'custom' } });
    expect((await api.call('DELETE', `/credentials/${a.id},ghost,${b.id}`)).body).toEqual({ code: -1, message: '授权凭证不存在：ghost', data: ['ghost'] });
    expect(await h.db.selectFrom('credentials').select('id').execute()).toHaveLength(2);
    await api.ok('DELETE', `/credentials/${a.id},${b.id}`);
    expect(await h.db.selectFrom('credentials').select('id').execute()).toEqual([]);
  });

  it('changes the owner: the super admin only (as 1.3.9), to an existing user', async () => {
    const { h, api, as } = await resourcesHarness();
    const c = await api.ok<Credential>('POST', '/credentials', { body: { name: 'a', type: 'custom' } });
    const bob = await h.createUser({ username: 'bob' });
    const everything = await adminWith(h, h.catalogue.keys as never, 'all-keys');
    expect((await as(everything.token).call('POST', `/credentials/${c.id}/change-owner?owner=${bob}`)).body).toEqual({ code: 403, message: 'permission denied' });
    expect((await api.call('POST', `/credentials/${c.id}/change-owner?owner=ghost`)).body).toEqual({ code: -1, message: '用户不存在：ghost' });
    expect((await api.call('POST', `/credentials/ghost/change-owner?owner=${bob}`)).body).toEqual({ code: -1, message: '授权凭证不存在：ghost' });
    expect((await api.call('POST', `/credentials/${c.id}/change-owner`)).body.code).toBe(400);
    expect(await api.ok('POST', `/credentials/${c.id}/change-owner?owner=${bob}`)).toBe('');
    expect(await api.ok('GET', `/credentials/${c.id}`)).toMatchObject({ owner: bob, ownerName: 'bob' });
  });

  it('gates by method: each key reaches exactly its routes', async () => {
    const { h, api, as } = await resourcesHarness();
    const c = await api.ok<Credential>('POST', '/credentials', { body: { name: 'a', type: 'custom' } });
    const editor = as((await adminWith(h, ['credential-edit'], 'editor')).token);
    expect((await editor.call('GET', `/credentials/${c.id}`)).body.code).toBe(1);
    expect((await editor.call('DELETE', `/credentials/${c.id}`)).body.code).toBe(403); // 1.3.9: any path match (quirk 2)
    expect((await editor.call('GET', '/credentials/paging')).body.code).toBe(403);
    const assetAdder = as((await adminWith(h, ['asset-add'], 'asset-adder')).token);
    expect((await assetAdder.call('GET', '/credentials')).body.code).toBe(1);
    expect((await assetAdder.call('POST', '/credentials', { body: { name: 'b', type: 'custom' } })).body.code).toBe(403);
  });
});
