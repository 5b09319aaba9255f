import type { ApiClient } from '../../api/client';
import type { PageQuery, PageResult, PageSource } from './types';

/** `GET url` with the page query as its parameters, as a ServerTable `fetchPage` that names its URL (see PageSource). */
export function pageSource<Row>(api: ApiClient, url: string): PageSource<Row> {
  return Object.assign((query: PageQuery) => api.get<PageResult<Row>>(url, { params: query }), { url });
}

/** The page's data the entry fetched at start, if `fetchPage` names its URL and the answer is here (see PageSource). */
export function earlyPage<Row>(api: ApiClient, fetchPage: (query: PageQuery) => Promise<PageResult<Row>>, query: PageQuery): PageResult<Row> | undefined {
  const url = 'url' in fetchPage && typeof fetchPage.url === 'string' ? fetchPage.url : null;
  return url === null ? undefined : api.earlyData<PageResult<Row>>(url, query);
}
