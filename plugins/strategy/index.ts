import { definePlugin } from '@/core';
import manifest from './manifest';

// Authorisation strategies (group 授权策略): list, form and detail page. Pure data; the pages load on demand.
export default definePlugin({
  id: 'strategy',
  manifest,
  pages: [],
  load: () => import('./pages'),
});
