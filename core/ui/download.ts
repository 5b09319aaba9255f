import { useCallback } from 'react';
import type { ApiClient } from '../api/client';
import { useApi } from '../app/context';

/** Request parameters of a download (empty values are left out). */
export type DownloadQuery = Record<string, string | number | boolean | null | undefined>;

/**
 * The URL of a file the server sends to signed-in users only. A download is a plain navigation, which cannot carry the
 * `X-Auth-Token` header, so the token goes in the query, as 1.3.9's server reads it (contract §1.3), after the
 * console's language (`lng`).
 */
export function downloadUrl(api: Pick<ApiClient, 'baseUrl' | 'token'> & Partial<Pick<ApiClient, 'language'>>, path: string, query: DownloadQuery = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  }
  // Nor can it carry Accept-Language: the server reads the console's language from `lng` (its refusals, a socket's
  // close reasons).
  const lng = api.language?.();
  if (lng && !params.has('lng')) params.set('lng', lng);
  const token = api.token();
  if (token) params.set('X-Auth-Token', token);
  const search = params.toString();
  return `${api.baseUrl}${path}${search ? `?${search}` : ''}`;
}

/** Starts the browser's download of `url` (a link clicked on the user's behalf; the page stays). */
export function startDownload(url: string, fileName = ''): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
}

/** Downloads a server file with the signed-in user's token: `download('/assets/export', filters)`. */
export function useDownload(): (path: string, query?: DownloadQuery) => void {
  const api = useApi();
  return useCallback((path, query) => startDownload(downloadUrl(api, path, query)), [api]);
}

/**
 * A link target for a text file made in the browser (a sample to fill in), as a `data:` URL. With `bom` the text
 * starts with a UTF-8 byte-order mark, so spreadsheet programs read non-ASCII text right.
 */
export function textFileHref(content: string, { type = 'text/plain', bom = false }: { type?: string; bom?: boolean } = {}): string {
  return `data:${type};charset=utf-8,${encodeURIComponent(`${bom ? '\uFEFF' : ''}${content}`)}`;
}
