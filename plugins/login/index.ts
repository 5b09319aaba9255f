import { definePlugin } from '@/core';

// The login screen: bare layout, open to everyone (menuKey null), never in a menu.
// `page.documentTitle` is empty in both languages, so core titles the tab with the brand name alone.
export default definePlugin({
  id: 'login',
  pages: [
    {
      menuKey: null,
      path: '/login',
      page: 'Login',
      labelKey: 'nav.label',
      titleKey: 'page.documentTitle',
      layout: 'bare',
      hideInMenu: true,
    },
  ],
  load: () => import('./pages'),
});
