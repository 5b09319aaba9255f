import { type ApiClient, pageSource } from '@/core';
import type { AssetListRow, SavedCommandBody } from '@/domain';

/**
 * A row of `GET /worker/assets/paging` (AssetForPage as the portal gets it): the assets the caller may open. The
 * address is hidden from users (`ip` '' and `port` 0), so nothing here shows it.
 */
export type MyAssetRow = AssetListRow;

/** A row of `GET /worker/commands/paging`: the caller's own commands. */
export interface MyCommandRow {
  id: string;
  name: string;
  /** Sent to a terminal as it is: one command per line. */
  content: string;
  created: string;
}

/** POST /worker/commands, PUT /worker/commands/:id, and what GET /worker/commands/:id gives the form. */
export type MyCommandBody = SavedCommandBody;

export const KEYS = {
  assets: ['my-area', 'assets'] as const,
  tags: ['my-area', 'asset-tags'] as const,
  commands: ['my-area', 'commands'] as const,
  /** A command's key is `[...command, id]`. */
  command: ['my-area', 'command'] as const,
};

const ids = (list: readonly (string | number)[]) => list.map((id) => encodeURIComponent(String(id))).join(',');

// Record loads and saves are silent (the dialog shows their errors); deletes toast the server's refusal.
const quiet = { silent: true } as const;

export const myAssetApi = (api: ApiClient) => ({
  page: pageSource<MyAssetRow>(api, '/worker/assets/paging'),
  tags: async (): Promise<{ value: string; label: string }[]> =>
    (await api.get<string[] | null>('/worker/assets/tags'))?.filter((tag) => tag !== '' && tag !== '-').map((tag) => ({ value: tag, label: tag })) ?? [],
});

export const myCommandApi = (api: ApiClient) => ({
  page: pageSource<MyCommandRow>(api, '/worker/commands/paging'),
  get: (id: string) => api.get<MyCommandBody>(`/worker/commands/${encodeURIComponent(id)}`, quiet),
  create: (body: MyCommandBody) => api.post<unknown>('/worker/commands', body, quiet),
  update: (id: string, body: MyCommandBody) => api.put<null>(`/worker/commands/${encodeURIComponent(id)}`, body, quiet),
  remove: (list: readonly (string | number)[]) => api.delete<null>(`/worker/commands/${ids(list)}`),
});
