import { definePlugin } from '@/core';
import manifest from './manifest';

// The 授权 group: 资产授权 (every grant, bulk grant, why) and 授权策略 (list, form and detail page). Pure data; the pages
// load on demand.
export default definePlugin({
  id: 'strategy',
  manifest,
  pages: [
    {
      menuKey: 'strategy',
      path: '/strategy',
      page: 'StrategyList',
      icon: () => import('@fluentui/react-icons/svg/shield-keyhole').then((m) => m.ShieldKeyholeRegular),
      layout: 'admin',
      opensWith: ['/strategies/paging?pageIndex=1&pageSize=10&order=&field='],
      children: [{ path: ':strategyId', page: 'StrategyDetail', titleKey: 'detail.title', menuKey: 'strategy-detail' }],
    },
    // Second in this list (the tests' default page is the first), first in the menu (order 1).
    {
      menuKey: 'authorisation',
      path: '/authorisation',
      page: 'AuthorisationList',
      icon: () => import('@fluentui/react-icons/svg/people-lock').then((m) => m.PeopleLockRegular),
      layout: 'admin',
      opensWith: ['/authorised/paging?pageIndex=1&pageSize=10&order=&field='],
    },
  ],
  load: () => import('./pages'),
});
