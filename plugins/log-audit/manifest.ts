import { defineManifest, type KeyMap } from '@/core/manifest';

// 日志审计: who logged in (and who failed to), and what files moved through sessions.
const manifest = defineManifest({
  id: 'log-audit',
  menus: [
    { key: 'login-log', group: 'log-audit', order: 1, label: { 'zh-CN': '登录日志', 'en-US': 'Login log' }, grants: ['GET /login-logs/paging'] },
    // The page's asset and user filters list both.
    {
      key: 'storage-log',
      group: 'log-audit',
      order: 2,
      label: { 'zh-CN': '文件日志', 'en-US': 'File-operation log' },
      grants: ['GET /storage-logs/paging', 'GET /assets', 'GET /users'],
    },
  ],
  actions: [
    { key: 'login-log-del', parent: 'login-log', label: { 'zh-CN': '删除', 'en-US': 'Delete' }, grants: ['DELETE /login-logs/:id'] },
    { key: 'login-log-clear', parent: 'login-log', label: { 'zh-CN': '清空', 'en-US': 'Clear all' }, grants: ['POST /login-logs/clear'] },
    { key: 'storage-log-del', parent: 'storage-log', label: { 'zh-CN': '删除', 'en-US': 'Delete' }, grants: ['DELETE /storage-logs/:id'] },
    { key: 'storage-log-clear', parent: 'storage-log', label: { 'zh-CN': '清空', 'en-US': 'Clear all' }, grants: ['POST /storage-logs/clear'] },
  ],
});
export default manifest;

declare module '@/core/manifest' {
  interface PermissionKeys extends KeyMap<typeof manifest> {}
}
