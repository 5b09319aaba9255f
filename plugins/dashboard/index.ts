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
      icon: () => import('@fluentui/react-icons/svg/board').then((m) => m.BoardRegular),
      layout: 'admin',
      home: 'admin',
    },
    {
      menuKey: 'monitoring',
      path: '/monitoring',
      page: 'Monitoring',
      icon: () => import('@fluentui/react-icons/svg/pulse').then((m) => m.PulseRegular),
      layout: 'admin',
    },
  ],
  load: () => import('./pages'),
});
