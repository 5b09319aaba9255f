import { definePlugin } from '@/core';
import manifest from './manifest';

// 控制面板 (the admins' home: core's landing rule sends them here at / and after login) and 系统监控.
// Pure data; the pages, with their chart library, load on demand.
export default definePlugin({
  id: 'dashboard',
  manifest,
  pages: [
    {
      menuKey: 'dashboard',
      path: '/dashboard',
      page: 'Dashboard',
      labelKey: 'nav.dashboard',
      icon: () => import('@fluentui/react-icons/svg/board').then((m) => m.BoardRegular),
      order: 1,
      layout: 'admin',
      home: 'admin',
    },
    {
      menuKey: 'monitoring',
      path: '/monitoring',
      page: 'Monitoring',
      labelKey: 'nav.monitoring',
      icon: () => import('@fluentui/react-icons/svg/pulse').then((m) => m.PulseRegular),
      order: 10,
      layout: 'admin',
    },
  ],
  load: () => import('./pages'),
});
