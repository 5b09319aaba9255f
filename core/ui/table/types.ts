import type { QueryKey } from '@tanstack/react-query';
import type { ReactElement, ReactNode, Ref } from 'react';
import type { ConfirmOptions } from '../ConfirmDialog';
import type { KeyGate } from '../../../shared/manifest.ts';
import type { StatusTone } from '../StatusBadge';
import type { AddButtonProps, RowAction } from './RowActions';

export type SortOrder = 'ascend' | 'descend' | '';

/** The paging parameters of every 1.3.9 list call (`GET /<group>/paging?…`). */
export interface PageParams {
  /** 1-based. */
  pageIndex: number;
  pageSize: number;
  order: SortOrder;
  /** Sort field, '' when unsorted. */
  field: string;
}

/** Paging parameters plus the applied search values (empty values are left out). */
export type PageQuery = PageParams & { [filter: string]: string | number };

export interface PageResult<Row> {
  total: number;
  items: Row[];
}

/**
 * A page loader that names its GET (made with `pageSource`): when the entry already fetched that page at start (the
 * page declares it in `opensWith`), ServerTable shows the answer in its first render instead of an empty table.
 */
export interface PageSource<Row> {
  (query: PageQuery): Promise<PageResult<Row>>;
  /** The GET's path; the page query is its query string. */
  readonly url: string;
}

export type RowId = string | number;

export interface ServerTableColumn<Row> {
  /** Unique per table; also the key in the persisted column settings. */
  key: string;
  /** Already translated. */
  header: string;
  render: (row: Row, index: number) => ReactNode;
  /** Server sort field; makes the header a sort button (ascend → descend → none). */
  sortField?: string;
  width?: number | string;
  minWidth?: number | string;
  /** Listed in 列设置 and may be hidden (default true). */
  hideable?: boolean;
  /** Hidden until the user shows it in 列设置. */
  defaultHidden?: boolean;
  /** Shows the cell as a coloured status badge (online/offline, enabled/disabled…) of this tone. */
  tone?: (row: Row) => StatusTone;
  /** The cell links here (e.g. the record's detail page) when the user holds `menu` (always without one). */
  link?: { to: (row: Row) => string; menu?: KeyGate };
}

export interface SearchFieldOption {
  value: string;
  label: string;
}

export interface SearchField {
  /** Query parameter name. */
  name: string;
  /** Already translated. */
  label: string;
  /**
   * `text` (default), `select` (with a leading 全部), `radio` (segmented, with a leading 全部 unless `allowAll` is
   * false), `multiselect` (any number of options; the value is their values joined with `,`, as 1.3.9's `tags`).
   */
  type?: 'text' | 'select' | 'radio' | 'multiselect';
  options?: readonly SearchFieldOption[];
  /** For `select` / `multiselect`: options fetched from the server while the search form shows (e.g. `GET /tags`). */
  remoteOptions?: { queryKey: QueryKey; load: () => Promise<readonly SearchFieldOption[]> };
  /**
   * How a non-empty value goes into the request (default: as `name`), e.g. a network `host:port` split into `ip` and
   * `port`. Empty results are left out.
   */
  toQuery?: (value: string) => Record<string, string>;
  placeholder?: string;
  /** Initial and reset value. */
  defaultValue?: string;
  /**
   * The value on first show only, e.g. taken from the page's URL (`/login-log?state=0` from a dashboard link); 重置
   * still goes back to `defaultValue`.
   */
  initialValue?: string;
  /** For select and radio: offer 全部 (value ''). Default true. */
  allowAll?: boolean;
}

export interface BatchAction<Row> {
  key: string;
  label: string;
  icon?: ReactElement;
  danger?: boolean;
  /** Gate: hidden unless the user holds any of these menu keys. */
  menu?: KeyGate;
  /**
   * Ask first: `true` = the standard 您确定要删除选中的行吗?, or options of your own (computed from the selected rows if
   * a function; a `danger` action's dialog has a red 确认 unless they say otherwise). Cancel keeps the selection.
   */
  confirm?: true | ConfirmOptions | ((rows: Row[]) => ConfirmOptions);
  /**
   * The selected rows it acts on (default: all): the others are left out of the confirmation and the call, and the
   * button is disabled while none is selected (e.g. the standard 删除 skips rows whose `remove.disabled` holds).
   */
  appliesTo?: (row: Row) => boolean;
  /** Selection is cleared once the returned promise settles. */
  onClick: (ids: RowId[], rows: Row[]) => unknown;
}

