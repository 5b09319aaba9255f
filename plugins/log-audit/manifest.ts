import { defineManifest, type KeyMap } from '@/core/manifest';

// 日志审计: who logged in (and who failed to), and what files moved through sessions.
const manifest = defineManifest({
  id: 'log-audit',
  menus: [
    { key: 'login-log', group: 'log-audit', order: 1, label: { 'zh-CN': '登录日志', 'en-US': 'Login log' } },
    // The page's asset and user filters list both.
    { key: 'storage-log', group: 'log-audit', order: 2, label: { 'zh-CN': '文件日志', 'en-US': 'File-operation log' }, grants: ['GET /assets', 'GET /users'] },
  ],
  actions: [
    { key: 'login-log-del', parent: 'login-log', label: { 'zh-CN': '删除', 'en-US': 'Delete' } },
    { key: 'login-log-clear', parent: 'login-log', label: { 'zh-CN': '清空', 'en-US': 'Clear all' } },
    { key: 'storage-log-del', parent: 'storage-log', label: { 'zh-CN': '删除', 'en-US': 'Delete' } },
    { key: 'storage-log-clear', parent: 'storage-log', label: { 'zh-CN': '清空', 'en-US': 'Clear all' } },
  ],
});
export default manifest;

declare module '@/core/manifest' {
  interface PermissionKeys extends KeyMap<typeof manifest> {}
}
