import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { SUPER_ADMIN_ID } from '../../server/permissions/effective.ts';
import { defineManifest } from '../../shared/manifest.ts';
import type { TreeMenu } from '../../shared/manifest.ts';
import { DEFAULT_PROPERTIES } from '../../server/seed.ts';
import { ADMIN_PASSWORD, startHarness } from './harness.ts';

const flatten = (nodes: TreeMenu[]): TreeMenu[] => nodes.flatMap((n) => [n, ...flatten(n.children ?? [])]);

describe('GET /branding', () => {
  it('answers the defaults without a token', async () => {
    const h = await startHarness();
    const res = await h.call('GET', '/branding');
    expect(res.body).toEqual({
      code: 1,
      message: 'success',
      data: { name: 'Jumpgate', description: '远程访问堡垒机', copyright: `Copyright © ${new Date().getFullYear()} Jumpgate` },
    });
  });

  it('takes name, description and copyright from the environment', async () => {
    const h = await startHarness({ env: { JUMPGATE_BRAND_NAME: 'Acme', JUMPGATE_BRAND_DESCRIPTION: 'Door', JUMPGATE_BRAND_COPYRIGHT: '(c) Acme' } });
    expect((await h.call('GET', '/branding')).body.data).toEqual({ name: 'Acme', description: 'Door', copyright: '(c) Acme' });
  });
});

describe('GET /menus', () => {
  it("derives the tree from the plugins' manifests, in 1.3.9's order, with zh-CN and en-US titles", async () => {
    const h = await startHarness();
    const token = await h.login('admin', ADMIN_PASSWORD);
    const tree = (await h.call('GET', '/menus', { token })).body.data as TreeMenu[];
    // Only keys some plugin declares: the groups and top-level keys of plugins not built yet are absent.
    expect(tree.map((n) => n.key)).toEqual(['dashboard', 'resource', 'session-audit', 'log-audit', 'ops', 'identity', 'authorised', 'info']);
    const node = (key: string) => tree.find((n) => n.key === key)!;
    expect(node('dashboard')).toEqual({ title: '控制面板', titles: { 'zh-CN': '控制面板', 'en-US': 'Dashboard' }, key: 'dashboard', children: null });
    expect(node('resource')).toMatchObject({ title: '资源管理', titles: { 'zh-CN': '资源管理', 'en-US': expect.any(String) } });
    expect(node('resource').children!.map((n) => n.key)).toEqual(['asset', 'credential', 'command', 'access-gateway']);
    expect(node('session-audit').children!.map((n) => n.key)).toEqual(['online-session', 'offline-session']);
    expect(node('log-audit').children!.map((n) => n.key)).toEqual(['login-log', 'storage-log', 'operation-log']);
    expect(node('ops').children!.map((n) => n.key)).toEqual(['monitoring']);
    expect(node('identity')).toMatchObject({ title: '用户管理', titles: { 'zh-CN': '用户管理', 'en-US': 'User management' } });
    expect(node('authorised').children!.map((n) => n.key)).toEqual(['authorisation', 'strategy']);
    expect(node('authorised').children![1]!.children!.map((n) => n.key)).toEqual(['strategy-add', 'strategy-edit', 'strategy-del', 'strategy-detail']);
    expect(node('info')).toEqual({ title: '个人中心', titles: { 'zh-CN': '个人中心', 'en-US': 'My account' }, key: 'info', children: null });
    expect(node('identity').children!.map((n) => n.key)).toEqual(['user', 'role', 'user-group']);
    expect(node('identity').children![0]!.children!.map((n) => n.key)).toEqual([
      'user-add', 'user-del', 'user-edit', 'user-change-password', 'user-enable-disable', 'user-reset-totp', 'user-detail',
    ]);
    const all = flatten(tree);
    expect(all.map((n) => n.key)).toEqual(h.catalogue.keys);
    for (const n of all) {
      // `destructive: true` only on the keys that delete audit records (no built-in role holds them).
      const destructive = h.catalogue.destructiveKeys().includes(n.key);
      expect(Object.keys(n).sort()).toEqual(destructive ? ['children', 'destructive', 'key', 'title', 'titles'] : ['children', 'key', 'title', 'titles']);
      if (destructive) expect((n as { destructive?: unknown }).destructive).toBe(true);
      expect(n.title).toBe(n.titles['zh-CN']);
      expect(n.titles['en-US']).toMatch(/^[A-Za-z]/);
      if (n.children) expect(n.children.length).toBeGreaterThan(0);
    }
  });
});

