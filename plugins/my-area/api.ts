import { type ApiClient, pageSource } from '@/core';
import { type AssetListRow, type SavedCommandBody, type SavedCommandRow, savedCommandApi } from '@/domain';

/**
 * A row of `GET /worker/assets/paging` (AssetForPage as the portal gets it): the assets the caller may open. The
 * address is hidden from users (`ip` '' and `port` 0), so nothing here shows it.
 */
export type MyAssetRow = AssetListRow;

/** A row of `GET /worker/commands/paging`: the caller's own commands. */
export type MyCommandRow = SavedCommandRow;

/** POST /worker/commands, PUT /worker/commands/:id, and what GET /worker/commands/:id gives the form. */
export type MyCommandBody = SavedCommandBody;

export const KEYS = {
  assets: ['my-area', 'assets'] as const,
  tags: ['my-area', 'asset-tags'] as const,
  commands: ['my-area', 'commands'] as const,
  /** A command's key is `[...command, id]`. */
  command: ['my-area', 'command'] as const,
};

export const myAssetApi = (api: ApiClient) => ({
  page: pageSource<MyAssetRow>(api, '/worker/assets/paging'),
  tags: async (): Promise<{ value: string; label: string }[]> =>
    (await api.get<string[] | null>('/worker/assets/tags'))?.filter((tag) => tag !== '' && tag !== '-').map((tag) => ({ value: tag, label: tag })) ?? [],
});

export const myCommandApi = (api: ApiClient) => savedCommandApi<MyCommandRow>(api, '/worker/commands');
