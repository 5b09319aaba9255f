import { definePlugin } from '@/core';

// 个人中心 in the admin console: the top-level `info` group, which core places last in the side menu.
export default definePlugin({
  id: 'info',
  pages: [
    {
      menuKey: 'info',
      group: 'info',
      path: '/info',
      page: 'Info',
      labelKey: 'nav.label',
      icon: () => import('@fluentui/react-icons/svg/person').then((m) => m.PersonRegular),
      order: 1,
      layout: 'admin',
    },
  ],
  load: () => import('./pages'),
});
