import { type ApiClient, pageSource } from '@/core';
import type { SavedCommandBody } from '@/domain';

/** A row of GET /commands/paging (CommandForPage). */
export interface CommandRow {
  id: string;
  name: string;
  /** Sent to a terminal as it is: one command per line. */
  content: string;
  owner: string;
  ownerName: string;
  created: string;
}

/** POST /commands, PUT /commands/:id, and what GET /commands/:id gives the form. */
export type CommandBody = SavedCommandBody;

export const COMMAND_KEYS = {
  list: ['asset', 'commands'] as const,
  /** A record's key is `[...record, id]`. */
  record: ['asset', 'command'] as const,
};

const ids = (list: readonly (string | number)[]) => list.map((id) => encodeURIComponent(String(id))).join(',');

// Record loads and saves are silent (the dialogs show their errors); deletes toast the server's refusal.
const quiet = { silent: true } as const;

export const commandApi = (api: ApiClient) => ({
  page: pageSource<CommandRow>(api, '/commands/paging'),
  get: (id: string) => api.get<CommandBody>(`/commands/${encodeURIComponent(id)}`, quiet),
  create: (body: CommandBody) => api.post<unknown>('/commands', body, quiet),
  update: (id: string, body: CommandBody) => api.put<null>(`/commands/${encodeURIComponent(id)}`, body, quiet),
  remove: (list: readonly (string | number)[]) => api.delete<null>(`/commands/${ids(list)}`),
  changeOwner: (id: string, owner: string) =>
    api.post<unknown>(`/commands/${encodeURIComponent(id)}/change-owner`, undefined, { params: { owner }, silent: true }),
});
