import { describe, expect, it } from 'vitest';
import type { PermissionKey } from '../../../shared/manifest.ts';
import { DEFAULT_ROLES } from '../../../server/seed.ts';
import { uuid } from '../../../server/lib/ids.ts';
import { SUPER_ADMIN_ID } from '../../../server/permissions/effective.ts';
import { type Harness, startHarness } from '../harness.ts';
import { adminWith, type Paged } from '../identity/helpers.ts';
import { insertAsset, insertLoginLog, insertStorageLog, local, sessionRow } from '../overview/rows.ts';

interface OperationItem {
  id: string;
  userId: string;
  username: string;
  clientIp: string;
  action: string;
  target: string;
  count: number;
  result: 'success' | 'refused';
  reason: string;
  created: string;
}

/** The six keys that delete audit records, and the route each grants. */
const DESTRUCTIVE: readonly [PermissionKey, string, string][] = [
  ['offline-session-del', 'DELETE', '/sessions/:id'],
  ['offline-session-clear', 'POST', '/sessions/clear'],
  ['login-log-del', 'DELETE', '/login-logs/:id'],
  ['login-log-clear', 'POST', '/login-logs/clear'],
  ['storage-log-del', 'DELETE', '/storage-logs/:id'],
  ['storage-log-clear', 'POST', '/storage-logs/clear'],
];

const operations = async (h: Harness, token: string, query: Record<string, string> = {}) => {
  const res = await h.call('GET', '/operation-logs/paging', { token, query: { pageIndex: '1', pageSize: '50', ...query } });
  expect(res.body.code, res.text).toBe(1);
  return res.body.data as Paged<OperationItem>;
};

/** One record of each audit list: a finished session of ann on web-1, a login of ann, a file operation of ann. */
async function auditRecords(h: Harness) {
  const web = await insertAsset(h.db, { name: 'web-1' });
  const ann = await h.createUser({ username: 'ann' });
  const session = sessionRow({ assetId: web, creator: ann, clientIp: '10.9.9.9', connectedTime: local(2026, 4, 1, 9, 30), disconnectedTime: local(2026, 4, 1, 9, 40) });
  await h.db.insertInto('sessions').values(session).execute();
  const login = await insertLoginLog(h.db, { username: 'ann', clientIp: '10.8.8.8', loginTime: local(2026, 4, 1, 8, 0) });
  const file = await insertStorageLog(h.db, { assetId: web, userId: ann, action: 'download', fileName: '/etc/hosts', created: local(2026, 4, 1, 9, 35) });
  return { web, ann, session: session.id, login, file };
}

const url = (path: string, id: string) => path.replace(':id', id);

