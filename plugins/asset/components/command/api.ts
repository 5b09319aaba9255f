import type { ApiClient } from '@/core';
import { type SavedCommandBody, type SavedCommandRow, savedCommandApi } from '@/domain';

/** A row of GET /commands/paging (CommandForPage). */
export interface CommandRow extends SavedCommandRow {
  owner: string;
  ownerName: string;
}

/** POST /commands, PUT /commands/:id, and what GET /commands/:id gives the form. */
export type CommandBody = SavedCommandBody;

export const COMMAND_KEYS = {
  list: ['asset', 'commands'] as const,
  /** A record's key is `[...record, id]`. */
  record: ['asset', 'command'] as const,
};

export const commandApi = (api: ApiClient) => ({
  ...savedCommandApi<CommandRow>(api, '/commands'),
  changeOwner: (id: string, owner: string) =>
    api.post<unknown>(`/commands/${encodeURIComponent(id)}/change-owner`, undefined, { params: { owner }, silent: true }),
});
