import { definePlugin } from '@/core';
import manifest from './manifest';

// The bastion's inventory (group 资源管理): assets with their detail page, dynamic commands and access gateways.
// Pure data; the pages load on demand.
export default definePlugin({
  id: 'asset',
  manifest,
  pages: [
    // assets: /asset, /asset/:assetId

    // commands: /command; access gateways: /access-gateway
  ],
  load: () => import('./pages'),
});
