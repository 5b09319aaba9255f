import { describe, expect, it } from 'vitest';
import { SUPER_ADMIN_ID } from '../../server/permissions/effective.ts';
import { sign } from '../../server/lib/ids.ts';
import { formatDate } from '../../server/lib/time.ts';
import { resourcesHarness } from './resources/helpers.ts';

interface Opened {
  id: string;
  upload: string;
  download: string;
  delete: string;
  rename: string;
  edit: string;
  createDir: string;
  storageId: string;
  fileSystem: string;
  copy: string;
  paste: string;
}

const ALL = { upload: '1', download: '1', delete: '1', rename: '1', edit: '1', createDir: '1', copy: '1', paste: '1' };
const DENIED = { code: -1, message: '您没有权限访问此资产' };
const HOUR = 3600_000;

/** A super admin, the users alice (plain) and olga (admin type, no roles), a group `ops` with alice, an SSH asset. */
async function world() {
  const r = await resourcesHarness();
  const { h, api } = r;
  const aliceId = await h.createUser({ username: 'alice', type: 'user' });
  const olgaId = await h.createUser({ username: 'olga', type: 'admin' });
  const alice = r.as(await h.accessToken(aliceId));
  const olga = r.as(await h.accessToken(olgaId));
  const group = await api.ok<{ id: string }>('POST', '/user-groups', { body: { name: 'ops', members: [aliceId] } });
  const asset = async (name: string, extra: Record<string, unknown> = {}) =>
    (await api.ok<{ id: string }>('POST', '/assets', { body: { name, protocol: 'ssh', ip: '10.0.0.7', port: 22, accountType: 'custom', username: 'root', password: r.secret('asset-password-1'), ...extra } })).id;
  const web = await asset('web');
  const strategy = async (name: string, flags: Record<string, boolean>) => (await api.ok<{ id: string }>('POST', '/strategies', { body: { name, ...flags } })).id;
  const sessions = () => h.db.selectFrom('sessions').selectAll().execute();
  return { ...r, aliceId, olgaId, alice, olga, groupId: group.id, asset, web, strategy, sessions };
}

