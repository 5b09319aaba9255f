import { type ApiClient, type PageSource, pageSource, type SearchFieldOption } from '@/core';

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

/** What the operation log records (server/modules/logs/operations.ts): deleting audit records, and refusals. */
export const OPERATION_ACTIONS = [
  'session-delete',
  'session-clear',
  'login-log-delete',
  'login-log-clear',
  'storage-log-delete',
  'storage-log-clear',
  'session-create',
  'file-upload',
  'file-download',
  'file-mkdir',
  'file-rm',
  'file-rename',
  'file-edit',
] as const;
export type OperationAction = (typeof OPERATION_ACTIONS)[number];

/** Why an operation was refused. */
export const REFUSAL_REASONS = ['strategy', 'access-revoked', 'no-grant', 'grant-pending', 'grant-expired', 'account-disabled', 'asset-missing'] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

/** An event of the operation log (ours, not 1.3.9's): read-only, the console deletes nothing from it. */
export interface OperationLog {
  id: string;
  userId: string;
  /** The account's username at the time. */
  username: string;
  clientIp: string;
  action: string;
  /** What it acted on (names, paths, times); '' for a whole list. */
  target: string;
  /** Records deleted, 1 for a refused operation. */
  count: number;
  result: 'success' | 'refused';
  /** A refusal's reason code; '' on success. */
  reason: string;
  created: string;
}

export const KEYS = {
  loginLogs: ['log-audit', 'login-logs'] as const,
  storageLogs: ['log-audit', 'storage-logs'] as const,
  operationLogs: ['log-audit', 'operation-logs'] as const,
  assets: ['log-audit', 'asset-options'] as const,
  users: ['log-audit', 'user-options'] as const,
};

const ids = (list: readonly (string | number)[]) => list.map((id) => encodeURIComponent(String(id))).join(',');

/** How many records a whole list holds, whatever the search shown (what 清空 deletes). */
const totalOf = async (page: PageSource<unknown>) => (await page({ pageIndex: 1, pageSize: 1, order: '', field: '' })).total;

export const loginLogApi = (api: ApiClient) => ({
  page: pageSource<LoginLog>(api, '/login-logs/paging'),
  total: () => totalOf(pageSource<LoginLog>(api, '/login-logs/paging')),
  remove: (list: readonly (string | number)[]) => api.delete<null>(`/login-logs/${ids(list)}`),
  clear: () => api.post<null>('/login-logs/clear'),
});

export const storageLogApi = (api: ApiClient) => ({
  page: pageSource<StorageLog>(api, '/storage-logs/paging'),
  total: () => totalOf(pageSource<StorageLog>(api, '/storage-logs/paging')),
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

export const operationLogApi = (api: ApiClient) => ({
  page: pageSource<OperationLog>(api, '/operation-logs/paging'),
});
