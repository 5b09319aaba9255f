import { defineManifest, type KeyMap } from '@/core/manifest';

// 会话审计: live sessions (watch, force-close) and session history (playback with its command index, review marks,
// delete). The terminal itself needs no key: opening a session is decided by the access rule on the server.
const manifest = defineManifest({
  id: 'session-audit',
  menus: [
    // The lists' user and asset filters read GET /users and GET /assets (names only); the session routes' grants
    // come with the server module.
    { key: 'online-session', group: 'session-audit', order: 1, label: { 'zh-CN': '在线会话', 'en-US': 'Online sessions' }, grants: ['GET /users', 'GET /assets'] },
    { key: 'offline-session', group: 'session-audit', order: 2, label: { 'zh-CN': '历史会话', 'en-US': 'Session history' }, grants: ['GET /users', 'GET /assets'] },
  ],
  actions: [
    { key: 'online-session-disconnect', parent: 'online-session', label: { 'zh-CN': '断开', 'en-US': 'Disconnect' } },
    { key: 'online-session-monitor', parent: 'online-session', label: { 'zh-CN': '监控', 'en-US': 'Monitor (watch live)' } },
    { key: 'offline-session-playback', parent: 'offline-session', label: { 'zh-CN': '回放', 'en-US': 'Playback' } },
    { key: 'offline-session-del', parent: 'offline-session', label: { 'zh-CN': '删除', 'en-US': 'Delete' } },
    { key: 'offline-session-clear', parent: 'offline-session', label: { 'zh-CN': '清空', 'en-US': 'Clear all' } },
    { key: 'offline-session-command', parent: 'offline-session', label: { 'zh-CN': '命令记录', 'en-US': 'Command records' } },
    { key: 'offline-session-reviewed', parent: 'offline-session', label: { 'zh-CN': '标记已读', 'en-US': 'Mark as read' } },
    { key: 'offline-session-unreviewed', parent: 'offline-session', label: { 'zh-CN': '标记未读', 'en-US': 'Mark as unread' } },
    { key: 'offline-session-reviewed-all', parent: 'offline-session', label: { 'zh-CN': '全部标记已读', 'en-US': 'Mark all as read' } },
  ],
});
export default manifest;

declare module '@/core/manifest' {
  interface PermissionKeys extends KeyMap<typeof manifest> {}
}