describe('first start', () => {
  it('creates admin with the configured password, the default roles and properties', async () => {
    const h = await startHarness({ adminPassword: 'From-Env-123' });
    expect(h.seeded.generatedAdminPassword).toBeUndefined();
    expect((await h.call('POST', '/login', { body: { username: 'admin', password: 'admin' } })).body.code).toBe(-1);
    await h.login('admin', 'From-Env-123');

    const admin = await h.db.selectFrom('users').selectAll().where('id', '=', SUPER_ADMIN_ID).executeTakeFirstOrThrow();
    expect(admin).toMatchObject({ username: 'admin', nickname: '超级管理员', type: 'admin', status: 'enabled' });

    const roles = await h.db.selectFrom('roles').selectAll().orderBy('id').execute();
    expect(roles.map((r) => [r.id, r.type, r.deletable, r.modifiable])).toEqual([
      ['audit-administrator', 'default', 0, 0],
      ['security-administrator', 'default', 0, 0],
      ['system-administrator', 'default', 0, 0],
    ]);
    const menusOf = async (roleId: string) => (await h.db.selectFrom('rolesMenusRef').select('menuId').where('roleId', '=', roleId).execute()).map((r) => r.menuId).sort();
    // Built-in roles hold the keys of the installed plugins: every key; the auditor the dashboard and everything under
    // 会话审计 and 日志审计 (1.3.9 forgot the session-audit group, quirk 9); the security subtree is empty until its
    // plugin exists. None holds a destructive key (deleting audit records): only the super admin does.
    const destructive = h.catalogue.destructiveKeys();
    expect(destructive).toEqual(expect.arrayContaining(['offline-session-del', 'offline-session-clear', 'login-log-del', 'login-log-clear', 'storage-log-del', 'storage-log-clear']));
    const less = (keys: Iterable<string>) => [...keys].filter((k) => !destructive.includes(k)).sort();
    expect(await menusOf('system-administrator')).toEqual(less(h.catalogue.keys));
    expect(await menusOf('security-administrator')).toEqual([]);
    const audit = await menusOf('audit-administrator');
    expect(audit).toEqual(less(['dashboard', ...h.catalogue.withDescendants(['session-audit', 'log-audit'])]));
    expect(audit).toEqual(expect.arrayContaining(['session-audit', 'online-session-monitor', 'offline-session-playback', 'login-log', 'operation-log']));
    expect(audit).not.toContain('storage-log-del');
    expect(audit).not.toContain('monitoring');

    const props = Object.fromEntries((await h.db.selectFrom('properties').selectAll().execute()).map((p) => [p.name, p.value]));
    expect(props).toEqual(DEFAULT_PROPERTIES);
  });

  it("gives the built-in roles the keys of newly installed plugins under their groups", async () => {
    const audit = defineManifest({
      id: 'audit-fixture',
      menus: [
        { key: 'session-share', group: 'session-audit', label: { 'zh-CN': '会话分享', 'en-US': 'Shared sessions' } },
        { key: 'access-security', group: 'security', label: { 'zh-CN': '访问安全', 'en-US': 'Access security' } },
      ],
      actions: [{ key: 'session-share-revoke', parent: 'session-share', label: { 'zh-CN': '撤销', 'en-US': 'Revoke' } }],
    });
    const h = await startHarness({ manifests: [audit] });
    const menusOf = async (roleId: string) => (await h.db.selectFrom('rolesMenusRef').select('menuId').where('roleId', '=', roleId).execute()).map((r) => r.menuId).sort();
    expect(await menusOf('audit-administrator')).toEqual(expect.arrayContaining(['session-share', 'session-share-revoke', 'session-audit']));
    expect(await menusOf('audit-administrator')).not.toContain('access-security');
    expect(await menusOf('security-administrator')).toEqual(['access-security', 'security']);
    expect(await menusOf('system-administrator')).toContain('session-share-revoke');
  });

  it('generates a strong password when none is configured, and never uses admin/admin', async () => {
    const h = await startHarness({ adminPassword: null });
    const pw = h.seeded.generatedAdminPassword!;
    expect(pw).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect((await h.call('POST', '/login', { body: { username: 'admin', password: 'admin' } })).body.code).toBe(-1);
    await h.login('admin', pw);
  });

  it('is idempotent: a restart keeps the password, properties that were changed, and nothing is printed again', async () => {
    const h = await startHarness();
    // A page whose destructive actions a built-in role lacks is stored half-checked (seed's roleRefs), by design.
    const unchecked = () => h.db.selectFrom('rolesMenusRef').select('id').where('checked', '=', 0).orderBy('id').execute();
    const halfChecked = await unchecked();
    await h.db.updateTable('properties').set({ value: '30' }).where('name', '=', 'login-log-saved-limit').execute();
    await h.db.updateTable('rolesMenusRef').set({ checked: 0 }).where('roleId', '=', 'system-administrator').execute();
    await h.restart();
    expect(h.seeded.generatedAdminPassword).toBeUndefined();
    const p = await h.db.selectFrom('properties').select('value').where('name', '=', 'login-log-saved-limit').executeTakeFirstOrThrow();
    expect(p.value).toBe('30');
    // Built-in roles are forced back to their definition.
    expect(await unchecked()).toEqual(halfChecked);
    expect((await h.db.selectFrom('users').select('id').execute()).length).toBe(1);
  });

  it('gives the first admin the system administrator role, and never grants roles to other admins at start', async () => {
    const h = await startHarness();
    const admin = await h.db.selectFrom('usersRolesRef').select('roleId').where('userId', '=', SUPER_ADMIN_ID).execute();
    expect(admin).toEqual([{ roleId: 'system-administrator' }]);
    // 1.3.9 made every role-less admin a system administrator at each start: deleting a role escalated its admins.
    const id = await h.createUser({ username: 'lonely', type: 'admin' });
    await h.restart();
    const refs = await h.db.selectFrom('usersRolesRef').select('roleId').where('userId', '=', id).execute();
    expect(refs).toEqual([]);
  });
});

