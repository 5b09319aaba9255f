import { type ApiClient, pageSource } from '@/core';

export type CredentialType = 'custom' | 'private-key';

/** A row of GET /credentials/paging (CredentialForPage): never a secret. */
export interface CredentialRow {
  id: string;
  name: string;
  type: CredentialType;
  username: string;
  owner: string;
  ownerName: string;
  created: string;
}

/** GET /credentials/:id: no secret, only whether each is stored (agreed wire; a 1.3.9 server sends none of these). */
export interface CredentialRecord {
  id: string;
  name: string;
  type: CredentialType;
  username: string;
  passwordSet?: boolean;
  privateKeySet?: boolean;
  passphraseSet?: boolean;
}

/** POST /credentials and PUT /credentials/:id. A secret left out (or empty) of a PUT keeps the stored one. */
export interface CredentialBody {
  name: string;
  type: CredentialType;
  username: string;
  password?: string;
  privateKey?: string;
  passphrase?: string;
}

export const KEYS = {
  list: ['credential', 'list'] as const,
  one: (id: string) => ['credential', 'one', id] as const,
};

const ids = (list: readonly (string | number)[]) => list.map((id) => encodeURIComponent(String(id))).join(',');

// Record loads and saves are silent: the dialog shows their errors. Deletes toast the server's refusal.
const quiet = { silent: true } as const;

export const credentialApi = (api: ApiClient) => ({
  page: pageSource<CredentialRow>(api, '/credentials/paging'),
  get: (id: string) => api.get<CredentialRecord>(`/credentials/${encodeURIComponent(id)}`, quiet),
  create: (body: CredentialBody) => api.post<unknown>('/credentials', body, quiet),
  update: (id: string, body: CredentialBody) => api.put<null>(`/credentials/${encodeURIComponent(id)}`, body, quiet),
  remove: (list: readonly (string | number)[]) => api.delete<null>(`/credentials/${ids(list)}`),
});

