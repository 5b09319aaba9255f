import { defineManifest, type KeyMap } from '@/shared/manifest';

// The 授权 group: every grant in one list (资产授权: who reaches which asset, under which strategy, when), and the
// authorisation strategies (授权策略: what a grant lets its holder do with files and the clipboard).
const manifest = defineManifest({
  id: 'strategy',
  // The labels (labelKey) are strings of locales/<lng>/strategy.json, which the server reads from here.
  locales: import.meta.url,
  menus: [
    {
      key: 'authorisation',
      group: 'authorised',
      order: 1,
      labelKey: 'grants.nav',
      grants: ['GET /authorised/paging', 'GET /authorised/explain', 'GET /user-groups/:id'],
    },
    { key: 'strategy', group: 'authorised', order: 2, labelKey: 'nav.label', grants: ['GET /strategies/paging', 'GET /strategies'] },
  ],
  actions: [
    {
      key: 'authorisation-add',
      parent: 'authorisation',
      label: { 'zh-CN': '授权', 'en-US': 'Grant' },
      grants: ['POST /authorised/bulk', 'GET /users', 'GET /user-groups', 'GET /assets', 'GET /strategies'],
    },
    { key: 'authorisation-del', parent: 'authorisation', label: { 'zh-CN': '移除授权', 'en-US': 'Remove authorisation' }, grants: ['DELETE /authorised/:id'] },
    { key: 'strategy-add', parent: 'strategy', label: { 'zh-CN': '增加', 'en-US': 'Add' }, grants: ['POST /strategies'] },
    { key: 'strategy-edit', parent: 'strategy', label: { 'zh-CN': '修改', 'en-US': 'Edit' }, grants: ['GET /strategies/:id', 'PUT /strategies/:id'] },
    { key: 'strategy-del', parent: 'strategy', label: { 'zh-CN': '删除', 'en-US': 'Delete' }, grants: ['DELETE /strategies/:id'] },
    { key: 'strategy-detail', parent: 'strategy', label: { 'zh-CN': '详情', 'en-US': 'Details' }, grants: ['GET /strategies/:id'] },
  ],
});
export default manifest;

declare module '@/shared/manifest' {
  interface PermissionKeys extends KeyMap<typeof manifest> {}
}
