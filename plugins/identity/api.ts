import { type ApiClient, type FieldOption, type PageQuery, type PageResult, pageSource } from '@/core';
import { explainAccess, type GrantTabRow, grantTerms, strategyOptions } from '@/domain';

export type UserType = 'user' | 'admin';

export interface UserRow {
  id: string;
  username: string;
  nickname: string;
  mail: string;
  type: UserType;
  status: 'enabled' | 'disabled';
  online: boolean;
  /** '1' = TOTP on, '0' = off. */
  totpSecret: string;
  source: string;
  created: string;
}

export interface UserRecord extends UserRow {
  /** Role ids. */
  roles: string[] | null;
}

export interface UserOption {
  id: string;
  username: string;
  nickname: string;
}

export interface UserBody {
  username: string;
  nickname: string;
  type: UserType;
  mail: string;
  roles: string[];
  password?: string;
}

export interface RoleMenuRef {
  menuId: string;
  checked: boolean;
}

export interface Role {
  id: string;
  name: string;
  type: 'default' | 'new';
  deletable: boolean;
  modifiable: boolean;
  created: string;
  menus: RoleMenuRef[] | null;
}

export interface RoleBody {
  name: string;
  menus: RoleMenuRef[];
}

export interface TreeMenu {
  title: string;
  titles?: Partial<Record<string, string>>;
  key: string;
  children: TreeMenu[] | null;
  /** A key no built-in role holds (deleting audit records). */
  destructive?: boolean;
}

export interface UserGroupRow {
  id: string;
  name: string;
  created: string;
}

export interface UserGroupRecord extends UserGroupRow {
  members: { id: string; name: string }[] | null;
}

export interface UserGroupBody {
  name: string;
  members: string[];
}

// Query keys: each list's base key is what a mutation invalidates.
export const KEYS = {
  users: ['identity', 'users'] as const,
  user: (id: string) => ['identity', 'user', id] as const,
  /** Users as choices of a form field. */
  userOptions: ['identity', 'user-options'] as const,
  roles: ['identity', 'roles'] as const,
  role: (id: string) => ['identity', 'role', id] as const,
  /** Roles as choices (id → name), for the user form and the user detail. */
  roleOptions: ['identity', 'role-options'] as const,
  menus: ['identity', 'menus'] as const,
  groups: ['identity', 'user-groups'] as const,
  group: (id: string) => ['identity', 'user-group', id] as const,
};

const ids = (list: readonly (string | number)[]) => list.map(String).join(',');

// Mutations and record loads are silent: the screens show their errors inline (dialogs, error states).
const quiet = { silent: true } as const;

export const userApi = (api: ApiClient) => ({
  page: pageSource<UserRow>(api, '/users/paging'),
  options: () => api.get<UserOption[]>('/users'),
  get: (id: string) => api.get<UserRecord>(`/users/${encodeURIComponent(id)}`, quiet),
  create: (body: UserBody) => api.post<UserRecord>('/users', body, quiet),
  update: (id: string, body: UserBody) => api.put<null>(`/users/${encodeURIComponent(id)}`, body, quiet),
  remove: (list: readonly (string | number)[]) => api.delete<null>(`/users/${ids(list)}`),
  setStatus: (id: string, status: 'enabled' | 'disabled') =>
    api.patch<null>(`/users/${encodeURIComponent(id)}/status`, undefined, { params: { status } }),
  changePassword: (list: readonly (string | number)[], password: string) =>
    api.post<string>(`/users/${ids(list)}/change-password`, { password }, quiet),
  resetTotp: (list: readonly (string | number)[]) => api.post<string>(`/users/${ids(list)}/reset-totp`),
});

export const roleApi = (api: ApiClient) => ({
  page: pageSource<Role>(api, '/roles/paging'),
  options: async (): Promise<FieldOption[]> => (await api.get<Role[]>('/roles')).map((r) => ({ value: r.id, label: r.name })),
  get: (id: string) => api.get<Role>(`/roles/${encodeURIComponent(id)}`, quiet),
  create: (body: RoleBody) => api.post<string>('/roles', body, quiet),
  update: (id: string, body: RoleBody) => api.put<string>(`/roles/${encodeURIComponent(id)}`, body, quiet),
  remove: (list: readonly (string | number)[]) => api.delete<null>(`/roles/${ids(list)}`),
  menus: () => api.get<TreeMenu[]>('/menus'),
});

export const groupApi = (api: ApiClient) => ({
  page: pageSource<UserGroupRow>(api, '/user-groups/paging'),
  get: (id: string) => api.get<UserGroupRecord>(`/user-groups/${encodeURIComponent(id)}`, quiet),
  create: (body: UserGroupBody) => api.post<UserGroupRecord>('/user-groups', body, quiet),
  update: (id: string, body: UserGroupBody) => api.put<null>(`/user-groups/${encodeURIComponent(id)}`, body, quiet),
  remove: (list: readonly (string | number)[]) => api.delete<null>(`/user-groups/${ids(list)}`),
});

/** Whose authorised assets a tab shows: a user's or a user group's. */
export type GrantHolder = { userId: string } | { userGroupId: string };

/** A row of `GET /authorised/assets/paging?userId|userGroupId` (AssetPageForAuthorised + protocol, window, state). */
export interface AssetGrantRow extends GrantTabRow {
  assetId: string;
  assetName: string;
  protocol: string;
}

export interface AssetGrantBody {
  assetIds: string[];
  strategyId?: string;
  validFrom?: string;
  validUntil?: string;
}

const holderKey = (holder: GrantHolder) => ('userId' in holder ? `user:${holder.userId}` : `group:${holder.userGroupId}`);

export const GRANT_KEYS = {
  /** Everything about a holder's grants: the list and the already-granted lookup (invalidated after a change). */
  of: (holder: GrantHolder) => ['identity', 'grants', holderKey(holder)] as const,
  list: (holder: GrantHolder) => ['identity', 'grants', holderKey(holder), 'list'] as const,
  choices: (holder: GrantHolder) => ['identity', 'grants', holderKey(holder), 'choices'] as const,
  strategies: ['identity', 'strategy-options'] as const,
  explain: (userId: string, assetId: string) => ['identity', 'explain', userId, assetId] as const,
};

export const assetGrantApi = (api: ApiClient) => ({
  page: (query: PageQuery) => api.get<PageResult<AssetGrantRow>>('/authorised/assets/paging', { params: query }),
  /** Every asset, those the holder already holds disabled. */
  choices: async (holder: GrantHolder): Promise<FieldOption[]> => {
    const [all, taken] = await Promise.all([
      api.get<{ id: string; name: string }[] | null>('/assets'),
      api.get<string[] | null>('/authorised/selected', { params: { key: 'assetId', ...holder } }),
    ]);
    const granted = new Set(taken ?? []);
    return (all ?? []).map((a) => ({ value: a.id, label: a.name, disabled: granted.has(a.id) }));
  },
  strategies: () => strategyOptions(api),
  bind: (holder: GrantHolder, { assetIds, ...rest }: AssetGrantBody) =>
    api.post<null>('/authorised/assets', { assetIds, ...holder, ...grantTerms(rest) }, quiet),
  unbind: (id: string) => api.delete<unknown>(`/authorised/${encodeURIComponent(id)}`),
  explain: (userId: string, assetId: string) => explainAccess(api, userId, assetId),
});
