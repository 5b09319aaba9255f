import { definePlugin } from '@/core';

// The terminal of SSH (issue 13) and Telnet (issue 31) assets: a full-window page opened in its own browser tab by the
// connect actions of my-area and asset. Any signed-in account may ask for a session (the access rule decides on the
// server), so no permission key.
export default definePlugin({
  id: 'terminal',
  pages: [
    {
      menuKey: null,
      path: '/term',
      page: 'TerminalPage',
      labelKey: 'nav.label',
      layout: 'bare',
      hideInMenu: true,
    },
  ],
  load: () => import('./pages'),
});
