import { definePlugin } from '@/core';
import manifest from './manifest';

// Credentials (group 资源管理): reusable accounts that assets refer to. Pure data; the page loads on demand.
export default definePlugin({
  id: 'credential',
  manifest,
  pages: [
    {
      menuKey: 'credential',
      path: '/credential',
      page: 'CredentialList',
      labelKey: 'nav.label',
      icon: () => import('@fluentui/react-icons/svg/key-multiple').then((m) => m.KeyMultipleRegular),
      order: 2,
      layout: 'admin',
      opensWith: ['/credentials/paging?pageIndex=1&pageSize=10&order=&field='],
    },
  ],
  load: () => import('./pages'),
});
