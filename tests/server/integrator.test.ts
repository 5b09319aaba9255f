import { describe, expect, it } from 'vitest';
import { defineManifest, type TreeMenu } from '../../shared/manifest.ts';
import { defineModule, route } from '../../server/http/routes.ts';
import { SUPER_ADMIN_ID } from '../../server/permissions/effective.ts';
import reports from '../fixtures/integrator/manifest.ts';
import reportsModule from '../fixtures/integrator/server.ts';
import { startHarness } from './harness.ts';

describe("an integrator's plugin (manifest injected into the real server)", () => {
  it('is listed by GET /menus, can be given to a role, and its holder passes the gates its manifest grants', async () => {
    const h = await startHarness({ manifests: [reports], modules: [reportsModule] });
    const root = await h.accessToken(SUPER_ADMIN_ID);

    // GET /menus lists the new page and both actions, with their labels, under core's `ops` group.
    const tree = (await h.call('GET', '/menus', { token: root })).body.data as TreeMenu[];
    const ops = tree.find((n) => n.key === 'ops')!;
    expect(ops.titles).toEqual({ 'zh-CN': '系统运维', 'en-US': 'Operations' });
    // After the product's own ops pages (系统监控), by its order.
    expect(ops.children!.map((c) => c.key)).toEqual(['monitoring', 'report']);
    expect(ops.children!.find((c) => c.key === 'report')).toEqual(
      {
        title: '运维报表',
        titles: { 'zh-CN': '运维报表', 'en-US': 'Reports' },
        key: 'report',
        children: [
          { title: '导出报表', titles: { 'zh-CN': '导出报表', 'en-US': 'Export report' }, key: 'report-export', children: null },
          { title: '分享报表', titles: { 'zh-CN': '分享报表', 'en-US': 'Share report' }, key: 'report-share', children: null },
        ],
      },
    );
    // Core's group order, then the top-level keys (控制面板 first, 个人中心 last).
    expect(tree.map((n) => n.key)).toEqual(['dashboard', 'resource', 'session-audit', 'log-audit', 'ops', 'identity', 'authorised', 'info']);

    // A role with the page and one action, through the real role endpoint (as the role editor sends it).
    const created = await h.call('POST', '/roles', {
      token: root,
      body: { name: 'reporter', menus: [{ menuId: 'ops', checked: false }, { menuId: 'report', checked: false }, { menuId: 'report-export', checked: true }] },
    });
    expect(created.body).toMatchObject({ code: 1 });
    const role = (await h.db.selectFrom('roles').select('id').where('name', '=', 'reporter').executeTakeFirstOrThrow()).id;
    expect((await h.call('GET', `/roles/${role}`, { token: root })).body.data).toMatchObject({
      menus: [
        { menuId: 'ops', checked: false },
        { menuId: 'report', checked: false },
        { menuId: 'report-export', checked: true },
      ],
    });

    const holder = await h.createUser({ username: 'rita', password: 'rita-pass', type: 'admin', roles: [role] });
    const token = await h.accessToken(holder);
    expect(((await h.call('GET', '/account/info', { token })).body.data as { menus: string[] }).menus).toEqual(['ops', 'report', 'report-export']);
    expect((await h.call('GET', '/reports', { token })).body).toMatchObject({ code: 1, data: [{ id: 'r1', name: 'weekly' }] });
    expect((await h.call('POST', '/reports/export', { token })).body).toMatchObject({ code: 1, data: 'exported' });
    // report-share was not given: its route stays closed.
    expect((await h.call('POST', '/reports/r1/share', { token })).body).toEqual({ code: 403, message: 'permission denied' });

    // Without the manifest, the same keys are unknown to the same server code.
    const plain = await startHarness();
    const refused = await plain.call('POST', '/roles', { token: await plain.accessToken(SUPER_ADMIN_ID), body: { name: 'x', menus: [{ menuId: 'report', checked: true }] } });
    expect(refused.body).toEqual({ code: 400, message: 'menus.0.menuId: unknown menu key "report"' });
  });

  it('refuses to start when a gated route is granted by no manifest key, or a key grants a route nobody declares', async () => {
    const orphan = defineModule('orphan', () => [route({ method: 'GET', path: '/orphan', allow: 'granted', handler: () => null })]);
    await expect(startHarness({ modules: [orphan] })).rejects.toThrow("route GET /orphan is allowed to 'granted' keys, but no plugin manifest grants it");

    const dangling = defineManifest({ id: 'dangling', menus: [{ key: 'dangling', group: 'ops', label: { 'zh-CN': '悬空', 'en-US': 'Dangling' }, grants: ['GET /nowhere'] }] });
    await expect(startHarness({ manifests: [dangling] })).rejects.toThrow(`manifest key(s) dangling grant "GET /nowhere", which no module declares with allow: 'granted'`);

    // A manifest may not grant an open route either: it would look granted while anyone may call it.
    const open = defineManifest({ id: 'open', menus: [{ key: 'open', group: 'ops', label: { 'zh-CN': '开', 'en-US': 'Open' }, grants: ['GET /branding'] }] });
    await expect(startHarness({ manifests: [open] })).rejects.toThrow(/grant "GET \/branding", which no module declares with allow: 'granted'/);

    const clash = defineManifest({ id: 'clash', menus: [{ key: 'user', group: 'ops', label: { 'zh-CN': '冲突', 'en-US': 'Clash' } }] });
    await expect(startHarness({ manifests: [clash] })).rejects.toThrow(/manifest: key "user" is already declared by plugin/);
  });
});
