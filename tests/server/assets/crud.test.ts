import { describe, expect, it } from 'vitest';
import { sign } from '../../../server/lib/ids.ts';
import { formatDate } from '../../../server/lib/time.ts';
import { SUPER_ADMIN_ID } from '../../../server/permissions/effective.ts';
import { adminWith, assetHarness, sshAsset } from './helpers.ts';

type Detail = Record<string, unknown>;

describe('POST /assets, GET /assets/:id', () => {
  it('creates an SSH asset and answers its detail flat, with its attributes, owner and tags, without secrets', async () => {
    const { h, api } = await assetHarness();
    const body = sshAsset({ 'socks-proxy-host': 'ignored-while-off', domain: 'rdp-only', 'x-unknown': 'dropped', id: 'ignored', owner: 'ignored' });
    const { id } = await api.ok<{ id: string }>('POST', '/assets', { body });
    expect(id).toMatch(/^[0-9a-f-]{36}$/);

    const detail = await api.ok<Detail>('GET', `/assets/${id}`);
    expect(detail).toEqual({
      id,
      name: 'web-1',
      protocol: 'ssh',
      ip: '10.0.0.1',
      port: 22,
      accountType: 'custom',
      username: 'root',
      credentialId: '',
      accessGatewayId: '',
      hostKey: '',
      description: 'front web server',
      active: false, // not checked yet: no message
      activeMessage: '',
      created: formatDate(h.clock.now()),
      lastAccessTime: '0001-01-01 00:00:00',
      tags: 'prod,web',
      owner: SUPER_ADMIN_ID,
      ownerName: (await h.db.selectFrom('users').select('nickname').where('id', '=', SUPER_ADMIN_ID).executeTakeFirstOrThrow()).nickname,
      passwordSet: true,
      privateKeySet: false,
      passphraseSet: false,
      socksProxyPasswordSet: false,
      clientKeySet: false,
      // Attributes as strings; only the protocol's names; booleans "true"/"false", numbers as text.
      'font-size': '14',
      'socks-proxy-enable': 'false',
      'socks-proxy-host': 'ignored-while-off',
      'ssh-mode': 'native',
    });
    const rows = await h.db.selectFrom('assetAttributes').select(['id', 'name']).where('assetId', '=', id).orderBy('name').execute();
    expect(rows).toEqual(['font-size', 'socks-proxy-enable', 'socks-proxy-host', 'ssh-mode'].map((name) => ({ id: sign([id, name]), name })));
  });

  it('keeps each protocol’s own attributes (rdp, vnc, telnet, kubernetes)', async () => {
    const { api } = await assetHarness();
    const cases: [Record<string, unknown>, Record<string, string>][] = [
      [
        { protocol: 'rdp', port: 3389, 'enable-drive': true, 'drive-path': 'storage-1', 'color-depth': '24', 'force-lossless': false, domain: 'CORP', 'font-size': 12 },
        { 'enable-drive': 'true', 'drive-path': 'storage-1', 'color-depth': '24', 'force-lossless': 'false', domain: 'CORP' },
      ],
      [{ protocol: 'vnc', port: 5900, cursor: 'remote', 'dest-host': 'inner', 'dest-port': 5901, 'swap-red-blue': true }, { cursor: 'remote', 'dest-host': 'inner', 'dest-port': '5901', 'swap-red-blue': 'true' }],
      [
        { protocol: 'telnet', port: 23, 'username-regex': 'login:', 'color-scheme': 'green-black', backspace: '127', 'terminal-type': 'xterm', namespace: 'k8s-only' },
        { 'username-regex': 'login:', 'color-scheme': 'green-black', backspace: '127', 'terminal-type': 'xterm' },
      ],
      [
        { protocol: 'kubernetes', port: 6443, namespace: 'default', pod: 'web-0', container: '', 'use-ssl': true, 'client-cert': 'CERT', 'ignore-cert': false, 'ssh-mode': 'native' },
        { namespace: 'default', pod: 'web-0', 'use-ssl': 'true', 'client-cert': 'CERT', 'ignore-cert': 'false' },
      ],
    ];
    for (const [over, attributes] of cases) {
      const name = `asset-${over.protocol}`;
      const body = { name, ip: 'host.example', accountType: 'custom', username: 'u', ...over };
      const { id } = await api.ok<{ id: string }>('POST', '/assets', { body });
      const detail = await api.ok<Detail>('GET', `/assets/${id}`);
      expect(detail, name).toMatchObject({ name, protocol: over.protocol, port: over.port, ...attributes });
      const known = ['id', 'name', 'protocol', 'ip', 'port', 'accountType', 'username', 'credentialId', 'accessGatewayId', 'hostKey', 'description', 'active', 'activeMessage', 'created', 'lastAccessTime', 'tags', 'owner', 'ownerName', 'passwordSet', 'privateKeySet', 'passphraseSet', 'socksProxyPasswordSet', 'clientKeySet'];
      expect(Object.keys(detail).filter((k) => !known.includes(k)).sort(), name).toEqual(Object.keys(attributes).sort());
    }
  });

  it('refuses bad fields with 400 naming the field, and duplicate names with a clear message', async () => {
    const { h, api } = await assetHarness();
    await api.ok('POST', '/assets', { body: sshAsset() });
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ name: '  ' }, /^name: required/],
      [{ name: 'n'.repeat(129) }, /^name: at most 128/],
      [{ protocol: 'ftp' }, /^protocol: expected one of: ssh, rdp, vnc, telnet, kubernetes/],
      [{ ip: '' }, /^ip: required/],
      [{ ip: 'a b' }, /^ip: expected a host name or an IP address/],
      [{ ip: '999.1.1.1' }, /^ip: expected a host name or an IP address/],
      [{ ip: 'http://x.com/' }, /^ip: expected a host name or an IP address/],
      [{ port: 0 }, /^port: expected a port 1–65535/],
      [{ port: 65536 }, /^port: expected a port/],
      [{ port: 'ssh' }, /^port: expected a port/],
      [{ port: 22.5 }, /^port: expected a port/],
      [{ accountType: 'token' }, /^accountType: expected one of: custom, private-key, credential/],
      [{ tags: 'a,b|c' }, /^tags: a tag may not contain "\|"/],
      [{ tags: 't'.repeat(65) }, /^tags: a tag has at most 64/],
      [{ tags: Array.from({ length: 33 }, (_, i) => `t${i}`).join(',') }, /^tags: at most 32 tags/],
      [{ 'color-scheme': 'pink' }, /^color-scheme: expected one of: gray-black/],
      [{ 'socks-proxy-port': 70000 }, /^socks-proxy-port: expected a port/],
      [{ 'socks-proxy-enable': 'yes' }, /^socks-proxy-enable: expected one of: true, false/],
      [{ 'font-size': { big: true } }, /^font-size: expected a string, number or boolean/],
    ];
    for (const [over, message] of bad) {
      const res = await api.call('POST', '/assets', { body: sshAsset({ name: 'web-2', ...over }) });
      expect(res.body.code, JSON.stringify(over)).toBe(400);
      expect(res.body.message, JSON.stringify(over)).toMatch(message);
    }
    // An attribute of another protocol is dropped, not checked.
    await api.ok('POST', '/assets', { body: sshAsset({ name: 'web-3', cursor: 'anything' }) });
    expect((await api.call('POST', '/assets', { body: sshAsset({ name: ' web-1 ' }) })).body).toEqual({ code: -1, message: '资产名称「web-1」已被使用' });
    expect((await api.call('POST', '/assets', { body: sshAsset({ name: 'web-4', accountType: 'credential', credentialId: '' }) })).body).toEqual({ code: -1, message: '请选择授权凭证' });
    expect((await h.db.selectFrom('assets').select('name').orderBy('name').execute()).map((a) => a.name)).toEqual(['web-1', 'web-3']);
  });

  it('takes the port as a JSON number or digits, and 1.3.9 placeholders ("-") as empty', async () => {
    const { api } = await assetHarness();
    const { id } = await api.ok<{ id: string }>('POST', '/assets', { body: sshAsset({ port: '2222', description: '-', tags: '-', accessGatewayId: '-', 'font-name': '-' }) });
    expect(await api.ok<Detail>('GET', `/assets/${id}`)).toMatchObject({ port: 2222, description: '', tags: '', accessGatewayId: '' });
    expect(Object.keys(await api.ok<Detail>('GET', `/assets/${id}`))).not.toContain('font-name');
  });

  it('answers -1 for an unknown id', async () => {
    const { api } = await assetHarness();
    expect((await api.call('GET', '/assets/nope')).body).toEqual({ code: -1, message: '资产不存在：nope', data: ['nope'] });
    expect((await api.call('PUT', '/assets/nope', { body: sshAsset() })).body).toMatchObject({ code: -1, message: '资产不存在：nope' });
    expect((await api.call('POST', '/assets/nope/change-owner', { query: { owner: SUPER_ADMIN_ID } })).body).toMatchObject({ code: -1, message: '资产不存在：nope' });
  });
});