describe('POST /sessions', () => {
  it('refuses an asset the caller may not open, writing nothing', async () => {
    const { h, alice, olga, web, sessions } = await world();
    expect((await alice.call('POST', `/sessions?assetId=${web}&mode=native`)).body).toEqual(DENIED);
    // Admin-type accounts follow the rule too (1.3.9 let every admin open every asset).
    expect((await olga.call('POST', `/sessions?assetId=${web}&mode=native`)).body).toEqual(DENIED);
    // An unknown asset answers the same: no oracle of which ids exist.
    expect((await alice.call('POST', '/sessions?assetId=ghost&mode=native')).body).toEqual(DENIED);
    expect(await sessions()).toEqual([]);
    expect((await h.db.selectFrom('assets').select('lastAccessTime').where('id', '=', web).executeTakeFirstOrThrow()).lastAccessTime).toBeNull();
  });

  it('opens for the super admin and the owner with every flag; creates the row and sets the last access', async () => {
    const { h, api, alice, aliceId, web, sessions } = await world();
    const opened = await api.ok<Opened>('POST', `/sessions?assetId=${web}&mode=native`);
    expect(opened).toEqual({ id: expect.any(String), ...ALL, fileSystem: '1', storageId: '', protocol: 'ssh' });
    const [row] = await sessions();
    expect(row).toMatchObject({
      id: opened.id,
      protocol: 'ssh',
      ip: '10.0.0.7',
      port: 22,
      assetId: web,
      creator: SUPER_ADMIN_ID,
      clientIp: '127.0.0.1',
      mode: 'native',
      status: 'no_connect',
      created: h.clock.now(),
      connectedTime: null,
      username: '',
      strategyId: null,
      upload: 1,
      createDir: 1,
      paste: 1,
      fileSystem: 1,
    });
    // No column of the row holds the asset's password (no secret columns at all).
    expect(Object.keys(row!)).not.toContain('password');
    expect(JSON.stringify(row)).not.toContain('asset-password-1');
    const lastAccess = await api.ok<{ lastAccessTime: string }>('GET', `/assets/${web}`);
    expect(lastAccess.lastAccessTime).toBe(formatDate(h.clock.now()));

    // The owner: every flag, even when a grant with a strategy also names her.
    await api.ok('POST', `/assets/${web}/change-owner?owner=${aliceId}`);
    const none = (await api.ok<{ id: string }>('POST', '/strategies', { body: { name: 'nothing' } })).id;
    await api.ok('POST', '/authorised/users', { body: { userIds: [aliceId], assetId: web, strategyId: none } });
    h.clock.advance(1000);
    expect(await alice.ok<Opened>('POST', `/sessions?assetId=${web}&mode=guacd`)).toMatchObject({ ...ALL, fileSystem: '1' });
    expect((await sessions()).map((s) => [s.creator, s.mode])).toContainEqual([aliceId, 'guacd']);
  });

  it('opens through a direct grant or a group grant, with the strategy of the winning grant', async () => {
    const { api, alice, aliceId, groupId, web, strategy, sessions } = await world();
    const readOnly = await strategy('read-only', { download: true, copy: true });
    const uploads = await strategy('uploads', { upload: true, createDir: true });

    // Through the group, its strategy.
    await api.ok('POST', '/authorised/user-groups', { body: { userGroupIds: [groupId], assetId: web, strategyId: readOnly } });
    expect(await alice.ok<Opened>('POST', `/sessions?assetId=${web}&mode=native`)).toEqual({
      id: expect.any(String),
      upload: '0',
      download: '1',
      delete: '0',
      rename: '0',
      edit: '0',
      createDir: '0',
      storageId: '',
      fileSystem: '1',
      copy: '1',
      paste: '0',
      protocol: 'ssh',
    });
    // A direct grant beats the group's (the access rule's order): its strategy applies.
    await api.ok('POST', '/authorised/users', { body: { userIds: [aliceId], assetId: web, strategyId: uploads } });
    expect(await alice.ok<Opened>('POST', `/sessions?assetId=${web}&mode=native`)).toMatchObject({ upload: '1', createDir: '1', download: '0', copy: '0' });
    expect((await sessions()).map((s) => s.strategyId).sort()).toEqual([readOnly, uploads].sort());

    // A grant without a strategy: no restriction (1.3.9). The stricter grant is removed first: a re-grant never
    // silently widens it (issue 28).
    await api.ok('DELETE', `/authorised/${sign([web, aliceId, ''])}`);
    await api.ok('POST', '/authorised/users', { body: { userIds: [aliceId], assetId: web } });
    expect(await alice.ok<Opened>('POST', `/sessions?assetId=${web}&mode=native`)).toMatchObject(ALL);
  });

  it('stops counting a grant outside its window, after removal from the group, or once the grant is deleted', async () => {
    const { h, api, alice, aliceId, groupId, web, sessions } = await world();
    const at = (ms: number) => formatDate(h.clock.now() + ms);
    // Pending: the window opens in an hour.
    await api.ok('POST', '/authorised/users', { body: { userIds: [aliceId], assetId: web, validFrom: at(HOUR), validUntil: at(2 * HOUR) } });
    expect((await alice.call('POST', `/sessions?assetId=${web}`)).body).toEqual(DENIED);
    h.clock.advance(HOUR);
    expect((await alice.call('POST', `/sessions?assetId=${web}`)).body.code).toBe(1);
    // Expired.
    h.clock.advance(HOUR);
    expect((await alice.call('POST', `/sessions?assetId=${web}`)).body).toEqual(DENIED);
    expect(await sessions()).toHaveLength(1);

    // Through the group, until she leaves it.
    await api.ok('POST', '/authorised/user-groups', { body: { userGroupIds: [groupId], assetId: web } });
    expect((await alice.call('POST', `/sessions?assetId=${web}`)).body.code).toBe(1);
    await api.ok('PUT', `/user-groups/${groupId}`, { body: { name: 'ops', members: [] } });
    expect((await alice.call('POST', `/sessions?assetId=${web}`)).body).toEqual(DENIED);

    // A direct grant, until it is deleted.
    await api.ok('POST', '/authorised/users', { body: { userIds: [aliceId], assetId: web } });
    expect((await alice.call('POST', `/sessions?assetId=${web}`)).body.code).toBe(1);
    const grant = await h.db.selectFrom('authorised').select('id').where('userId', '=', aliceId).executeTakeFirstOrThrow();
    await api.ok('DELETE', `/authorised/${grant.id}`);
    expect((await alice.call('POST', `/sessions?assetId=${web}`)).body).toEqual(DENIED);
    expect(await sessions()).toHaveLength(3);
  });

  it('RDP: the file system and storage follow the drive attributes', async () => {
    const { api, alice, aliceId, asset } = await world();
    const rdp = (name: string, attrs: Record<string, unknown>) => asset(name, { protocol: 'rdp', port: 3389, ...attrs });
    const withPath = await rdp('win-1', { 'enable-drive': true, 'drive-path': 'shared-storage' });
    const ownDrive = await rdp('win-2', { 'enable-drive': true });
    const noDrive = await rdp('win-3', {});
    const vnc = await asset('vnc-1', { protocol: 'vnc', port: 5900 });
    for (const id of [withPath, ownDrive, noDrive, vnc]) await api.ok('POST', '/authorised/users', { body: { userIds: [aliceId], assetId: id } });
    expect(await alice.ok<Opened>('POST', `/sessions?assetId=${withPath}&mode=guacd`)).toMatchObject({ fileSystem: '1', storageId: 'shared-storage' });
    expect(await alice.ok<Opened>('POST', `/sessions?assetId=${ownDrive}&mode=guacd`)).toMatchObject({ fileSystem: '1', storageId: aliceId });
    expect(await alice.ok<Opened>('POST', `/sessions?assetId=${noDrive}&mode=guacd`)).toMatchObject({ fileSystem: '0', storageId: '' });
    expect(await alice.ok<Opened>('POST', `/sessions?assetId=${vnc}`)).toMatchObject({ fileSystem: '0', storageId: '' });
  });

  it('takes the mode as given: guacd by default, native and terminal for SSH only, nothing else (quirk 29)', async () => {
    const { api, asset, web, sessions } = await world();
    const rdp = await asset('win', { protocol: 'rdp', port: 3389 });
    await api.ok('POST', `/sessions?assetId=${web}`);
    await api.ok('POST', `/sessions?assetId=${web}&mode=terminal`);
    expect((await sessions()).map((s) => s.mode).sort()).toEqual(['guacd', 'terminal']);
    expect((await api.call('POST', `/sessions?assetId=${rdp}&mode=native`)).body).toEqual({ code: -1, message: 'RDP 资产不能使用终端模式' });
    expect((await api.call('POST', `/sessions?assetId=${web}&mode=naive`)).body.code).toBe(400);
    expect((await api.call('POST', '/sessions?mode=native')).body).toMatchObject({ code: 400, message: expect.stringMatching(/^assetId: /) });
    expect(await sessions()).toHaveLength(2);
  });
});