describe('destructive keys: deleting audit records is granted to no built-in role', () => {
  it('a fresh database: 系统管理员 and 审计管理员 lack the six keys (their pages half-checked), hold the operation log; an admin with both roles gets 403, the super admin deletes', async () => {
    const h = await startHarness();
    const keys = DESTRUCTIVE.map(([k]) => k);
    expect([...h.catalogue.destructiveKeys()].sort()).toEqual([...keys].sort());
    const root = await h.accessToken(SUPER_ADMIN_ID);

    for (const role of ['system-administrator', 'audit-administrator']) {
      const res = await h.call('GET', `/roles/${role}`, { token: root });
      const refs = (res.body.data as { menus: { menuId: string; checked: boolean }[] }).menus;
      const held = refs.map((r) => r.menuId);
      for (const key of keys) expect(held, `${role} holds ${key}`).not.toContain(key);
      expect(held).toContain('operation-log');
      expect(held).toContain('offline-session-playback');
      // The pages whose destructive actions are withheld are half-checked: no editor reads them as their whole branch.
      for (const page of ['offline-session', 'login-log', 'storage-log', 'session-audit', 'log-audit']) {
        expect(refs.find((r) => r.menuId === page), `${role} ${page}`).toEqual({ id: '', roleId: '', menuId: page, checked: false });
      }
      expect(refs.find((r) => r.menuId === 'operation-log')?.checked).toBe(true);
      expect(refs.find((r) => r.menuId === 'online-session')?.checked).toBe(true);
    }
    expect(DEFAULT_ROLES.map((r) => r.id).sort()).toEqual(['audit-administrator', 'security-administrator', 'system-administrator']);
    const security = (await h.call('GET', '/roles/security-administrator', { token: root })).body.data as { menus: { menuId: string }[] };
    for (const key of keys) expect(security.menus.map((m) => m.menuId)).not.toContain(key);

    const { session, login, file } = await auditRecords(h);
    const ids: Record<string, string> = { '/sessions/:id': session, '/login-logs/:id': login, '/storage-logs/:id': file };
    const admin = await h.createUser({ username: 'sys', type: 'admin', roles: ['system-administrator', 'audit-administrator'] });
    const token = await h.accessToken(admin);
    for (const [key, method, path] of DESTRUCTIVE) {
      const res = await h.call(method, url(path, ids[path] ?? ''), { token });
      expect(res.body, `${key}: ${method} ${path}`).toEqual({ code: 403, message: 'permission denied' });
    }
    // The lists are intact, and nothing was recorded: nothing happened.
    expect(await h.db.selectFrom('sessions').select('id').execute()).toHaveLength(1);
    expect(await h.db.selectFrom('loginLogs').select('id').execute()).toHaveLength(1);
    expect(await h.db.selectFrom('storageLogs').select('id').execute()).toHaveLength(1);
    expect((await operations(h, token)).total).toBe(0);

    // The super admin holds every key; so does an admin whose role was granted them explicitly.
    for (const [key, method, path] of DESTRUCTIVE.filter(([, , p]) => p.endsWith(':id'))) {
      expect((await h.call(method, url(path, ids[path] ?? ''), { token: root })).body, key).toEqual({ code: 1, message: 'success', data: null });
    }
    const granted = await adminWith(h, ['offline-session-clear', 'login-log-clear', 'storage-log-clear'], 'granted');
    for (const [key, method, path] of DESTRUCTIVE.filter(([, , p]) => p.endsWith('/clear'))) {
      expect((await h.call(method, path, { token: granted.token })).body.code, key).toBe(1);
    }
  });
});