describe('security headers', () => {
  it('are on API answers, errors, 404s and the console', async () => {
    const h = await startHarness();
    for (const [method, url] of [['GET', '/branding'], ['GET', '/nope'], ['PUT', '/branding'], ['GET', '/account/info'], ['GET', '/']] as const) {
      const res = await h.call(method, url);
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      const csp = String(res.headers['content-security-policy']);
      for (const part of ["default-src 'self'", "script-src 'self'", "style-src 'self' 'unsafe-inline'", "img-src 'self' data:", "frame-ancestors 'none'"]) {
        expect(csp).toContain(part);
      }
      expect(csp).toMatch(/connect-src 'self' ws:\/\/localhost:80 wss:\/\/localhost:80(;|$)/);
    }
  });

  it("CSP connect-src allows this origin only (its own ws/wss), never any host's WebSocket", async () => {
    const h = await startHarness();
    const connectSrc = async (host: string) => {
      const csp = String((await h.call('GET', '/branding', { headers: { host } })).headers['content-security-policy']);
      expect(csp).not.toMatch(/(^|\s)wss?:(\s|;|$)/); // no bare scheme source
      return /connect-src ([^;]*)/.exec(csp)?.[1];
    };
    expect(await connectSrc('jump.example.com:8443')).toBe("'self' ws://jump.example.com:8443 wss://jump.example.com:8443");
    expect(await connectSrc('[::1]:8088')).toBe("'self' ws://[::1]:8088 wss://[::1]:8088");
    // A Host that is not a plain host[:port] never reaches the header.
    for (const bad of ['evil.example; script-src *', 'a b', 'x/y', '*']) expect(await connectSrc(bad), bad).toBe("'self'");
    const injected = String((await h.call('GET', '/branding', { headers: { host: 'evil.example; script-src *' } })).headers['content-security-policy']);
    expect(injected).not.toContain('script-src *');
  });
});