/** The standard delete of a list: a toast (删除成功) and a reload once it is done. */
export interface RemoveAction<Row> {
  /**
   * Gate of both buttons, e.g. `user-del`. Left out only where every account that sees the list may delete from it
   * (the portal's own records, e.g. 我的指令).
   */
  menu?: KeyGate;
  /** Deletes the records (one for a row, the selection for the batch). */
  run: (ids: RowId[]) => Promise<unknown>;
  /** Also a batch 删除 for the selection, asked with this title (default 您确定要删除选中的行吗?). */
  batch?: true | ((rows: Row[]) => string);
  /** Shown but not offered on this row (e.g. a built-in record). */
  disabled?: (row: Row) => boolean;
}

export interface ServerTableHandle {
  /** Invalidates the table's base query key (every page, every filter) and refetches the shown page. */
  reload: () => Promise<void>;
  clearSelection: () => void;
  /** The applied search as request parameters (after `toQuery`, with `extraParams`; no paging or sort), e.g. for an export of the filtered list. */
  searchQuery: () => Record<string, string | number>;
}

/** How a table whose rows also read as cards shows them (`cards` given): the user switches between the two. */
export type TableView = 'table' | 'cards';

export interface ServerTableCards<Row> {
  /** A row's card: its content (title, badges…); the row actions follow below it. */
  render: (row: Row) => ReactNode;
  /** The view shown first (default `table`). */
  defaultView?: TableView;
}

export interface ServerTableProps<Row> {
  /** Column settings are kept in `localStorage['cs-<tableKey>']`. */
  tableKey: string;
  title?: ReactNode;
  columns: readonly ServerTableColumn<Row>[];
  /** Base key; the page query is `[...queryKey, query]`, so invalidating the base key reloads the table. */
  queryKey: QueryKey;
  fetchPage: (query: PageQuery) => Promise<PageResult<Row>>;
  getRowId: (row: Row) => RowId;
  searchFields?: readonly SearchField[];
  /** Row checkboxes; enabled automatically when `batchActions` are given. */
  selectable?: boolean;
  batchActions?: readonly BatchAction<Row>[];
  /** The gated primary 新建 button, first in the toolbar. */
  add?: AddButtonProps;
  /**
   * Extra buttons at the right of the title; a function gets the list's total (0 until the first page has loaded),
   * e.g. for a 清空 that is disabled while the list is empty.
   */
  toolbar?: ReactNode | ((list: { total: number }) => ReactNode);
  /** Content of the 操作 column: a list of (gated) `RowAction`s, or any node. */
  rowActions?: (row: Row) => readonly RowAction[] | ReactNode;
  /** A red 删除 in each row (after `rowActions`, asking 您确认要删除此行吗?) and optionally a batch 删除. */
  remove?: RemoveAction<Row>;
  rowActionsWidth?: number | string;
  /** A first row-number column (ProTable's indexBorder). */
  indexColumn?: boolean;
  /** Accessible name of a row's checkbox (default 选择此行). */
  rowLabel?: (row: Row) => string;
  defaultPageSize?: number;
  pageSizeOptions?: readonly number[];
  /**
   * Rows may also be shown as cards (a grid, same search, paging and row actions; no selection or column settings
   * there): a 表格 / 卡片 switch appears in the header.
   */
  cards?: ServerTableCards<Row>;
  /** What an empty list says instead of 暂无数据 (e.g. why there is nothing yet); under a search it says 无匹配结果. */
  empty?: ReactNode;
  /** Extra fixed query parameters sent with every request (e.g. a parent id). */
  extraParams?: Readonly<Record<string, string | number>>;
  ref?: Ref<ServerTableHandle>;
}

export const DEFAULT_PAGE_SIZE = 10;
export const PAGE_SIZE_OPTIONS: readonly number[] = [10, 20, 50, 100];
