import { defineManifest, type KeyMap } from '@/shared/manifest';

// Identity's permission keys: its pages, their actions, labels, and the server routes each grants.
// React-free data: the server reads it at start (GET /menus, role checks, route gates), the console types its gates with it.
const manifest = defineManifest({
  id: 'identity',
  // The labels (labelKey) are strings of locales/<lng>/identity.json, which the server reads from here.
  locales: import.meta.url,
  menus: [
    { key: 'user', group: 'identity', order: 1, labelKey: 'nav.user', grants: ['GET /users/paging', 'GET /users'] },
    { key: 'role', group: 'identity', order: 2, labelKey: 'nav.role', grants: ['GET /roles/paging', 'GET /roles'] },
    { key: 'user-group', group: 'identity', order: 3, labelKey: 'nav.userGroup', grants: ['GET /user-groups/paging', 'GET /user-groups'] },
  ],
  actions: [
    { key: 'user-add', parent: 'user', label: { 'zh-CN': '增加', 'en-US': 'Add' }, grants: ['POST /users', 'GET /roles'] },
    { key: 'user-del', parent: 'user', label: { 'zh-CN': '删除', 'en-US': 'Delete' }, grants: ['DELETE /users/:id'] },
    { key: 'user-edit', parent: 'user', label: { 'zh-CN': '修改', 'en-US': 'Edit' }, grants: ['GET /users/:id', 'PUT /users/:id', 'GET /roles'] },
    { key: 'user-change-password', parent: 'user', label: { 'zh-CN': '修改密码', 'en-US': 'Change password' }, grants: ['POST /users/:id/change-password'] },
    { key: 'user-enable-disable', parent: 'user', label: { 'zh-CN': '启用/禁用', 'en-US': 'Enable / disable' }, grants: ['PATCH /users/:id/status'] },
    { key: 'user-reset-totp', parent: 'user', label: { 'zh-CN': '重置双因素认证', 'en-US': 'Reset two-factor auth' }, grants: ['POST /users/:id/reset-totp'] },
    { key: 'user-detail', parent: 'user', label: { 'zh-CN': '用户详情', 'en-US': 'User details' }, grants: ['GET /users/:id', 'GET /roles'] },
    { key: 'user-authorised-asset', parent: 'user-detail', label: { 'zh-CN': '授权的资产', 'en-US': 'Authorised assets' }, grants: ['GET /authorised/assets/paging', 'GET /authorised/explain'] },
    { key: 'user-bind-asset', parent: 'user-authorised-asset', label: { 'zh-CN': '授权', 'en-US': 'Grant assets' }, grants: ['POST /authorised/assets', 'GET /authorised/selected', 'GET /assets', 'GET /strategies'] },
    { key: 'user-unbind-asset', parent: 'user-authorised-asset', label: { 'zh-CN': '移除', 'en-US': 'Remove grant' }, grants: ['DELETE /authorised/:id'] },
    { key: 'role-add', parent: 'role', label: { 'zh-CN': '增加', 'en-US': 'Add' }, grants: ['POST /roles', 'GET /menus'] },
    { key: 'role-del', parent: 'role', label: { 'zh-CN': '删除', 'en-US': 'Delete' }, grants: ['DELETE /roles/:id'] },
    { key: 'role-edit', parent: 'role', label: { 'zh-CN': '修改', 'en-US': 'Edit' }, grants: ['GET /roles/:id', 'PUT /roles/:id', 'GET /menus'] },
    { key: 'role-detail', parent: 'role', label: { 'zh-CN': '详情', 'en-US': 'Details' }, grants: ['GET /roles/:id', 'GET /menus'] },
    { key: 'user-group-add', parent: 'user-group', label: { 'zh-CN': '增加', 'en-US': 'Add' }, grants: ['POST /user-groups', 'GET /users'] },
    { key: 'user-group-del', parent: 'user-group', label: { 'zh-CN': '删除', 'en-US': 'Delete' }, grants: ['DELETE /user-groups/:id'] },
    { key: 'user-group-edit', parent: 'user-group', label: { 'zh-CN': '修改', 'en-US': 'Edit' }, grants: ['GET /user-groups/:id', 'PUT /user-groups/:id', 'GET /users'] },
    { key: 'user-group-detail', parent: 'user-group', label: { 'zh-CN': '详情', 'en-US': 'Details' }, grants: ['GET /user-groups/:id'] },
    {
      key: 'user-group-authorised-asset',
      parent: 'user-group',
      label: { 'zh-CN': '授权的资产', 'en-US': 'Authorised assets' },
      grants: ['GET /authorised/assets/paging', 'GET /authorised/explain'],
    },
    { key: 'user-group-bind-asset', parent: 'user-group-authorised-asset', label: { 'zh-CN': '授权', 'en-US': 'Grant assets' }, grants: ['POST /authorised/assets', 'GET /authorised/selected', 'GET /assets', 'GET /strategies'] },
    { key: 'user-group-unbind-asset', parent: 'user-group-authorised-asset', label: { 'zh-CN': '移除', 'en-US': 'Remove grant' }, grants: ['DELETE /authorised/:id'] },
  ],
});
export default manifest;

declare module '@/shared/manifest' {
  interface PermissionKeys extends KeyMap<typeof manifest> {}
}
