// docs/PLUGINS.md, server half: the walkthrough's manifest and server module, extracted as written, run in the real
// server; a role is given the guide's keys through the role endpoint and its holder passes exactly those gates.
import { afterAll, describe, expect, it } from 'vitest';
import type { PluginManifest, TreeMenu } from '../../shared/manifest.ts';
import type { Module } from '../../server/http/routes.ts';
import { SUPER_ADMIN_ID } from '../../server/permissions/effective.ts';
import { extractGuide, linkServer } from '../guide/extract.ts';
import { startHarness } from './harness.ts';

const guide = extractGuide();
linkServer(guide);
afterAll(() => guide.remove());

describe('docs/PLUGINS.md walkthrough on the server', () => {
  it("is listed by GET /menus, granted to a role, and gates the guide's routes by its keys", async () => {
    const id = guide.pluginId;
    const manifest = ((await import(/* @vite-ignore */ guide.at(`plugins/${id}/manifest.ts`))) as { default: PluginManifest }).default;
    const module = ((await import(/* @vite-ignore */ guide.at(`server/modules/${id}/index.ts`))) as { default: Module }).default;
    const h = await startHarness({ manifests: [manifest], modules: [module] });
    const root = await h.accessToken(SUPER_ADMIN_ID);

    const tree = (await h.call('GET', '/menus', { token: root })).body.data as TreeMenu[];
    const page = tree.find((n) => n.key === 'ops')?.children?.find((n) => n.key === 'announcement');
    expect(page).toMatchObject({ title: '系统公告', titles: { 'zh-CN': '系统公告', 'en-US': 'Announcements' } });
    expect(page?.children?.map((n) => [n.key, n.title])).toEqual([
      ['announcement-detail', '详情'],
      ['announcement-del', '删除'],
    ]);

    const created = await h.call('POST', '/roles', {
      token: root,
      body: { name: 'announcer', menus: [{ menuId: 'ops', checked: false }, { menuId: 'announcement', checked: false }, { menuId: 'announcement-del', checked: true }] },
    });
    expect(created.body).toMatchObject({ code: 1 });
    const role = (await h.db.selectFrom('roles').select('id').where('name', '=', 'announcer').executeTakeFirstOrThrow()).id;
    const holder = await h.createUser({ username: 'ann', type: 'admin', roles: [role] });
    const token = await h.accessToken(holder);

    expect((await h.call('GET', '/announcements/paging', { token, query: { pageIndex: '1', pageSize: '10' } })).body).toMatchObject({ code: 1, data: { total: 2 } });
    expect((await h.call('GET', '/announcements/a1', { token })).body).toEqual({ code: 403, message: 'permission denied' });
    expect((await h.call('DELETE', '/announcements/a1', { token })).body).toMatchObject({ code: 1 });
    expect((await h.call('GET', '/announcements/paging', { token })).body).toMatchObject({ data: { total: 1 } });
  });
});
