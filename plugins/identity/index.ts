import { definePlugin } from '@/core';
import manifest from './manifest';

// Users, roles and user groups (group 用户管理, from the manifest). Pure data; the pages load on demand.
export default definePlugin({
  id: 'identity',
  manifest,
  pages: [
    {
      menuKey: 'user',
      path: '/user',
      page: 'UserList',
      icon: () => import('@fluentui/react-icons/svg/person').then((m) => m.PersonRegular),
      layout: 'admin',
      // The user table's first page (ServerTable's defaults): fetched by the entry on a direct open.
      opensWith: ['/users/paging?pageIndex=1&pageSize=10&order=&field='],
      children: [{ path: ':userId', page: 'UserDetail', titleKey: 'user.detailTitle' }],
    },
    {
      menuKey: 'role',
      path: '/role',
      page: 'RoleList',
      icon: () => import('@fluentui/react-icons/svg/shield-person').then((m) => m.ShieldPersonRegular),
      layout: 'admin',
      opensWith: ['/roles/paging?pageIndex=1&pageSize=10&order=&field='],
      children: [{ path: ':roleId', page: 'RoleDetail', titleKey: 'role.detailTitle' }],
    },
    {
      menuKey: 'user-group',
      path: '/user-group',
      page: 'UserGroupList',
      icon: () => import('@fluentui/react-icons/svg/people-team').then((m) => m.PeopleTeamRegular),
      layout: 'admin',
      opensWith: ['/user-groups/paging?pageIndex=1&pageSize=10&order=&field='],
      children: [{ path: ':userGroupId', page: 'UserGroupDetail', titleKey: 'group.detailTitle' }],
    },
  ],
  load: () => import('./pages'),
});
