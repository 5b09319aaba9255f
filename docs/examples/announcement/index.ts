import { definePlugin } from '@/core';

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
      icon: () => import('@fluentui/react-icons/svg/megaphone').then((m) => m.MegaphoneRegular),
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
