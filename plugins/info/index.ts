import { definePlugin } from '@/core';
import manifest from './manifest';

const personIcon = () => import('@fluentui/react-icons/svg/person').then((m) => m.PersonRegular);

// 个人中心 (the personal centre), in both layouts: /info in the admin console (the top-level `info` group, which core
// places last in the side menu) and /my-info in the user portal's top bar. Each is the last resort of core's landing
// rule for its account type (`fallbackHome`): a signed-in account always has somewhere to land.
export default definePlugin({
  id: 'info',
  manifest,
  pages: [
    {
      menuKey: 'info',
      path: '/info',
      page: 'Info',
      icon: personIcon,
      layout: 'admin',
      fallbackHome: 'admin',
    },
    {
      // Every signed-in account; the portal's other pages (我的资产…) take lower `order` values so this stays last.
      menuKey: null,
      path: '/my-info',
      page: 'MyInfo',
      labelKey: 'nav.label',
      icon: personIcon,
      order: 100,
      layout: 'user',
      fallbackHome: 'user',
    },
  ],
  load: () => import('./pages'),
});
