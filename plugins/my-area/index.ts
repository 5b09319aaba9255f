import { definePlugin } from '@/core';

// The user portal's own pages (user layout): my assets (the home of type-user accounts) and my commands. They call
// /worker/* and /account/*, open to every signed-in account, so the plugin declares no permission key. Their orders
// keep 个人中心 (/my-info, order 100, plugin info) last in the portal's top bar.
export default definePlugin({
  id: 'my-area',
  pages: [
    {
      menuKey: null,
      path: '/my-asset',
      page: 'MyAssetList',
      labelKey: 'nav.myAsset',
      icon: () => import('@fluentui/react-icons/svg/desktop').then((m) => m.DesktopRegular),
      order: 1,
      layout: 'user',
      // In the order the page asks: the tag filter's choices (its search form mounts before the table), the first page.
      opensWith: ['/worker/assets/tags', '/worker/assets/paging?pageIndex=1&pageSize=10&order=&field='],
      home: 'user',
    },
    {
      menuKey: null,
      path: '/my-command',
      page: 'MyCommandList',
      labelKey: 'nav.myCommand',
      icon: () => import('@fluentui/react-icons/svg/code').then((m) => m.CodeRegular),
      order: 2,
      layout: 'user',
      opensWith: ['/worker/commands/paging?pageIndex=1&pageSize=10&order=&field='],
    },
  ],
  load: () => import('./pages'),
});
