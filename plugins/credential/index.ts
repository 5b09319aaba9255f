import { definePlugin } from '@/core';
import manifest from './manifest';

// Credentials (group 资源管理): reusable accounts that assets refer to. Pure data; the page loads on demand.
export default definePlugin({
  id: 'credential',
  manifest,
  pages: [],
  load: () => import('./pages'),
});
