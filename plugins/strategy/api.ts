import { type ApiClient, type FieldOption, pageSource } from '@/core';
import { explainAccess, type GrantTabRow, grantTerms, STRATEGY_FLAGS, strategyOptions } from '@/domain';

/** The eight flags of a strategy, in the order the list, the form and the detail page show them. */
export const FLAGS = STRATEGY_FLAGS;
export type Flag = (typeof FLAGS)[number];
export type Flags = Record<Flag, boolean>;

/** A strategy as `GET /strategies/paging`, `GET /strategies` and `GET /strategies/:id` give it. */
export interface Strategy extends Flags {
  id: string;
  name: string;
  created: string;
}

/** POST /strategies and PUT /strategies/:id. */
// A type, not an interface: the form kit needs its index signature.
export type StrategyBody = Flags & { name: string };

export const KEYS = {
  list: ['strategy', 'list'] as const,
  one: (id: string) => ['strategy', 'one', id] as const,
};

const ids = (list: readonly (string | number)[]) => list.map((id) => encodeURIComponent(String(id))).join(',');

// Record loads and saves are silent (the dialog shows their errors); deletes toast the server's refusal.
const quiet = { silent: true } as const;

export const strategyApi = (api: ApiClient) => ({
  page: pageSource<Strategy>(api, '/strategies/paging'),
  // The detail page and the dialog show a failed load where the record would be.
  get: (id: string) => api.get<Strategy>(`/strategies/${encodeURIComponent(id)}`, quiet),
  create: (body: StrategyBody) => api.post<unknown>('/strategies', body, quiet),
  update: (id: string, body: StrategyBody) => api.put<unknown>(`/strategies/${encodeURIComponent(id)}`, body, quiet),
  remove: (list: readonly (string | number)[]) => api.delete<null>(`/strategies/${ids(list)}`),
});

/** A grant row of `GET /authorised/paging`: one asset and exactly one user or user group, with its terms. */
export interface GrantRow extends GrantTabRow {
  kind: 'user' | 'group';
  /** '' for a group's grant. */
  userId: string;
  userName: string;
  /** '' for a user's grant. */
  userGroupId: string;
  userGroupName: string;
  assetId: string;
  assetName: string;
  protocol: string;
}

/** POST /authorised/bulk: every subject × every asset, one set of terms. */
export interface BulkGrant {
  userIds: string[];
  userGroupIds: string[];
  assetIds: string[];
  strategyId: string;
  validFrom: string;
  validUntil: string;
}

export const GRANT_KEYS = {
  /** The list and everything derived from the grants (invalidated after a change). */
  list: ['strategy', 'authorisation'] as const,
  choices: (what: 'users' | 'groups' | 'assets' | 'strategies') => ['strategy', 'authorisation-choices', what] as const,
  members: (userGroupId: string) => ['strategy', 'authorisation-members', userGroupId] as const,
  explain: (userId: string, assetId: string) => ['strategy', 'authorisation-explain', userId, assetId] as const,
};

/** `GET /users`, `/user-groups`, `/assets`, `/strategies` as a picker's options. */
const options = async (api: ApiClient, url: string, label: (r: { id: string; name?: string; nickname?: string; username?: string }) => string) =>
  ((await api.get<{ id: string; name?: string; nickname?: string; username?: string }[] | null>(url)) ?? []).map((r) => ({ value: r.id, label: label(r) }));

export const grantApi = (api: ApiClient) => ({
  page: pageSource<GrantRow>(api, '/authorised/paging'),
  grant: (body: BulkGrant) => {
    const { strategyId, validFrom, validUntil, ...subjects } = body;
    return api.post<{ granted: number }>('/authorised/bulk', { ...subjects, ...grantTerms({ strategyId, validFrom, validUntil }) }, quiet);
  },
  remove: (list: readonly (string | number)[]) => api.delete<unknown>(`/authorised/${ids(list)}`),
  users: (): Promise<FieldOption[]> =>
    options(api, '/users', (u) => (u.nickname && u.username && u.nickname !== u.username ? `${u.nickname} (${u.username})` : (u.nickname ?? u.username ?? u.id))),
  groups: (): Promise<FieldOption[]> => options(api, '/user-groups', (g) => g.name ?? g.id),
  assets: (): Promise<FieldOption[]> => options(api, '/assets', (a) => a.name ?? a.id),
  strategies: () => strategyOptions(api),
  members: async (userGroupId: string): Promise<FieldOption[]> =>
    ((await api.get<{ members: { id: string; name: string }[] | null }>(`/user-groups/${encodeURIComponent(userGroupId)}`, quiet)).members ?? []).map((m) => ({
      value: m.id,
      label: m.name,
    })),
  explain: (userId: string, assetId: string) => explainAccess(api, userId, assetId),
});