describe('PUT /assets/:id', () => {
  it('replaces the fields, attributes and tags; the name stays unique among the others', async () => {
    const { h, api } = await assetHarness();
    const { id } = await api.ok<{ id: string }>('POST', '/assets', { body: sshAsset({ 'font-name': 'Mono', tags: 'prod,web' }) });
    await api.ok('POST', '/assets', { body: sshAsset({ name: 'db-1', tags: 'prod,db' }) });
    expect((await api.call('PUT', `/assets/${id}`, { body: sshAsset({ name: 'db-1' }) })).body).toEqual({ code: -1, message: '资产名称「db-1」已被使用' });

    await api.ok('PUT', `/assets/${id}`, { body: sshAsset({ ip: '10.0.0.9', port: 2200, tags: 'staging', description: '', 'font-size': '', 'terminal-type': 'xterm-256color' }) });
    const detail = await api.ok<Detail>('GET', `/assets/${id}`);
    expect(detail).toMatchObject({ name: 'web-1', ip: '10.0.0.9', port: 2200, tags: 'staging', description: '', 'terminal-type': 'xterm-256color' });
    expect(detail).not.toHaveProperty('font-name');
    expect(detail).not.toHaveProperty('font-size');
    // "web" is no longer carried by anyone: gone from GET /tags.
    expect(await api.ok('GET', '/tags')).toEqual(['db', 'prod', 'staging']);
    // The protocol changes: the SSH attributes go.
    await api.ok('PUT', `/assets/${id}`, { body: sshAsset({ protocol: 'rdp', port: 3389, 'ssh-mode': 'native', domain: 'CORP' }) });
    expect(await h.db.selectFrom('assetAttributes').select(['name', 'value']).where('assetId', '=', id).execute()).toEqual([{ name: 'domain', value: 'CORP' }]);
  });
});