describe('the operation log records each delete and clear of audit records', () => {
  it('who, from where, which action, what (named) and how many; in the delete’s transaction', async () => {
    const h = await startHarness();
    const root = await h.accessToken(SUPER_ADMIN_ID);
    const { session, login, file } = await auditRecords(h);
    const extra = await insertLoginLog(h.db, { username: 'bob', clientIp: '10.7.7.7', loginTime: local(2026, 4, 2, 8, 0) });
    const remote = { 'x-forwarded-for': '203.0.113.9' }; // ignored without JUMPGATE_TRUST_PROXY: the socket's address counts

    h.clock.set(local(2026, 5, 1, 10, 0));
    expect((await h.call('DELETE', `/sessions/${session}`, { token: root, headers: remote })).body.code).toBe(1);
    h.clock.advance(1000);
    expect((await h.call('DELETE', `/login-logs/${login},${extra}`, { token: root })).body.code).toBe(1);
    h.clock.advance(1000);
    expect((await h.call('DELETE', `/storage-logs/${file}`, { token: root })).body.code).toBe(1);

    const page = await operations(h, root);
    expect(page.total).toBe(3);
    const [files, logins, sessions] = page.items;
    expect(sessions).toEqual({
      id: expect.any(String),
      userId: SUPER_ADMIN_ID,
      username: 'admin',
      clientIp: '127.0.0.1',
      action: 'session-delete',
      target: 'ann@web-1 10.9.9.9 2026-04-01 09:30:00',
      count: 1,
      result: 'success',
      reason: '',
      created: '2026-05-01 10:00:00',
    });
    expect(logins).toMatchObject({ action: 'login-log-delete', count: 2, result: 'success', created: '2026-05-01 10:00:01' });
    expect(logins!.target.split('; ').sort()).toEqual(['ann 10.8.8.8 2026-04-01 08:00:00', 'bob 10.7.7.7 2026-04-02 08:00:00']);
    expect(files).toMatchObject({ action: 'storage-log-delete', target: 'ann@web-1 download /etc/hosts 2026-04-01 09:35:00', count: 1 });

    // A refused delete (an unknown id: all or nothing) deletes nothing and records nothing.
    const keep = await insertLoginLog(h.db, { username: 'cy', loginTime: local(2026, 4, 3) });
    expect((await h.call('DELETE', `/login-logs/${keep},missing-id`, { token: root })).body.code).toBe(-1);
    expect((await operations(h, root)).total).toBe(3);

    // Clear: how many went, by an admin holding the keys explicitly.
    for (let i = 0; i < 4; i++) await insertStorageLog(h.db, { assetId: 'gone', userId: 'gone', action: 'rm', created: local(2026, 4, 5, 0, i) });
    await h.db.insertInto('sessions').values([sessionRow({ assetId: 'gone' }), sessionRow({ assetId: 'gone' }), sessionRow({ assetId: 'gone', status: 'connected' })]).execute();
    const clerk = await adminWith(h, ['offline-session-clear', 'login-log-clear', 'storage-log-clear', 'operation-log'], 'clerk');
    h.clock.advance(1000);
    for (const path of ['/storage-logs/clear', '/sessions/clear', '/login-logs/clear']) {
      expect((await h.call('POST', path, { token: clerk.token })).body.code, path).toBe(1);
    }
    const cleared = (await operations(h, clerk.token, { pageSize: '3' })).items;
    expect(cleared.map((e) => [e.action, e.count, e.target, e.username, e.userId])).toEqual([
      ['login-log-clear', 1, '', 'clerk', clerk.id],
      ['session-clear', 2, '', 'clerk', clerk.id],
      ['storage-log-clear', 4, '', 'clerk', clerk.id],
    ]);
  });

  it('names a long batch up to a bound, then says how many more', async () => {
    const h = await startHarness();
    const root = await h.accessToken(SUPER_ADMIN_ID);
    const ids: string[] = [];
    for (let i = 0; i < 300; i++) ids.push(await insertLoginLog(h.db, { username: `user-${String(i).padStart(3, '0')}-${'x'.repeat(20)}`, loginTime: local(2026, 4, 1, 0, 0, i) }));
    expect((await h.call('DELETE', `/login-logs/${ids.join(',')}`, { token: root })).body.code).toBe(1);
    const [event] = (await operations(h, root)).items;
    expect(event!.count).toBe(300);
    expect(event!.target.length).toBeLessThanOrEqual(2000);
    expect(event!.target).toMatch(/; … \(\+\d+\)$/);
  });

  it('is read-only: one GET route, no key or route deletes from it; paged and filtered', async () => {
    const h = await startHarness();
    const operationRoutes = h.app.routeRegistry.filter((r) => r.path.startsWith('/operation-logs'));
    expect(operationRoutes.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /operation-logs/paging']);
    const operationKeys = h.catalogue.entries.filter((e) => e.grants.some((g) => g.includes('/operation-logs')));
    expect(operationKeys.map((e) => [e.key, e.grants])).toEqual([['operation-log', ['GET /operation-logs/paging']]]);
    const root = await h.accessToken(SUPER_ADMIN_ID);
    for (const [method, path] of [
      ['DELETE', '/operation-logs/1'],
      ['POST', '/operation-logs/clear'],
      ['DELETE', '/operation-logs'],
    ] as const) {
      expect((await h.call(method, path, { token: root })).body.code, `${method} ${path}`).toBe(404);
    }

    // Paging and filters.
    const { login, file } = await auditRecords(h);
    const auditor = await adminWith(h, ['operation-log'], 'auditor');
    h.clock.set(local(2026, 6, 1, 12, 0));
    await h.call('DELETE', `/login-logs/${login}`, { token: root });
    h.clock.set(local(2026, 6, 2, 12, 0));
    await h.call('DELETE', `/storage-logs/${file}`, { token: root });
    const user = await h.createUser({ username: 'walker', type: 'user' });
    const web2 = await insertAsset(h.db, { name: 'web-2' });
    h.clock.set(local(2026, 6, 3, 12, 0));
    expect((await h.call('POST', '/sessions', { token: await h.accessToken(user), query: { assetId: web2, mode: 'native' } })).body.code).toBe(-1);

    expect((await operations(h, auditor.token)).items.map((e) => e.action)).toEqual(['session-create', 'storage-log-delete', 'login-log-delete']);
    expect((await operations(h, auditor.token, { order: 'ascend', field: 'created' })).items.map((e) => e.action)).toEqual(['login-log-delete', 'storage-log-delete', 'session-create']);
    expect((await operations(h, auditor.token, { pageSize: '1', pageIndex: '2' })).items.map((e) => e.action)).toEqual(['storage-log-delete']);
    expect((await operations(h, auditor.token, { result: 'refused' })).items.map((e) => e.username)).toEqual(['walker']);
    expect((await operations(h, auditor.token, { result: 'success', username: 'adm' })).total).toBe(2);
    expect((await operations(h, auditor.token, { action: 'login-log-delete' })).total).toBe(1);
    expect((await operations(h, auditor.token, { from: '2026-06-02 00:00:00', to: '2026-06-02 23:59:59' })).items.map((e) => e.action)).toEqual(['storage-log-delete']);
    expect((await operations(h, auditor.token, { clientIp: '127.0' })).total).toBe(3);
    expect((await h.call('GET', '/operation-logs/paging', { token: auditor.token, query: { action: 'drop' } })).body.code).toBe(400);
    expect((await h.call('GET', '/operation-logs/paging', { token: auditor.token, query: { result: 'maybe' } })).body.code).toBe(400);
    // Without the key: refused.
    const other = await adminWith(h, ['login-log'], 'other');
    expect((await h.call('GET', '/operation-logs/paging', { token: other.token })).body).toEqual({ code: 403, message: 'permission denied' });
  });
});

describe('refused operations are on record', () => {
  it('POST /sessions refused by the access rule: the same answer, and an event with the reason', async () => {
    const h = await startHarness();
    const root = await h.accessToken(SUPER_ADMIN_ID);
    const walker = await h.createUser({ username: 'walker', type: 'user' });
    const token = await h.accessToken(walker);
    const web = await insertAsset(h.db, { name: 'web-1' });
    const open = (assetId: string) => h.call('POST', '/sessions', { token, query: { assetId, mode: 'native' } });
    const refusedEvents = async () => (await operations(h, root, { result: 'refused' })).items.map((e) => [e.action, e.target, e.reason, e.username, e.count]);

    h.clock.set(local(2026, 7, 1, 12, 0));
    expect((await open(web)).body).toEqual({ code: -1, message: '您没有权限访问此资产' });
    expect(await refusedEvents()).toEqual([['session-create', 'web-1 (native)', 'no-grant', 'walker', 1]]);
    expect(await h.db.selectFrom('sessions').select('id').execute()).toEqual([]);

    const grant = (validFrom: number | null, validUntil: number | null) =>
      h.db
        .insertInto('authorised')
        .values({ id: uuid(), assetId: web, userId: walker, userGroupId: null, strategyId: null, commandFilterId: null, validFrom, validUntil, created: h.clock.now() })
        .execute();
    await grant(local(2026, 8, 1), null);
    h.clock.advance(1);
    expect((await open(web)).body.code).toBe(-1);
    await h.db.deleteFrom('authorised').execute();
    await grant(null, local(2026, 6, 1));
    h.clock.advance(1);
    expect((await open(web)).body.code).toBe(-1);
    h.clock.advance(1);
    expect((await open('no-such-asset')).body.code).toBe(-1);
    expect((await refusedEvents()).map(([, target, reason]) => [target, reason])).toEqual([
      ['no-such-asset (native)', 'asset-missing'],
      ['web-1 (native)', 'grant-expired'],
      ['web-1 (native)', 'grant-pending'],
      ['web-1 (native)', 'no-grant'],
    ]);

    // An allowed session is not an operation event.
    await h.db.deleteFrom('authorised').execute();
    await grant(null, null);
    expect((await open(web)).body.code).toBe(1);
    expect((await operations(h, root)).total).toBe(4);
  });

  it('a file operation the strategy forbids: 禁止操作 as before, an event naming the asset and path, nothing in the file log', async () => {
    const h = await startHarness();
    const root = await h.accessToken(SUPER_ADMIN_ID);
    const walker = await h.createUser({ username: 'walker', type: 'user' });
    const token = await h.accessToken(walker);
    const web = await insertAsset(h.db, { name: 'web-1' });
    // The session's flags are its strategy's at creation: this one allowed nothing. (Refused before the live check,
    // so no SSH connection is needed.)
    const none = { upload: 0, download: 0, delete: 0, rename: 0, edit: 0, createDir: 0 };
    const row = sessionRow({ assetId: web, creator: walker, status: 'connected', ...none });
    await h.db.insertInto('sessions').values(row).execute();
    const s = row.id;
    const forbidden = { code: -1, message: '禁止操作' };
    const B = 'opBoundary';
    const upload = Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="file"; filename="evil.sh"\r\nContent-Type: application/octet-stream\r\n\r\nx\r\n--${B}--\r\n`);

    expect((await h.call('GET', `/sessions/${s}/download`, { token, query: { file: '/etc/shadow' } })).body).toEqual(forbidden);
    expect((await h.call('POST', `/sessions/${s}/upload`, { token, query: { dir: '/tmp' }, raw: upload, contentType: `multipart/form-data; boundary=${B}` })).body).toEqual(forbidden);
    expect((await h.call('POST', `/sessions/${s}/rm`, { token, body: { file: '/var/log/auth.log' } })).body).toEqual(forbidden);
    expect((await h.call('POST', `/sessions/${s}/rename`, { token, query: { oldName: '/a', newName: '/b' } })).body).toEqual(forbidden);
    expect((await h.call('POST', `/sessions/${s}/mkdir`, { token, query: { dir: '/tmp/new' } })).body).toEqual(forbidden);
    expect((await h.call('POST', `/sessions/${s}/edit`, { token, body: { file: '/etc/motd', fileContent: 'x' } })).body).toEqual(forbidden);
    // A listing has no flag: not an operation event (the session is not running here: 会话已离线).
    expect((await h.call('POST', `/sessions/${s}/ls`, { token, body: { dir: '/' } })).body.code).toBe(-1);

    const events = (await operations(h, root)).items;
    expect(events.map((e) => [e.action, e.target, e.result, e.reason, e.username, e.userId]).reverse()).toEqual([
      ['file-download', 'web-1:/etc/shadow', 'refused', 'strategy', 'walker', walker],
      ['file-upload', 'web-1:/tmp/evil.sh', 'refused', 'strategy', 'walker', walker],
      ['file-rm', 'web-1:/var/log/auth.log', 'refused', 'strategy', 'walker', walker],
      ['file-rename', 'web-1:/a -> /b', 'refused', 'strategy', 'walker', walker],
      ['file-mkdir', 'web-1:/tmp/new', 'refused', 'strategy', 'walker', walker],
      ['file-edit', 'web-1:/etc/motd', 'refused', 'strategy', 'walker', walker],
    ]);
    expect(events.every((e) => e.clientIp === '127.0.0.1' && e.count === 1)).toBe(true);
    // Refused before it ran: the file log (what moved) has nothing.
    expect(await h.db.selectFrom('storageLogs').select('id').execute()).toEqual([]);
    // Another user's session answers as an unknown one, and is no event of this kind (nothing was asked of a strategy).
    const other = await h.accessToken(await h.createUser({ username: 'other', type: 'user' }));
    expect((await h.call('GET', `/sessions/${s}/download`, { token: other, query: { file: '/etc/shadow' } })).body).toEqual({ code: -1, message: '获取会话失败' });
    expect((await operations(h, root)).total).toBe(6);
  });
});
