import { defineManifest, type KeyMap } from '@/shared/manifest';

// The asset plugin's permission keys: assets, dynamic commands and access gateways (group 资源管理), their actions,
// and the server routes each grants, method included. Keys of modules not built yet (command-exec)
// are declared by the issues that build them.
const manifest = defineManifest({
  id: 'asset',
  // The labels (labelKey) are strings of locales/<lng>/asset.json, which the server reads from here.
  locales: import.meta.url,
  menus: [
    { key: 'asset', group: 'resource', order: 1, labelKey: 'nav.asset', grants: ['GET /assets/paging', 'GET /tags', 'GET /assets/export'] },
    { key: 'command', group: 'resource', order: 3, labelKey: 'nav.command', grants: ['GET /commands/paging', 'GET /commands'] },
    {
      key: 'access-gateway',
      group: 'resource',
      order: 4,
      labelKey: 'nav.accessGateway',
      grants: ['GET /access-gateways/paging', 'POST /access-gateways/:id/reconnect'],
    },
  ],
  actions: [
    { key: 'asset-add', parent: 'asset', label: { 'zh-CN': '新建', 'en-US': 'Create' }, grants: ['POST /assets', 'GET /assets', 'GET /tags', 'GET /access-gateways', 'GET /credentials'] },
    { key: 'asset-edit', parent: 'asset', label: { 'zh-CN': '编辑', 'en-US': 'Edit' }, grants: ['GET /assets/:id', 'PUT /assets/:id', 'GET /tags', 'GET /access-gateways', 'GET /credentials', 'POST /assets/:id/trust-host-key'] },
    // Opening a terminal is decided by the access rule (POST /sessions is open to every signed-in account): the key
    // only shows the connect action in the asset list.
    { key: 'asset-access', parent: 'asset', label: { 'zh-CN': '接入', 'en-US': 'Connect' } },
    { key: 'asset-del', parent: 'asset', label: { 'zh-CN': '删除', 'en-US': 'Delete' }, grants: ['DELETE /assets/:id'] },
    { key: 'asset-copy', parent: 'asset', label: { 'zh-CN': '复制', 'en-US': 'Copy' }, grants: ['GET /assets/:id', 'POST /assets', 'GET /assets', 'GET /tags', 'GET /access-gateways', 'GET /credentials'] },
    { key: 'asset-conn-test', parent: 'asset', label: { 'zh-CN': '连通性测试', 'en-US': 'Connectivity test' }, grants: ['POST /assets/:id/tcping', 'POST /assets/tcping'] },
    { key: 'asset-import', parent: 'asset', label: { 'zh-CN': '导入资产', 'en-US': 'Import assets' }, grants: ['POST /assets/import'] },
    { key: 'asset-change-owner', parent: 'asset', label: { 'zh-CN': '更换所有者', 'en-US': 'Change owner' }, grants: ['GET /users', 'POST /assets/:id/change-owner'] },
    { key: 'asset-detail', parent: 'asset', label: { 'zh-CN': '详情', 'en-US': 'Details' }, grants: ['GET /assets/:id'] },
    {
      key: 'asset-authorised-user',
      parent: 'asset-detail',
      label: { 'zh-CN': '资产授权用户', 'en-US': 'Users authorised on this asset' },
      grants: ['GET /authorised/users/paging', 'GET /authorised/selected', 'GET /users', 'GET /authorised/explain', 'GET /strategies'],
    },
    { key: 'asset-authorised-user-add', parent: 'asset-authorised-user', label: { 'zh-CN': '增加授权', 'en-US': 'Add authorisation' }, grants: ['POST /authorised/users'] },
    { key: 'asset-authorised-user-del', parent: 'asset-authorised-user', label: { 'zh-CN': '移除授权', 'en-US': 'Remove authorisation' }, grants: ['DELETE /authorised/:id'] },
    {
      key: 'asset-authorised-user-group',
      parent: 'asset-detail',
      label: { 'zh-CN': '资产授权用户组', 'en-US': 'User groups authorised on this asset' },
      grants: ['GET /authorised/user-groups/paging', 'GET /authorised/selected', 'GET /user-groups', 'GET /authorised/explain', 'GET /strategies'],
    },
    { key: 'asset-authorised-user-group-add', parent: 'asset-authorised-user-group', label: { 'zh-CN': '增加授权', 'en-US': 'Add authorisation' }, grants: ['POST /authorised/user-groups'] },
    { key: 'asset-authorised-user-group-del', parent: 'asset-authorised-user-group', label: { 'zh-CN': '移除授权', 'en-US': 'Remove authorisation' }, grants: ['DELETE /authorised/:id'] },
    { key: 'command-add', parent: 'command', label: { 'zh-CN': '增加', 'en-US': 'Add' }, grants: ['POST /commands'] },
    { key: 'command-edit', parent: 'command', label: { 'zh-CN': '修改', 'en-US': 'Edit' }, grants: ['GET /commands/:id', 'PUT /commands/:id'] },
    { key: 'command-del', parent: 'command', label: { 'zh-CN': '删除', 'en-US': 'Delete' }, grants: ['DELETE /commands/:id'] },
    { key: 'command-change-owner', parent: 'command', label: { 'zh-CN': '更换所有者', 'en-US': 'Change owner' }, grants: ['GET /users', 'POST /commands/:id/change-owner'] },
    { key: 'access-gateway-add', parent: 'access-gateway', label: { 'zh-CN': '增加', 'en-US': 'Add' }, grants: ['POST /access-gateways'] },
    { key: 'access-gateway-del', parent: 'access-gateway', label: { 'zh-CN': '删除', 'en-US': 'Delete' }, grants: ['DELETE /access-gateways/:id'] },
    { key: 'access-gateway-edit', parent: 'access-gateway', label: { 'zh-CN': '修改', 'en-US': 'Edit' }, grants: ['GET /access-gateways/:id', 'PUT /access-gateways/:id', 'POST /access-gateways/:id/trust-host-key'] },
  ],
});
export default manifest;

declare module '@/shared/manifest' {
  interface PermissionKeys extends KeyMap<typeof manifest> {}
}