describe('GET /assets, GET /tags', () => {
  it('lists id and name by name, optionally one protocol; tags in use, sorted', async () => {
    const { api } = await assetHarness();
    const b = await api.ok<{ id: string }>('POST', '/assets', { body: sshAsset({ name: 'b', tags: 'zeta, alpha' }) });
    const a = await api.ok<{ id: string }>('POST', '/assets', { body: sshAsset({ name: 'a', protocol: 'rdp', port: 3389, tags: '' }) });
    const c = await api.ok<{ id: string }>('POST', '/assets', { body: sshAsset({ name: 'c', tags: 'alpha,中文' }) });
    expect(await api.ok('GET', '/assets')).toEqual([
      { id: a.id, name: 'a' },
      { id: b.id, name: 'b' },
      { id: c.id, name: 'c' },
    ]);
    expect(await api.ok('GET', '/assets', { query: { protocol: 'ssh' } })).toEqual([
      { id: b.id, name: 'b' },
      { id: c.id, name: 'c' },
    ]);
    expect(await api.ok('GET', '/assets', { query: { protocol: '' } })).toHaveLength(3);
    expect((await api.call('GET', '/assets', { query: { protocol: 'ftp' } })).body.code).toBe(400);
    expect(await api.ok('GET', '/tags')).toEqual(['alpha', 'zeta', '中文']);
  });
});

