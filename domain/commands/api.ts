import { type ApiClient, pageSource } from '@/core';
import type { SavedCommandBody, SavedCommandRow, SavedCommandsApi } from './SavedCommands';

const one = (base: string, id: string) => `${base}/${encodeURIComponent(id)}`;
const many = (base: string, list: readonly (string | number)[]) => `${base}/${list.map((id) => encodeURIComponent(String(id))).join(',')}`;

// Record loads and saves are silent (the dialog shows their errors); deletes toast the server's refusal.
const quiet = { silent: true } as const;

/** The saved-command calls under `base`: `/commands` (every owner's, for administrators) or `/worker/commands` (the caller's). */
export function savedCommandApi<Row extends SavedCommandRow>(api: ApiClient, base: string): SavedCommandsApi<Row> {
  return {
    page: pageSource<Row>(api, `${base}/paging`),
    get: (id) => api.get<SavedCommandBody>(one(base, id), quiet),
    create: (body) => api.post<unknown>(base, body, quiet),
    update: (id, body) => api.put<null>(one(base, id), body, quiet),
    remove: (list) => api.delete<null>(many(base, list)),
  };
}