describe('static console', () => {
  const dist = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jumpgate-dist-'));
    fs.mkdirSync(path.join(dir, 'static'));
    fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>jg</title><script type="module" src="/static/index-abc.js"></script>');
    fs.writeFileSync(path.join(dir, 'static', 'index-abc.js'), 'console.log(1)');
    return dir;
  };

  it('serves index.html with no-cache (quirk 30) and /static/* immutable for a year', async () => {
    const distDir = dist();
    const h = await startHarness({ distDir });
    const index = await h.call('GET', '/');
    expect(index.status).toBe(200);
    expect(index.headers['content-type']).toMatch(/^text\/html/);
    expect(index.headers['cache-control']).toBe('no-cache');
    expect(index.text).toContain('<title>jg</title>');

    const js = await h.call('GET', '/static/index-abc.js');
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toMatch(/javascript/);
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(js.text).toBe('console.log(1)');

    const missing = await h.call('GET', '/static/nope.js');
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toMatch(/^text\/plain/);
    expect(missing.text).toBe('Not Found\n');
    expect((await h.call('GET', '/static/../index.html')).text).not.toContain('<title>jg</title>');
    fs.rmSync(distDir, { recursive: true, force: true });
  });

  it('static paths answer real HTTP statuses, never the API envelope', async () => {
    const distDir = dist();
    fs.writeFileSync(path.join(distDir, 'static', '.env'), 'SECRET=1');
    const h = await startHarness({ distDir });
    const cases: [string, string, number][] = [
      ['GET', '/static/', 403], // a folder: forbidden (was HTTP 200 with body 403)
      ['GET', '/static/.env', 404], // dot files are not served
      ['GET', '/static/nope.js', 404],
      ['GET', '/static/%E0%A4%A', 400],
      ['POST', '/static/index-abc.js', 405], // was a 404 envelope
      ['DELETE', '/', 405],
      ['PUT', '/favicon.ico', 405],
    ];
    for (const [method, url, status] of cases) {
      const res = await h.call(method, url);
      expect(res.status, `${method} ${url}`).toBe(status);
      expect(res.headers['content-type'], `${method} ${url}`).toMatch(/^text\/plain/);
      expect(res.body, `${method} ${url}`).toBeUndefined(); // not JSON
      if (status === 405) expect(res.headers.allow).toBe('GET, HEAD');
    }
    fs.rmSync(distDir, { recursive: true, force: true });
  });

  it('sends the pre-compressed copy the browser accepts, the plain file otherwise', async () => {
    const distDir = dist();
    const source = `export const text = ${JSON.stringify('jumpgate '.repeat(400))};`;
    const file = path.join(distDir, 'static', 'vendor-abc.js');
    fs.writeFileSync(file, source);
    fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(source));
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(source));
    const h = await startHarness({ distDir });

    const br = await h.call('GET', '/static/vendor-abc.js', { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Number(br.headers['content-length'])).toBe(fs.statSync(`${file}.br`).size);

    const gz = await h.call('GET', '/static/vendor-abc.js', { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(Number(gz.headers['content-length'])).toBe(fs.statSync(`${file}.gz`).size);

    const plain = await h.call('GET', '/static/vendor-abc.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.text).toBe(source);
    fs.rmSync(distDir, { recursive: true, force: true });
  });

  it("writes the branding into index.html for its prerendered login page, allows the inline boot by its hash only, and compresses it", async () => {
    const distDir = dist();
    const boot = 'document.title="boot";';
    fs.writeFileSync(
      path.join(distDir, 'index.html'),
      `<!doctype html><title>jg</title><div id="first-screen" hidden></div><!--jumpgate:branding--><script id="jumpgate-boot">${boot}</script><div id="root"></div>`,
    );
    // A brand that tries to close the script element and start markup of its own.
    const name = 'Acme</script><script>alert(1)</script> & <!-- \u2028';
    const h = await startHarness({ distDir, env: { JUMPGATE_BRAND_NAME: name, JUMPGATE_BRAND_DESCRIPTION: '堡垒机' } });
    const plain = await h.app.inject({ method: 'GET', url: '/' });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const html = plain.body;
    const json = /<script type="application\/json" id="jumpgate-branding">(.*?)<\/script>/s.exec(html)?.[1];
    expect(json).toBeDefined();
    expect(json).not.toMatch(/[<>&]/);
    // Exactly what GET /branding answers.
    expect(JSON.parse(json ?? '')).toEqual((await h.call('GET', '/branding')).body);
    expect(JSON.parse(json ?? '').data).toMatchObject({ name, description: '堡垒机' });
    expect(html.match(/<script/g)).toHaveLength(2); // the data block and the boot, nothing injected

    const csp = String(plain.headers['content-security-policy']);
    const hash = `'sha256-${crypto.createHash('sha256').update(boot).digest('base64')}'`;
    expect(csp).toContain(`script-src 'self' ${hash};`);
    expect(/script-src ([^;]*)/.exec(csp)?.[1]).toBe(`'self' ${hash}`);
    // Other answers keep the plain policy.
    expect(String((await h.call('GET', '/branding')).headers['content-security-policy'])).toContain("script-src 'self';");

    const br = await h.app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe('no-cache');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(html);
    const gz = await h.app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString('utf8')).toBe(html);

    // A rebuild shows at once (no restart), with the new boot's hash.
    fs.writeFileSync(path.join(distDir, 'index.html'), '<!doctype html><title>jg2</title><script id="jumpgate-boot">x()</script>');
    const next = await h.app.inject({ method: 'GET', url: '/' });
    expect(next.body).toContain('jg2');
    expect(String(next.headers['content-security-policy'])).toContain(`'sha256-${crypto.createHash('sha256').update('x()').digest('base64')}'`);
    fs.rmSync(distDir, { recursive: true, force: true });
  });

  it('answers a plain explanation when the console is not built', async () => {
    const h = await startHarness();
    const res = await h.call('GET', '/');
    expect(res.status).toBe(503);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.text).toContain('not built');
    expect((await h.call('GET', '/static/index.js')).status).toBe(404);
  });
});
