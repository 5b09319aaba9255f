import { definePlugin } from '@/core';
import manifest from './manifest';

// 个人中心 in the admin console: the top-level `info` group, which core places last in the side menu.
export default definePlugin({
  id: 'info',
  manifest,
  pages: [
    {
      menuKey: 'info',
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
