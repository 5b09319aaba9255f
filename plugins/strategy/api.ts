import { type ApiClient, pageSource } from '@/core';

/** The eight flags of a strategy, in the order the list, the form and the detail page show them. */
export const FLAGS = ['upload', 'download', 'delete', 'rename', 'edit', 'createDir', 'copy', 'paste'] as const;
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
