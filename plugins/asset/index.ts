import { definePlugin } from '@/core';
import manifest from './manifest';

// The bastion's inventory (group 资源管理): assets with their detail page, dynamic commands and access gateways.
// Pure data; the pages load on demand.
export default definePlugin({
  id: 'asset',
  manifest,
  pages: [
    // assets: /asset, /asset/:assetId
    {
      menuKey: 'asset',
      path: '/asset',
      page: 'AssetList',
      icon: () => import('@fluentui/react-icons/svg/server').then((m) => m.ServerRegular),
      layout: 'admin',
      // In the order the page asks: the tag filter's choices (its search form mounts before the table), the first page.
      opensWith: ['/tags', '/assets/paging?pageIndex=1&pageSize=10&order=&field='],
      children: [{ path: ':assetId', page: 'AssetDetail', titleKey: 'asset.detail.title', menuKey: 'asset-detail' }],
    },

    // commands: /command; access gateways: /access-gateway
    {
      menuKey: 'command',
      path: '/command',
      page: 'CommandList',
      icon: () => import('@fluentui/react-icons/svg/window-console').then((m) => m.WindowConsoleRegular),
      layout: 'admin',
      opensWith: ['/commands/paging?pageIndex=1&pageSize=10&order=&field='],
    },
    {
      menuKey: 'access-gateway',
      path: '/access-gateway',
      page: 'AccessGatewayList',
      icon: () => import('@fluentui/react-icons/svg/router').then((m) => m.RouterRegular),
      layout: 'admin',
      opensWith: ['/access-gateways/paging?pageIndex=1&pageSize=10&order=&field='],
    },
  ],
  load: () => import('./pages'),
});
