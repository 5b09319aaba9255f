import { definePlugin } from '@/core';
import { MegaphoneRegular } from '@fluentui/react-icons';

// The descriptor: pure data plus the one lazy import. It is loaded eagerly, so keep it tiny.
export default definePlugin({
  id: 'announcement',
  pages: [
    {
      menuKey: 'announcement',
      group: 'ops',
      path: '/announcement',
      page: 'AnnouncementList',
      labelKey: 'nav.label',
      icon: MegaphoneRegular,
      order: 40,
      layout: 'admin',
      children: [{ path: ':announcementId', page: 'AnnouncementDetail', titleKey: 'detail.title' }],
    },
  ],
  actions: [
    { key: 'announcement-add', labelKey: 'actions.add' },
    { key: 'announcement-del', labelKey: 'actions.del' },
  ],
  load: () => import('./pages'),
});
