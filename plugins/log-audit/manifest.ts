import { defineManifest, type KeyMap } from '@/shared/manifest';

// 日志审计: who logged in (and who failed to), what files moved through sessions, and the operation log (deletions of
// audit records, refused sessions and file operations). Deleting audit records is destructive: no built-in role holds
// those keys. The operation log itself has no delete key and no delete route at all.
const manifest = defineManifest({
  id: 'log-audit',
  // The labels (labelKey) are strings of locales/<lng>/log-audit.json, which the server reads from here.
  locales: import.meta.url,
  menus: [
    { key: 'login-log', group: 'log-audit', order: 1, labelKey: 'nav.loginLog', grants: ['GET /login-logs/paging'] },
    // The page's asset and user filters list both.
    {
      key: 'storage-log',
      group: 'log-audit',
      order: 2,
      labelKey: 'nav.storageLog',
      grants: ['GET /storage-logs/paging', 'GET /assets', 'GET /users'],
    },
    { key: 'operation-log', group: 'log-audit', order: 3, labelKey: 'nav.operationLog', grants: ['GET /operation-logs/paging'] },
  ],
  actions: [
    { key: 'login-log-del', parent: 'login-log', label: { 'zh-CN': '删除', 'en-US': 'Delete' }, grants: ['DELETE /login-logs/:id'], destructive: true },
    { key: 'login-log-clear', parent: 'login-log', label: { 'zh-CN': '清空', 'en-US': 'Clear all' }, grants: ['POST /login-logs/clear'], destructive: true },
    { key: 'storage-log-del', parent: 'storage-log', label: { 'zh-CN': '删除', 'en-US': 'Delete' }, grants: ['DELETE /storage-logs/:id'], destructive: true },
    { key: 'storage-log-clear', parent: 'storage-log', label: { 'zh-CN': '清空', 'en-US': 'Clear all' }, grants: ['POST /storage-logs/clear'], destructive: true },
  ],
});
export default manifest;

declare module '@/shared/manifest' {
  interface PermissionKeys extends KeyMap<typeof manifest> {}
}
