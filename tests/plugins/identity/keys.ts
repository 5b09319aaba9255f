// Every menu key of the identity plugin: the harness's default session holds only the page keys.
export const ALL_KEYS = [
  'user',
  'role',
  'user-group',
  'user-add',
  'user-edit',
  'user-del',
  'user-detail',
  'user-enable-disable',
  'user-change-password',
  'user-reset-totp',
  'role-add',
  'role-edit',
  'role-del',
  'role-detail',
  'user-group-add',
  'user-group-edit',
  'user-group-del',
  'user-group-detail',
];

export const admin = (menus: string[] = ALL_KEYS) => ({ user: { id: 'me', type: 'admin', menus } });
