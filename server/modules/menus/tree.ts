/**
 * The menu tree of contract §4.1: 129 keys in 1.3.9's order (login and GET /menus keep it).
 * Each row: key, parent key (null = root), zh-CN label, en-US label.
 * Which routes a key grants is declared by the routes themselves (`allow` in http/routes.ts), method included.
 */
export const MENU_ROWS = [
  ['dashboard', null, '控制面板', 'Dashboard'],
  ['resource', null, '资源管理', 'Resource management'],
  ['asset', 'resource', '资产管理', 'Asset management'],
  ['asset-access', 'asset', '接入', 'Access / connect to asset'],
  ['asset-add', 'asset', '新建', 'Create asset'],
  ['asset-edit', 'asset', '编辑', 'Edit asset'],
  ['asset-del', 'asset', '删除', 'Delete asset'],
  ['asset-copy', 'asset', '复制', 'Copy (clone) asset'],
  ['asset-conn-test', 'asset', '连通性测试', 'Connectivity test'],
  ['asset-import', 'asset', '导入资产', 'Import assets (CSV)'],
  ['asset-change-owner', 'asset', '更换所有者', 'Change owner'],
  ['asset-detail', 'asset', '详情', 'Asset details'],
  ['asset-authorised-user', 'asset-detail', '资产授权用户', 'Users authorised on this asset'],
  ['asset-authorised-user-add', 'asset-authorised-user', '增加授权', 'Add authorisation'],
  ['asset-authorised-user-del', 'asset-authorised-user', '移除授权', 'Remove authorisation'],
  ['asset-authorised-user-group', 'asset-detail', '资产授权用户组', 'User groups authorised on this asset'],
  ['asset-authorised-user-group-add', 'asset-authorised-user-group', '增加授权', 'Add authorisation'],
  ['asset-authorised-user-group-del', 'asset-authorised-user-group', '移除授权', 'Remove authorisation'],
  ['credential', 'resource', '授权凭证', 'Credentials'],
  ['credential-add', 'credential', '增加', 'Add'],
  ['credential-del', 'credential', '删除', 'Delete'],
  ['credential-edit', 'credential', '修改', 'Edit'],
  ['command', 'resource', '动态指令', 'Dynamic commands (saved snippets)'],
  ['command-add', 'command', '增加', 'Add'],
  ['command-edit', 'command', '修改', 'Edit'],
  ['command-del', 'command', '删除', 'Delete'],
  ['command-exec', 'command', '执行', 'Execute (batch)'],
  ['command-change-owner', 'command', '更换所有者', 'Change owner'],
  ['access-gateway', 'resource', '接入网关', 'Access gateways'],
  ['access-gateway-add', 'access-gateway', '增加', 'Add'],
  ['access-gateway-del', 'access-gateway', '删除', 'Delete'],
  ['access-gateway-edit', 'access-gateway', '修改', 'Edit'],
  ['session-audit', null, '会话审计', 'Session audit'],
  ['online-session', 'session-audit', '在线会话', 'Online sessions'],
  ['online-session-disconnect', 'online-session', '断开', 'Disconnect'],
  ['online-session-monitor', 'online-session', '监控', 'Monitor (watch live)'],
  ['offline-session', 'session-audit', '历史会话', 'Session history'],
  ['offline-session-playback', 'offline-session', '回放', 'Playback'],
  ['offline-session-del', 'offline-session', '删除', 'Delete'],
  ['offline-session-clear', 'offline-session', '清空', 'Clear all'],
  ['offline-session-command', 'offline-session', '命令记录', 'Command records'],
  ['offline-session-reviewed', 'offline-session', '标记已读', 'Mark as read'],
  ['offline-session-unreviewed', 'offline-session', '标记未读', 'Mark as unread'],
  ['offline-session-reviewed-all', 'offline-session', '全部标记已读', 'Mark all as read'],
  ['log-audit', null, '日志审计', 'Log audit'],
  ['login-log', 'log-audit', '登录日志', 'Login log'],
  ['login-log-del', 'login-log', '删除', 'Delete'],
  ['login-log-clear', 'login-log', '清空', 'Clear all'],
  ['storage-log', 'log-audit', '文件日志', 'File-operation log'],
  ['storage-log-del', 'storage-log', '删除', 'Delete'],
  ['storage-log-clear', 'storage-log', '清空', 'Clear all'],
  ['session-command', 'log-audit', '命令日志', 'Command log'],
  ['ops', null, '系统运维', 'Operations'],
  ['job', 'ops', '计划任务', 'Scheduled jobs'],
  ['job-add', 'job', '增加', 'Add'],
  ['job-del', 'job', '删除', 'Delete'],
  ['job-edit', 'job', '修改', 'Edit'],
  ['job-run', 'job', '执行', 'Run now'],
  ['job-change-status', 'job', '开启/关闭', 'Enable / disable'],
  ['job-log', 'job', '日志', 'Job log'],
  ['job-log-clear', 'job', '日志清空', 'Clear job log'],
  ['storage', 'ops', '磁盘空间', 'Disk storage'],
  ['storage-add', 'storage', '增加', 'Add'],
  ['storage-del', 'storage', '删除', 'Delete'],
  ['storage-edit', 'storage', '修改', 'Edit'],
  ['storage-browse', 'storage', '浏览', 'Browse files'],
  ['storage-browse-download', 'storage-browse', '下载', 'Download'],
  ['storage-browse-upload', 'storage-browse', '上传', 'Upload'],
  ['storage-browse-mkdir', 'storage-browse', '创建文件夹', 'Create folder'],
  ['storage-browse-rm', 'storage-browse', '删除', 'Delete'],
  ['storage-browse-rename', 'storage-browse', '重命名', 'Rename'],
  ['storage-browse-edit', 'storage-browse', '编辑', 'Edit file'],
  ['monitoring', 'ops', '系统监控', 'System monitoring'],
  ['security', null, '安全策略', 'Security policies'],
  ['access-security', 'security', '访问安全', 'Access security (IP rules)'],
  ['access-security-add', 'access-security', '增加', 'Add'],
  ['access-security-del', 'access-security', '删除', 'Delete'],
  ['access-security-edit', 'access-security', '修改', 'Edit'],
  ['login-policy', 'security', '登录策略', 'Login policies'],
  ['login-policy-add', 'login-policy', '增加', 'Add'],
  ['login-policy-del', 'login-policy', '删除', 'Delete'],
  ['login-policy-edit', 'login-policy', '修改', 'Edit'],
  ['login-policy-detail', 'login-policy', '详情', 'Details'],
  ['login-policy-bind-user', 'login-policy-detail', '绑定用户', 'Bind users'],
  ['login-policy-unbind-user', 'user-login-policy', '解绑', 'Unbind'],
  ['identity', null, '用户管理', 'Identity (user management)'],
  ['user', 'identity', '用户管理', 'Users'],
  ['user-add', 'user', '增加', 'Add'],
  ['user-del', 'user', '删除', 'Delete'],
  ['user-edit', 'user', '修改', 'Edit'],
  ['user-change-password', 'user', '修改密码', 'Change password'],
  ['user-enable-disable', 'user', '启用/禁用', 'Enable / disable'],
  ['user-reset-totp', 'user', '重置双因素认证', 'Reset two-factor auth'],
  ['user-detail', 'user', '用户详情', 'User details'],
  ['user-authorised-asset', 'user-detail', '授权的资产', 'Authorised assets'],
  ['user-bind-asset', 'user-authorised-asset', '授权', 'Grant assets'],
  ['user-unbind-asset', 'user-authorised-asset', '移除', 'Remove grant'],
  ['user-login-policy', 'user-detail', '登录策略', 'Login policies (of user)'],
  ['user-unbind-login-policy', 'user-login-policy', '解绑', 'Unbind'],
  ['role', 'identity', '角色管理', 'Roles'],
  ['role-add', 'role', '增加', 'Add'],
  ['role-del', 'role', '删除', 'Delete'],
  ['role-edit', 'role', '修改', 'Edit'],
  ['role-detail', 'role', '详情', 'Details'],
  ['user-group', 'identity', '用户组管理', 'User groups'],
  ['user-group-add', 'user-group', '增加', 'Add'],
  ['user-group-del', 'user-group', '删除', 'Delete'],
  ['user-group-edit', 'user-group', '修改', 'Edit'],
  ['user-group-detail', 'user-group', '详情', 'Details'],
  ['user-group-authorised-asset', 'user-group', '授权的资产', 'Authorised assets'],
  ['user-group-bind-asset', 'user-group-authorised-asset', '授权', 'Grant assets'],
  ['user-group-unbind-asset', 'user-group-authorised-asset', '移除', 'Remove grant'],
  ['authorised', null, '授权策略', 'Authorisation'],
  ['command-filter', 'authorised', '命令过滤', 'Command filters'],
  ['command-filter-add', 'command-filter', '增加', 'Add'],
  ['command-filter-del', 'command-filter', '删除', 'Delete'],
  ['command-filter-edit', 'command-filter', '编辑', 'Edit'],
  ['command-filter-detail', 'command-filter', '详情', 'Details'],
  ['command-filter-rule', 'command-filter-detail', '规则', 'Rules'],
  ['command-filter-rule-add', 'command-filter-rule', '增加', 'Add rule'],
  ['command-filter-rule-put', 'command-filter-rule', '修改', 'Edit rule'],
  ['command-filter-rule-del', 'command-filter-rule', '删除', 'Delete rule'],
  ['strategy', 'authorised', '授权策略', 'Authorisation strategies'],
  ['strategy-add', 'strategy', '增加', 'Add'],
  ['strategy-edit', 'strategy', '修改', 'Edit'],
  ['strategy-del', 'strategy', '删除', 'Delete'],
  ['strategy-detail', 'strategy', '详情', 'Details'],
  ['setting', null, '系统设置', 'System settings'],
  ['info', null, '个人中心', 'Personal centre (my profile)'],
] as const;

