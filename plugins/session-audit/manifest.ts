import { defineManifest, type KeyMap } from '@/shared/manifest';

// 会话审计: live sessions (watch, force-close) and session history (playback with its command index, review marks,
// delete). The terminal itself needs no key: opening a session is decided by the access rule on the server.
const manifest = defineManifest({
  id: 'session-audit',
  // The labels (labelKey) are strings of locales/<lng>/session-audit.json, which the server reads from here.
  locales: import.meta.url,
  menus: [
    // The lists' user and asset filters read GET /users and GET /assets (names only).
    { key: 'online-session', group: 'session-audit', order: 1, labelKey: 'nav.online', grants: ['GET /sessions/paging', 'GET /users', 'GET /assets'] },
    {
      key: 'offline-session',
      group: 'session-audit',
      order: 2,
      labelKey: 'nav.offline',
      grants: ['GET /sessions/paging', 'GET /sessions/:id', 'GET /users', 'GET /assets'],
    },
  ],
  actions: [
    { key: 'online-session-disconnect', parent: 'online-session', label: { 'zh-CN': '断开', 'en-US': 'Disconnect' }, grants: ['POST /sessions/:id/disconnect'] },
    { key: 'online-session-monitor', parent: 'online-session', label: { 'zh-CN': '监控', 'en-US': 'Monitor (watch live)' }, grants: ['GET /sessions/:id/ssh-monitor', 'GET /sessions/:id/telnet-monitor', 'GET /sessions/:id/vnc-monitor', 'GET /sessions/:id/rdp-monitor', 'GET /sessions/:id'] },
    { key: 'offline-session-playback', parent: 'offline-session', label: { 'zh-CN': '回放', 'en-US': 'Playback' }, grants: ['GET /sessions/:id/recording', 'GET /sessions/:id/commands/paging', 'GET /sessions/:id'] },
    { key: 'offline-session-del', parent: 'offline-session', label: { 'zh-CN': '删除', 'en-US': 'Delete' }, grants: ['DELETE /sessions/:id'], destructive: true },
    { key: 'offline-session-clear', parent: 'offline-session', label: { 'zh-CN': '清空', 'en-US': 'Clear all' }, grants: ['POST /sessions/clear'], destructive: true },
    { key: 'offline-session-command', parent: 'offline-session', label: { 'zh-CN': '命令记录', 'en-US': 'Command records' }, grants: ['GET /sessions/:id/commands/paging'] },
    { key: 'offline-session-reviewed', parent: 'offline-session', label: { 'zh-CN': '标记已读', 'en-US': 'Mark as read' }, grants: ['POST /sessions/:id/reviewed'] },
    { key: 'offline-session-unreviewed', parent: 'offline-session', label: { 'zh-CN': '标记未读', 'en-US': 'Mark as unread' }, grants: ['POST /sessions/:id/unreviewed'] },
    { key: 'offline-session-reviewed-all', parent: 'offline-session', label: { 'zh-CN': '全部标记已读', 'en-US': 'Mark all as read' }, grants: ['POST /sessions/reviewed'] },
  ],
});
export default manifest;

declare module '@/shared/manifest' {
  interface PermissionKeys extends KeyMap<typeof manifest> {}
}
