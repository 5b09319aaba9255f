import { type ApiClient, pageSource } from '@/core';

export type GatewayAccountType = 'custom' | 'private-key';

/** A row of GET /access-gateways/paging (AccessGatewayForPage), with the live state of its SSH connection. */
export interface GatewayRow {
  id: string;
  name: string;
  ip: string;
  port: number;
  accountType: string;
  username: string;
  created: string;
  connected: boolean;
  /** Why it is not connected (or what it is doing). */
  message: string;
}

/** GET /access-gateways/:id: no secret, only whether each is stored (agreed wire). */
export interface GatewayRecord {
  id: string;
  name: string;
  ip: string;
  port: number;
  accountType: string;
  username: string;
  passwordSet?: boolean;
  privateKeySet?: boolean;
  passphraseSet?: boolean;
  /** The pinned SSH host key's fingerprint (`SHA256:…`), '' while none is recorded. */
  hostKey?: string;
}

/** POST /access-gateways and PUT /access-gateways/:id. A secret left out (or empty) of a PUT keeps the stored one. */
export interface GatewayBody {
  name: string;
  ip: string;
  port: number;
  accountType: GatewayAccountType;
  username: string;
  password?: string;
  privateKey?: string;
  passphrase?: string;
  /** The host key to pin; '' records it at the next connection; an unchanged echo is no trust. */
  hostKey?: string;
}

/** POST /access-gateways/:id/reconnect: the outcome of a fresh SSH handshake. */
export interface GatewayState {
  connected: boolean;
  message: string;
}

export const GATEWAY_KEYS = {
  list: ['asset', 'gateways'] as const,
  one: (id: string) => ['asset', 'gateway', id] as const,
};

const ids = (list: readonly (string | number)[]) => list.map((id) => encodeURIComponent(String(id))).join(',');

// Record loads and saves are silent (the dialog shows their errors); deletes and tests toast the server's refusal.
const quiet = { silent: true } as const;

export const gatewayApi = (api: ApiClient) => ({
  page: pageSource<GatewayRow>(api, '/access-gateways/paging'),
  get: (id: string) => api.get<GatewayRecord>(`/access-gateways/${encodeURIComponent(id)}`, quiet),
  create: (body: GatewayBody) => api.post<unknown>('/access-gateways', body, quiet),
  update: (id: string, body: GatewayBody) => api.put<null>(`/access-gateways/${encodeURIComponent(id)}`, body, quiet),
  remove: (list: readonly (string | number)[]) => api.delete<null>(`/access-gateways/${ids(list)}`),
  /** Drops the pinned host key (the next connection records the host's): the owner's or the super admin's call. */
  trustHostKey: (id: string) => api.post<{ hostKey: string }>(`/access-gateways/${encodeURIComponent(id)}/trust-host-key`, {}),
  reconnect: (id: string) => api.post<GatewayState>(`/access-gateways/${encodeURIComponent(id)}/reconnect`),
});

/** 1.3.9 stored `password` for what Jumpgate calls `custom`: anything but a key is a password login. */
export const isKeyLogin = (accountType: string) => accountType === 'private-key';
