import type { ApiClient, FieldOption, PageQuery, PageResult } from '@/core';
import { explainAccess, type GrantTabRow, grantTerms, strategyOptions } from '@/domain';

/** Who an asset is granted to from its detail page: users or user groups. */
export type Grantee = 'user' | 'group';

/** A row of `GET /authorised/users/paging?assetId` (UserPageForAuthorised + window and state). */
export interface UserGrantRow extends GrantTabRow {
  userId: string;
  /** The user's nickname. */
  userName: string;
}

/** A row of `GET /authorised/user-groups/paging?assetId`. */
export interface GroupGrantRow extends GrantTabRow {
  userGroupId: string;
  userGroupName: string;
}

export interface GrantBody {
  ids: string[];
  strategyId?: string;
  validFrom?: string;
  validUntil?: string;
}

export const GRANT_KEYS = {
  /** Everything about an asset's grants: its lists and the already-granted lookups (invalidated after a change). */
  of: (assetId: string) => ['asset', 'grants', assetId] as const,
  list: (assetId: string, who: Grantee) => ['asset', 'grants', assetId, who, 'list'] as const,
  choices: (assetId: string, who: Grantee) => ['asset', 'grants', assetId, who, 'choices'] as const,
  strategies: ['asset', 'strategy-options'] as const,
  explain: (userId: string, assetId: string) => ['asset', 'explain', userId, assetId] as const,
};

const PATHS: Record<Grantee, { page: string; bind: string; list: string; key: string; ids: string }> = {
  user: { page: '/authorised/users/paging', bind: '/authorised/users', list: '/users', key: 'userId', ids: 'userIds' },
  group: { page: '/authorised/user-groups/paging', bind: '/authorised/user-groups', list: '/user-groups', key: 'userGroupId', ids: 'userGroupIds' },
};

// The bind dialog shows its errors inline: its call is silent (the API client would toast it otherwise).
const quiet = { silent: true } as const;

export const grantApi = (api: ApiClient) => ({
  userPage: (query: PageQuery) => api.get<PageResult<UserGrantRow>>(PATHS.user.page, { params: query }),
  groupPage: (query: PageQuery) => api.get<PageResult<GroupGrantRow>>(PATHS.group.page, { params: query }),
  /** Users (by nickname) or groups, those the asset is already granted to disabled. */
  choices: async (who: Grantee, assetId: string): Promise<FieldOption[]> => {
    const [all, taken] = await Promise.all([
      api.get<{ id: string; name?: string; nickname?: string }[] | null>(PATHS[who].list),
      api.get<string[] | null>('/authorised/selected', { params: { key: PATHS[who].key, assetId } }),
    ]);
    const granted = new Set(taken ?? []);
    return (all ?? []).map((r) => ({ value: r.id, label: (who === 'user' ? r.nickname : r.name) ?? r.id, disabled: granted.has(r.id) }));
  },
  strategies: () => strategyOptions(api),
  bind: (who: Grantee, assetId: string, { ids, ...rest }: GrantBody) =>
    api.post<null>(PATHS[who].bind, { [PATHS[who].ids]: ids, assetId, ...grantTerms(rest) }, quiet),
  unbind: (id: string) => api.delete<unknown>(`/authorised/${encodeURIComponent(id)}`),
  explain: (userId: string, assetId: string) => explainAccess(api, userId, assetId),
});
