import { defineManifest, type KeyMap } from '@/shared/manifest';

// 控制面板 (core's top `dashboard` slot, the admins' home) and 系统监控 (group 系统运维): overview counters and charts,
// and this server's own load.
const manifest = defineManifest({
  id: 'dashboard',
  // The labels (labelKey) are strings of locales/<lng>/dashboard.json, which the server reads from here.
  locales: import.meta.url,
  menus: [
    { key: 'dashboard', group: 'dashboard', labelKey: 'nav.dashboard', grants: ['GET /overview/counter', 'GET /overview/asset', 'GET /overview/date-counter'] },
    { key: 'monitoring', group: 'ops', order: 10, labelKey: 'nav.monitoring', grants: ['GET /overview/ps'] },
  ],
});
export default manifest;

declare module '@/shared/manifest' {
  interface PermissionKeys extends KeyMap<typeof manifest> {}
}
