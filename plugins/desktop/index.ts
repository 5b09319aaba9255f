import { definePlugin } from '@/core';

// Desktops (issue 31): the VNC and RDP viewer (the bastion serves RDP as VNC) opened in its own browser tab by 接入
// (my-area, asset), and the live monitor and the player of desktop sessions opened by 在线会话's 监控 and 历史会话's
// 回放 (session-audit). noVNC loads with these pages only. Opening a session is decided by the access rule on the
// server, so /access has no key; the monitor and the player are gated by session-audit's keys, as its terminal monitor
// and player are (the server gates their sockets and downloads too).
export default definePlugin({
  id: 'desktop',
  pages: [
    { menuKey: null, path: '/access', page: 'DesktopPage', labelKey: 'nav.label', layout: 'bare', hideInMenu: true },
    { menuKey: null, gate: 'online-session-monitor', path: '/guacd-monitor', page: 'DesktopMonitor', labelKey: 'nav.monitor', layout: 'bare', hideInMenu: true },
    { menuKey: null, gate: 'offline-session-playback', path: '/guacd-playback', page: 'DesktopPlayback', labelKey: 'nav.playback', layout: 'bare', hideInMenu: true },
  ],
  load: () => import('./pages'),
});