export type MenuKey = (typeof MENU_ROWS)[number][0];

export interface MenuNode {
  key: MenuKey;
  parentId: MenuKey | null;
  titles: { 'zh-CN': string; 'en-US': string };
}

export const MENUS: readonly MenuNode[] = MENU_ROWS.map(([key, parentId, zh, en]) => ({
  key,
  parentId,
  titles: { 'zh-CN': zh, 'en-US': en },
}));

/** Every key, in tree order. */
export const ALL_MENU_KEYS: readonly MenuKey[] = MENUS.map((m) => m.key);

const ORDER = new Map<string, number>(ALL_MENU_KEYS.map((k, i) => [k, i]));

export const isMenuKey = (key: string): key is MenuKey => ORDER.has(key);

/** Sorts keys into tree order and drops duplicates and unknown keys. */
export function inTreeOrder(keys: Iterable<string>): MenuKey[] {
  return [...new Set(keys)].filter(isMenuKey).sort((a, b) => ORDER.get(a)! - ORDER.get(b)!);
}

/** A key and all keys below it. */
export function withDescendants(...roots: MenuKey[]): MenuKey[] {
  const out = new Set<MenuKey>(roots);
  // Rows are listed parents first except login-policy-unbind-user, so loop until nothing is added.
  for (let grew = true; grew; ) {
    grew = false;
    for (const m of MENUS) {
      if (m.parentId && out.has(m.parentId) && !out.has(m.key)) {
        out.add(m.key);
        grew = true;
      }
    }
  }
  return inTreeOrder(out);
}
