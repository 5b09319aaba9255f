import { type ApiClient, type FieldOption, pageSource } from '@/core';

export type Protocol = 'ssh' | 'rdp' | 'vnc' | 'telnet' | 'kubernetes';
export type AccountType = 'custom' | 'private-key' | 'credential';

/** A row of `GET /assets/paging` (AssetForPage). */
export interface AssetRow {
  id: string;
  name: string;
  description: string;
  ip: string;
  protocol: Protocol;
  port: number;
  active: boolean;
  activeMessage: string;
  created: string;
  lastAccessTime: string;
  /** Comma string; `-` = none. */
  tags: string;
  owner: string;
  ownerName: string;
}

/**
 * `GET /assets/:id`: the asset's fields merged with its protocol attributes (keys named as the attributes, e.g.
 * `ssh-mode`, string values). Never a secret: the `…Set` booleans say which are stored.
 */
export interface AssetRecord {
  id: string;
  name: string;
  protocol: Protocol;
  ip: string;
  port: number;
  accountType: AccountType | '';
  username?: string;
  credentialId?: string;
  accessGatewayId?: string;
  description?: string;
  tags?: string;
  active?: boolean;
  activeMessage?: string;
  created?: string;
  lastAccessTime?: string;
  owner?: string;
  ownerName?: string;
  passwordSet?: boolean;
  privateKeySet?: boolean;
  passphraseSet?: boolean;
  socksProxyPasswordSet?: boolean;
  clientKeySet?: boolean;
  /** SSH: the pinned host key's fingerprint (`SHA256:…`), '' while none is recorded. */
  hostKey?: string;
  [attribute: string]: unknown;
}

/** What POST/PUT `/assets` take: the asset's fields and its protocol's attributes as one flat object. */
export type AssetBody = Record<string, string | number | boolean>;

export interface TcpingResult {
  active: boolean;
  message: string;
}

/** One asset's answer in a batch check (`POST /assets/tcping`). */
export interface TcpingItem extends TcpingResult {
  id: string;
}

/** One CSV line as the import reads it (`row` = 1-based line number). */
export interface ImportRow {
  row: number;
  name: string;
  protocol: string;
  ip: string;
  port: number | string;
  username: string;
  tags: string[];
  error: string | null;
}

export interface ImportResult {
  successCount: number;
  errorCount: number;
  /** Line → why it was not imported. */
  data: Record<string, string>;
  rows?: ImportRow[];
}

interface Named {
  id: string;
  name: string;
}

// Query keys: the list's base key is what a change invalidates; option lists are shared by the screens.
export const ASSET_KEYS = {
  list: ['asset', 'assets'] as const,
  one: (id: string) => ['asset', 'asset', id] as const,
  tags: ['asset', 'tags'] as const,
  credentials: ['asset', 'credential-options'] as const,
  gateways: ['asset', 'gateway-options'] as const,
};

const at = (id: string) => `/assets/${encodeURIComponent(id)}`;
const ids = (list: readonly (string | number)[]) => list.map((id) => encodeURIComponent(String(id))).join(',');
const named = (list: readonly Named[]): FieldOption[] => list.map((n) => ({ value: n.id, label: n.name }));

// Forms show their errors inline: their calls are silent (the API client would toast them otherwise).
const quiet = { silent: true } as const;

export const assetApi = (api: ApiClient) => ({
  page: pageSource<AssetRow>(api, '/assets/paging'),
  get: (id: string) => api.get<AssetRecord>(at(id), quiet),
  create: (body: AssetBody) => api.post<null>('/assets', body, quiet),
  update: (id: string, body: AssetBody) => api.put<null>(at(id), body, quiet),
  remove: (list: readonly (string | number)[]) => api.delete<null>(`/assets/${ids(list)}`),
  tcping: (id: string) => api.post<TcpingResult>(`${at(id)}/tcping`),
  tcpingMany: (list: readonly string[]) => api.post<TcpingItem[]>('/assets/tcping', { ids: list }),
  /** Drops the pinned host key (the next login records the host's): the owner's or the super admin's call. */
  trustHostKey: (id: string) => api.post<{ hostKey: string }>(`${at(id)}/trust-host-key`, {}),
  changeOwner: (id: string, owner: string) => api.post<string>(`${at(id)}/change-owner`, undefined, { ...quiet, params: { owner } }),
  /** The CSV upload; `dryRun` checks every line and writes nothing. */
  importCsv: (file: File, dryRun: boolean) => {
    const form = new FormData();
    form.append('file', file);
    return api.post<ImportResult>('/assets/import', form, { ...quiet, params: dryRun ? { dryRun: true } : undefined });
  },
  tags: async (): Promise<{ value: string; label: string }[]> =>
    (await api.get<string[] | null>('/tags'))?.filter((tag) => tag !== '' && tag !== '-').map((tag) => ({ value: tag, label: tag })) ?? [],
  credentials: async () => named((await api.get<Named[] | null>('/credentials', quiet)) ?? []),
  gateways: async () => named((await api.get<Named[] | null>('/access-gateways', quiet)) ?? []),
});

export type AssetApi = ReturnType<typeof assetApi>;
