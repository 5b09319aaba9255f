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
      icon: () => import('@fluentui/react-icons/svg/key-multiple').then((m) => m.KeyMultipleRegular),
      layout: 'admin',
      opensWith: ['/credentials/paging?pageIndex=1&pageSize=10&order=&field='],
    },
  ],
  load: () => import('./pages'),
});
