import { definePlugin } from '@/core';

// The end-user portal (user layout). Only 个人中心 exists so far; 我的资产 / 我的指令 / 我的文件 come with
// later issues and take lower `order` values so 个人中心 stays last in the top bar.
export default definePlugin({
  id: 'my-area',
  pages: [
    {
      menuKey: null,
      path: '/my-info',
      page: 'MyInfo',
      labelKey: 'nav.myInfo',
      icon: () => import('@fluentui/react-icons/svg/person').then((m) => m.PersonRegular),
      order: 100,
      layout: 'user',
    },
  ],
  load: () => import('./pages'),
});
