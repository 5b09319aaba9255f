import { definePlugin } from '@/core';
import manifest from './manifest';

// 会话审计: live sessions and session history in the console, and the two full-window pages their actions open in
// a new window (live monitor, playback), each gated by the action that opens it. Pure data; pages load on demand.
export default definePlugin({
  id: 'session-audit',
  manifest,
  pages: [
    {
      menuKey: 'online-session',
      path: '/online-session',
      page: 'OnlineSessionList',
      icon: () => import('@fluentui/react-icons/svg/plug-connected').then((m) => m.PlugConnectedRegular),
      layout: 'admin',
      // In the order the page asks: the user and asset filters' choices (its search form mounts first), then the first
      // page, its status (the table's extraParams) leading the query.
      opensWith: ['/users', '/assets', '/sessions/paging?status=connected&pageIndex=1&pageSize=10&order=&field='],
    },
    {
      menuKey: 'offline-session',
      path: '/offline-session',
      page: 'OfflineSessionList',
      icon: () => import('@fluentui/react-icons/svg/history').then((m) => m.HistoryRegular),
      layout: 'admin',
      opensWith: ['/users', '/assets', '/sessions/paging?status=disconnected&pageIndex=1&pageSize=10&order=&field='],
    },
    { menuKey: null, gate: 'online-session-monitor', path: '/term-monitor', page: 'TermMonitor', labelKey: 'nav.monitor', layout: 'bare', hideInMenu: true },
    { menuKey: null, gate: 'offline-session-playback', path: '/term-playback', page: 'TermPlayback', labelKey: 'nav.playback', layout: 'bare', hideInMenu: true },
  ],
  load: () => import('./pages'),
});
