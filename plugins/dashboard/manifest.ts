import { defineManifest, type KeyMap } from '@/shared/manifest';

// 控制面板 (core's top `dashboard` slot, the admins' home) and 系统监控 (group 系统运维): overview counters and charts,
// and this server's own load.
const manifest = defineManifest({
  id: 'dashboard',
  menus: [
    { key: 'dashboard', group: 'dashboard', label: { 'zh-CN': '控制面板', 'en-US': 'Dashboard' }, grants: ['GET /overview/counter', 'GET /overview/asset', 'GET /overview/date-counter'] },
    { key: 'monitoring', group: 'ops', order: 10, label: { 'zh-CN': '系统监控', 'en-US': 'System monitoring' }, grants: ['GET /overview/ps'] },
  ],
});
export default manifest;

declare module '@/shared/manifest' {
  interface PermissionKeys extends KeyMap<typeof manifest> {}
}
