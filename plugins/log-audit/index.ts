import { definePlugin } from '@/core';
import manifest from './manifest';

// 日志审计 (group from the manifest): 登录日志, 文件日志 and 操作日志. Pure data; the pages load on demand.
export default definePlugin({
  id: 'log-audit',
  manifest,
  pages: [
    {
      menuKey: 'login-log',
      path: '/login-log',
      page: 'LoginLogList',
      icon: () => import('@fluentui/react-icons/svg/person-clock').then((m) => m.PersonClockRegular),
      layout: 'admin',
      // Opened as the dashboard's /login-log?state=0 the page asks for a filtered page instead: this one then goes unused.
      opensWith: ['/login-logs/paging?pageIndex=1&pageSize=10&order=&field='],
    },
    {
      menuKey: 'storage-log',
      path: '/storage-log',
      page: 'StorageLogList',
      icon: () => import('@fluentui/react-icons/svg/document-search').then((m) => m.DocumentSearchRegular),
      layout: 'admin',
      // In the order the page asks: the asset and user filters' choices (its search form mounts first), the first page.
      opensWith: ['/assets', '/users', '/storage-logs/paging?pageIndex=1&pageSize=10&order=&field='],
    },
    {
      // Read-only: deletions of audit records and refused operations; nothing deletes from it.
      menuKey: 'operation-log',
      path: '/operation-log',
      page: 'OperationLogList',
      icon: () => import('@fluentui/react-icons/svg/shield-task').then((m) => m.ShieldTaskRegular),
      layout: 'admin',
      opensWith: ['/operation-logs/paging?pageIndex=1&pageSize=10&order=&field='],
    },
  ],
  load: () => import('./pages'),
});
