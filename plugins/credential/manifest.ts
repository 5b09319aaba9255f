import { defineManifest, type KeyMap } from '@/shared/manifest';

// Credentials (group 资源管理): reusable accounts for assets. Changing a credential's owner has no key: as in 1.3.9,
// only the super admin may (POST /credentials/:id/change-owner).
const manifest = defineManifest({
  id: 'credential',
  // The labels (labelKey) are strings of locales/<lng>/credential.json, which the server reads from here.
  locales: import.meta.url,
  menus: [{ key: 'credential', group: 'resource', order: 2, labelKey: 'nav.label', grants: ['GET /credentials/paging'] }],
  actions: [
    { key: 'credential-add', parent: 'credential', label: { 'zh-CN': '增加', 'en-US': 'Add' }, grants: ['POST /credentials'] },
    { key: 'credential-del', parent: 'credential', label: { 'zh-CN': '删除', 'en-US': 'Delete' }, grants: ['DELETE /credentials/:id'] },
    { key: 'credential-edit', parent: 'credential', label: { 'zh-CN': '修改', 'en-US': 'Edit' }, grants: ['GET /credentials/:id', 'PUT /credentials/:id'] },
  ],
});
export default manifest;

declare module '@/shared/manifest' {
  interface PermissionKeys extends KeyMap<typeof manifest> {}
}