describe('DELETE /assets/:id', () => {
  it('deletes a comma list all-or-nothing, with attributes, tag links and tags no longer used', async () => {
    const { h, api } = await assetHarness();
    const ids: string[] = [];
    for (const [name, tags] of [
      ['a', 'x,y'],
      ['b', 'y'],
      ['c', 'y,z'],
    ]) {
      ids.push((await api.ok<{ id: string }>('POST', '/assets', { body: sshAsset({ name, tags }) })).id);
    }
    const count = async (table: 'assets' | 'assetAttributes' | 'assetTags' | 'tags') => Number((await h.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

    expect((await api.call('DELETE', `/assets/${ids[0]},missing-1,${ids[1]},missing-2`)).body).toEqual({ code: -1, message: '资产不存在：missing-1, missing-2', data: ['missing-1', 'missing-2'] });
    expect([await count('assets'), await count('assetTags'), await count('tags')]).toEqual([3, 5, 3]);

    await api.ok('DELETE', `/assets/${ids[0]}, ${ids[1]},${ids[0]}`);
    expect(await h.db.selectFrom('assets').select('name').execute()).toEqual([{ name: 'c' }]);
    expect(await h.db.selectFrom('assetAttributes').select('assetId').distinct().execute()).toEqual([{ assetId: ids[2] }]);
    expect(await count('assetTags')).toBe(2);
    expect(await api.ok('GET', '/tags')).toEqual(['y', 'z']);
    expect(await count('tags')).toBe(2);
  });
});

describe('POST /assets/:id/change-owner', () => {
  it('hands the asset to an existing user; the lists show the new owner’s nickname', async () => {
    const { h, api } = await assetHarness();
    const { id } = await api.ok<{ id: string }>('POST', '/assets', { body: sshAsset() });
    const bob = await h.createUser({ username: 'bob', type: 'admin' });
    await h.db.updateTable('users').set({ nickname: 'Bob B.' }).where('id', '=', bob).execute();
    expect((await api.call('POST', `/assets/${id}/change-owner`, { query: { owner: 'ghost' } })).body).toEqual({ code: -1, message: '用户不存在：ghost' });
    expect((await api.call('POST', `/assets/${id}/change-owner`)).body.code).toBe(400);
    expect(await api.ok('POST', `/assets/${id}/change-owner`, { query: { owner: bob } })).toBe('');
    expect(await api.ok('GET', `/assets/${id}`)).toMatchObject({ owner: bob, ownerName: 'Bob B.' });
    const page = await api.ok<{ items: Detail[] }>('GET', '/assets/paging');
    expect(page.items[0]).toMatchObject({ owner: bob, ownerName: 'Bob B.' });
  });
});

describe('gates', () => {
  it('asset-add reaches POST /assets, GET /assets and GET /tags; asset-detail reads but does not write', async () => {
    const { h, api } = await assetHarness();
    const { id } = await api.ok<{ id: string }>('POST', '/assets', { body: sshAsset() });
    const adder = await adminWith(h, ['asset-add'], 'adder');
    expect((await h.call('POST', '/assets', { token: adder.token, body: sshAsset({ name: 'by-adder' }) })).body.code).toBe(1);
    expect((await h.call('GET', '/assets', { token: adder.token })).body.code).toBe(1);
    expect((await h.call('GET', '/tags', { token: adder.token })).body.code).toBe(1);
    expect((await h.call('PUT', `/assets/${id}`, { token: adder.token, body: sshAsset() })).body.code).toBe(403);
    const reader = await adminWith(h, ['asset-detail'], 'reader');
    expect((await h.call('GET', `/assets/${id}`, { token: reader.token })).body.code).toBe(1);
    expect((await h.call('DELETE', `/assets/${id}`, { token: reader.token })).body.code).toBe(403);
    // The creator owns what it created.
    expect(await api.ok('GET', '/assets/paging', { query: { name: 'by-adder' } })).toMatchObject({ items: [{ owner: adder.id, ownerName: 'adder' }] });
  });
});
