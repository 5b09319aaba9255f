import { type ApiClient, pageSource, type SearchFieldOption } from '@/core';

/** A login attempt (contract §3.10); `id` is our own id, never the token. */
export interface LoginLog {
  id: string;
  username: string;
  clientIp: string;
  /** `terminal` for logins through the built-in SSH server. */
  clientUserAgent: string;
  loginTime: string;
  /** `0001-01-01 00:00:00` while the login lasts (or for a failed attempt). */
  logoutTime: string;
  remember: boolean;
  /** '1' success, '0' failure. */
  state: '1' | '0';
  /** Why a failed attempt failed. */
  reason: string;
}

/** The file operations sessions log (wire-13.md), `rename`'s fileName is `old -> new`. */
export const STORAGE_ACTIONS = ['upload', 'download', 'mkdir', 'rm', 'rename', 'edit'] as const;
export type StorageAction = (typeof STORAGE_ACTIONS)[number];

/** A file operation in a session (contract §3.11), with the asset's name and the user's nickname. */
export interface StorageLog {
  id: string;
  assetId: string;
  assetName: string;
  sessionId: string;
  userId: string;
  userName: string;
  action: string;
  fileName: string;
  created: string;
}

export const KEYS = {
  loginLogs: ['log-audit', 'login-logs'] as const,
  storageLogs: ['log-audit', 'storage-logs'] as const,
  assets: ['log-audit', 'asset-options'] as const,
  users: ['log-audit', 'user-options'] as const,
};

const ids = (list: readonly (string | number)[]) => list.map((id) => encodeURIComponent(String(id))).join(',');

export const loginLogApi = (api: ApiClient) => ({
  page: pageSource<LoginLog>(api, '/login-logs/paging'),
  remove: (list: readonly (string | number)[]) => api.delete<null>(`/login-logs/${ids(list)}`),
  clear: () => api.post<null>('/login-logs/clear'),
});

export const storageLogApi = (api: ApiClient) => ({
  page: pageSource<StorageLog>(api, '/storage-logs/paging'),
  remove: (list: readonly (string | number)[]) => api.delete<null>(`/storage-logs/${ids(list)}`),
  clear: () => api.post<null>('/storage-logs/clear'),
  /** The filters' choices (the storage-log key grants both lists). */
  assetOptions: async (): Promise<SearchFieldOption[]> =>
    ((await api.get<{ id: string; name: string }[] | null>('/assets')) ?? []).map((a) => ({ value: a.id, label: a.name })),
  userOptions: async (): Promise<SearchFieldOption[]> =>
    ((await api.get<{ id: string; username: string; nickname: string }[] | null>('/users')) ?? []).map((u) => ({
      value: u.id,
      label: u.nickname || u.username,
    })),
});
