import { definePlugin } from '@/core';

// The user portal's own pages (user layout): my assets (the home of type-user accounts) and my commands. They call
// /worker/* and /account/*, open to every signed-in account, so the plugin declares no permission key.
export default definePlugin({
  id: 'my-area',
  pages: [],
  load: () => import('./pages'),
});
