import { defineManifest, type KeyMap } from '@/core/manifest';

// Authorisation strategies (group 授权策略): what a grant lets its holder do with files and the clipboard.
const manifest = defineManifest({
  id: 'strategy',
  menus: [{ key: 'strategy', group: 'authorised', order: 2, label: { 'zh-CN': '授权策略', 'en-US': 'Authorisation strategies' }, grants: ['GET /strategies/paging', 'GET /strategies'] }],
  actions: [
    { key: 'strategy-add', parent: 'strategy', label: { 'zh-CN': '增加', 'en-US': 'Add' }, grants: ['POST /strategies'] },
    { key: 'strategy-edit', parent: 'strategy', label: { 'zh-CN': '修改', 'en-US': 'Edit' }, grants: ['GET /strategies/:id', 'PUT /strategies/:id'] },
    { key: 'strategy-del', parent: 'strategy', label: { 'zh-CN': '删除', 'en-US': 'Delete' }, grants: ['DELETE /strategies/:id'] },
    { key: 'strategy-detail', parent: 'strategy', label: { 'zh-CN': '详情', 'en-US': 'Details' }, grants: ['GET /strategies/:id'] },
  ],
});
export default manifest;

declare module '@/core/manifest' {
  interface PermissionKeys extends KeyMap<typeof manifest> {}
}
