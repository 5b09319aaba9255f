import {
  Button,
  Card,
  makeStyles,
  Menu,
  MenuItemCheckbox,
  MenuList,
  MenuPopover,
  MenuTrigger,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
  mergeClasses,
  ProgressBar,
  Spinner,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  TableSelectionCell,
  Text,
  ToggleButton,
  Tooltip,
  tokens,
} from '@fluentui/react-components';
import { ArrowClockwiseRegular } from '@fluentui/react-icons/svg/arrow-clockwise';
import { TableSettingsRegular } from '@fluentui/react-icons/svg/table-settings';
import { ErrorCircleRegular } from '@fluentui/react-icons/svg/error-circle';
import { GridRegular } from '@fluentui/react-icons/svg/grid';
import { TableSimpleRegular } from '@fluentui/react-icons/svg/table-simple';
import { keepPreviousData } from '@tanstack/react-query';
import { type CSSProperties, isValidElement, type ReactNode, useEffect, useImperativeHandle, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { useMenuGate, useOptionalCore } from '../../app/context';
import { EARLY_ANSWER_TTL_MS } from '../../app/early';
import { useQuery, useQueryClient } from '../../query/hooks';
import { confirm } from '../ConfirmDialog';
import { EmptyState } from '../EmptyState';
import { useUiT } from '../i18n';
import { SecondPass } from '../SecondPass';
import { StatusBadge } from '../StatusBadge';
import { useDangerStyles } from '../styles';
import { useColumnsState } from '../columnSettings';
import { initialSearchValues, SearchForm, type SearchValues } from './SearchForm';
import { Pager } from './Pager';
import { AddButton, type RowAction, RowActions } from './RowActions';
import { useStandardDelete } from './standardDelete';
import { earlyPage } from './pageSource';
import {
  type BatchAction,
  DEFAULT_PAGE_SIZE,
  PAGE_SIZE_OPTIONS,
  type PageQuery,
  type RowId,
  type SearchField,
  type ServerTableColumn,
  type ServerTableProps,
  type SortOrder,
  type TableView,
} from './types';

const useStyles = makeStyles({
  card: {
    display: 'flex',
    flexDirection: 'column',
    padding: tokens.spacingVerticalL,
    backgroundColor: tokens.colorNeutralBackground1,
    borderRadius: tokens.borderRadiusMedium,
  },
  header: {
    display: 'flex',
    alignItems: 'center',
    flexWrap: 'wrap',
    columnGap: tokens.spacingHorizontalS,
    rowGap: tokens.spacingVerticalS,
    marginBottom: tokens.spacingVerticalM,
  },
  title: { fontWeight: tokens.fontWeightSemibold, fontSize: tokens.fontSizeBase400, marginRight: 'auto' },
  tools: { display: 'flex', alignItems: 'center', flexWrap: 'wrap', columnGap: tokens.spacingHorizontalS },
  batch: {
    display: 'flex',
    alignItems: 'center',
    flexWrap: 'wrap',
    columnGap: tokens.spacingHorizontalS,
    rowGap: tokens.spacingVerticalS,
    marginBottom: tokens.spacingVerticalS,
  },
  scroll: { overflowX: 'auto', position: 'relative' },
  // Fluent's Table is fixed-layout at 100 % width, which clips cells (row actions) on narrow screens; sized to
  // content instead, the table grows past its wrapper and the wrapper scrolls.
  table: { tableLayout: 'auto', minWidth: '100%', width: 'max-content' },
  progress: { position: 'absolute', top: 0, left: 0, right: 0 },
  full: { textAlign: 'center' },
  error: { marginBottom: tokens.spacingVerticalM },
  line: { display: 'block' },
  views: { display: 'flex', columnGap: tokens.spacingHorizontalXXS },
  cards: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))',
    gap: tokens.spacingHorizontalM,
    listStyleType: 'none',
    margin: 0,
    padding: 0,
  },
  cardItem: { display: 'flex' },
  cardBody: { flexGrow: 1, width: '100%' },
});

function isActionList(node: readonly RowAction[] | ReactNode): node is readonly RowAction[] {
  return Array.isArray(node) && !isValidElement(node[0]);
}

interface Sort {
  field: string;
  order: SortOrder;
}

const NO_SORT: Sort = { field: '', order: '' };

function nextSort(current: Sort, field: string): Sort {
  if (current.field !== field) return { field, order: 'ascend' };
  if (current.order === 'ascend') return { field, order: 'descend' };
  return NO_SORT;
}

function cellStyle<Row>(c: ServerTableColumn<Row>): CSSProperties | undefined {
  if (c.width === undefined && c.minWidth === undefined) return undefined;
  return { width: c.width, minWidth: c.minWidth };
}

/** The search values as request parameters: empty ones left out, each through its field's `toQuery`. */
function compact(values: SearchValues, fields: readonly SearchField[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(values)) {
    if (v === '') continue;
    const toQuery = fields.find((f) => f.name === k)?.toQuery;
    if (!toQuery) {
      out[k] = v;
      continue;
    }
    for (const [name, value] of Object.entries(toQuery(v))) if (value !== '') out[name] = value;
  }
  return out;
}

/**
 * A server-paged table: search form, sort, selection with batch actions, column settings, pager.
 * Requests `fetchPage({pageIndex, pageSize, order, field, ...search, ...extraParams})` through TanStack Query.
 */
export function ServerTable<Row>(props: ServerTableProps<Row>) {
  const {
    tableKey,
    title,
    columns,
    queryKey,
    fetchPage,
    getRowId,
    searchFields,
    add,
    toolbar,
    remove,
    rowActionsWidth,
    indexColumn,
    rowLabel,
    defaultPageSize = DEFAULT_PAGE_SIZE,
    pageSizeOptions = PAGE_SIZE_OPTIONS,
    extraParams,
    cards,
    empty,
    ref,
  } = props;
  const styles = useStyles();
  const danger = useDangerStyles();
  const t = useUiT();
  const client = useQueryClient();
  // The kit works outside the console too (no core: no early answers).
  const api = useOptionalCore()?.api;
  const allowed = useMenuGate();
  const standardDelete = useStandardDelete(remove, queryKey, getRowId);
  const batchActions = [...(props.batchActions ?? []), ...(standardDelete.batch ? [standardDelete.batch] : [])].filter((a) =>
    allowed(a.menu),
  );
  const ownActions = props.rowActions;
  const deleteAction = standardDelete.row;
  const rowActions =
    ownActions || deleteAction
      ? (row: Row): ReactNode => {
          const own = ownActions?.(row);
          if (!deleteAction) return isActionList(own) ? <RowActions actions={own} /> : own;
          return <RowActions actions={[...(isActionList(own) ? own : []), deleteAction(row)]} />;
        }
      : undefined;
  const [view, setView] = useState<TableView>(cards?.defaultView ?? 'table');
  const asCards = cards !== undefined && view === 'cards';
  // Cards carry no checkboxes: a selection belongs to the table view.
  const selectable = !asCards && (props.selectable ?? (batchActions !== undefined && batchActions.length > 0));

  const [pageIndex, setPageIndex] = useState(1);
  const [pageSize, setPageSize] = useState(defaultPageSize);
  const [sort, setSort] = useState<Sort>(NO_SORT);
  const [draft, setDraft] = useState<SearchValues>(() => initialSearchValues(searchFields ?? [], true));
  const [filters, setFilters] = useState<Record<string, string>>(() =>
    compact(initialSearchValues(searchFields ?? [], true), searchFields ?? []),
  );
  const [columnsState, setColumnsState] = useColumnsState(tableKey);

  const query = useMemo<PageQuery>(
    () => ({ ...extraParams, ...filters, pageIndex, pageSize, order: sort.order, field: sort.field }),
    [extraParams, filters, pageIndex, pageSize, sort],
  );
  const queryKeyString = JSON.stringify(query);

  const result = useQuery({
    queryKey: [...queryKey, query],
    queryFn: () => fetchPage(query),
    placeholderData: keepPreviousData,
    // The page the entry fetched at start, when it is this one: rows in the first render, and no second request for
    // it on mount (fresh while it is that answer; any later load or invalidation is the server's again).
    initialData: () => (api ? earlyPage(api, fetchPage, query) : undefined),
    staleTime: (page) => (page.state.dataUpdateCount === 0 && page.state.data !== undefined ? EARLY_ANSWER_TTL_MS : 0),
  });
  const items = result.data?.items ?? [];
  const total = result.data?.total ?? 0;

  // After a delete the shown page may be past the end: step back to the last page that has rows.
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const pastEnd = result.isSuccess && !result.isPlaceholderData && items.length === 0 && pageIndex > pageCount;
  useEffect(() => {
    if (pastEnd) setPageIndex(pageCount);
  }, [pastEnd, pageCount]);

  // Selection belongs to the request it was made on: a new page, sort or search starts empty.
  const [selection, setSelection] = useState<{ on: string; ids: ReadonlySet<RowId> }>({ on: '', ids: new Set() });
  const selectedSet = selection.on === queryKeyString ? selection.ids : new Set<RowId>();
  const selectedRows = items.filter((row) => selectedSet.has(getRowId(row)));
  const selectedIds = selectedRows.map(getRowId);
  const setSelected = (ids: ReadonlySet<RowId>) => setSelection({ on: queryKeyString, ids });
  const clearSelection = () => setSelection({ on: '', ids: new Set() });

  const reload = async () => {
    await client.invalidateQueries({ queryKey });
  };

  useImperativeHandle(ref, () => ({ reload, clearSelection, searchQuery: () => ({ ...extraParams, ...filters }) }));

  const isVisible = (c: ServerTableColumn<Row>) => {
    if (c.hideable === false) return true;
    const show = columnsState[c.key]?.show;
    return show === undefined ? !c.defaultHidden : show;
  };
  const visibleColumns = columns.filter(isVisible);
  const hideable = columns.filter((c) => c.hideable !== false);
  const colCount = visibleColumns.length + (selectable ? 1 : 0) + (indexColumn ? 1 : 0) + (rowActions ? 1 : 0);

  const allSelected = items.length > 0 && selectedRows.length === items.length;
  const someSelected = selectedRows.length > 0 && !allSelected;

  const toggleRow = (id: RowId) => {
    const next = new Set(selectedSet);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setSelected(next);
  };
  const toggleAll = () => setSelected(allSelected ? new Set() : new Set(items.map(getRowId)));

  const [runningAction, setRunningAction] = useState<string>();
  /** The selected rows an action applies to (`appliesTo`; all when it says nothing). */
  const targetsOf = (action: BatchAction<Row>) => (action.appliesTo ? selectedRows.filter(action.appliesTo) : selectedRows);

  const runBatch = async (action: BatchAction<Row>) => {
    const rows = targetsOf(action);
    if (rows.length === 0) return;
    if (action.confirm) {
      const base = action.danger || action.confirm === true ? { confirmText: t('ui.confirm.confirm'), danger: true } : {};
      const asked =
        action.confirm === true
          ? { title: t('ui.confirm.deleteRows'), message: t('ui.confirm.irreversible') }
          : typeof action.confirm === 'function'
            ? action.confirm(rows)
            : action.confirm;
      if (!(await confirm({ ...base, ...asked }))) return;
    }
    setRunningAction(action.key);
    try {
      await action.onClick(rows.map(getRowId), rows);
    } finally {
      setRunningAction(undefined);
      clearSelection();
    }
  };

  const cell = (c: ServerTableColumn<Row>, row: Row, index: number): ReactNode => {
    const content = c.tone ? <StatusBadge tone={c.tone(row)}>{c.render(row, index)}</StatusBadge> : c.render(row, index);
    return c.link && allowed(c.link.menu) ? <Link to={c.link.to(row)}>{content}</Link> : content;
  };

  const loadingFirst = result.isPending;
  const showError = result.isError;
  const errorMessage = result.error instanceof Error ? result.error.message : undefined;
  const retry = (
    <Button
      onClick={() => {
        void result.refetch();
      }}
    >
      {t('ui.retry')}
    </Button>
  );

  // What shows instead of rows: the first load, why it failed (with a retry), or 暂无数据.
  let placeholder: ReactNode = null;
  if (loadingFirst) placeholder = <Spinner size="small" label={t('ui.loading')} />;
  else if (items.length === 0 && showError) {
    placeholder = (
      <div role="alert">
        <EmptyState
          icon={<ErrorCircleRegular />}
          message={
            <>
              <span className={styles.line}>{t('ui.loadFailed')}</span>
              {errorMessage ? <span className={styles.line}>{errorMessage}</span> : null}
            </>
          }
          action={retry}
        />
      </div>
    );
  } else if (items.length === 0) {
    // A list's own empty text says why it has nothing at all (no asset granted yet…); under a search the reason is
    // the search, whatever the list would say without it.
    const searching = Object.keys(filters).length > 0;
    placeholder = <EmptyState message={searching && empty !== undefined ? t('ui.noMatch') : empty} />;
  }

  let body: ReactNode;
  if (placeholder) {
    body = (
      <TableRow>
        <TableCell colSpan={colCount} className={styles.full}>
          {placeholder}
        </TableCell>
      </TableRow>
    );
  } else {
    body = items.map((row, index) => {
      const id = getRowId(row);
      const selected = selectedSet.has(id);
      return (
        <TableRow key={String(id)} aria-selected={selectable ? selected : undefined}>
          {selectable ? (
            <TableSelectionCell
              checked={selected}
              onClick={() => toggleRow(id)}
              checkboxIndicator={{ 'aria-label': rowLabel ? rowLabel(row) : t('ui.selectRow') }}
            />
          ) : null}
          {indexColumn ? <TableCell>{(pageIndex - 1) * pageSize + index + 1}</TableCell> : null}
          {visibleColumns.map((c) => (
            <TableCell key={c.key} style={cellStyle(c)}>
              {cell(c, row, index)}
            </TableCell>
          ))}
          {rowActions ? <TableCell>{rowActions(row)}</TableCell> : null}
        </TableRow>
      );
    });
  }

  const label = typeof title === 'string' ? title : undefined;
  const cardList =
    cards && asCards ? (
      placeholder ? (
        <div className={styles.full}>{placeholder}</div>
      ) : (
        <ul className={styles.cards} aria-label={label} aria-busy={result.isFetching}>
          {items.map((row) => (
            <li key={String(getRowId(row))} className={styles.cardItem}>
              <Card className={styles.cardBody}>
                {cards.render(row)}
                {rowActions ? rowActions(row) : null}
              </Card>
            </li>
          ))}
        </ul>
      )
    ) : null;

  return (
    <div>
      {searchFields && searchFields.length > 0 ? (
        <SearchForm
          fields={searchFields}
          values={draft}
          onChange={setDraft}
          onSubmit={() => {
            setFilters(compact(draft, searchFields));
            setPageIndex(1);
          }}
          onReset={() => {
            const initial = initialSearchValues(searchFields);
            setDraft(initial);
            setFilters(compact(initial, searchFields));
            setPageIndex(1);
          }}
        />
      ) : null}
      <div className={styles.card}>
        <div className={styles.header}>
          {title ? (
            <Text as="h2" className={styles.title}>
              {title}
            </Text>
          ) : (
            <span className={styles.title} />
          )}
          <div className={styles.tools}>
            {add ? <AddButton {...add} /> : null}
            {typeof toolbar === 'function' ? toolbar({ total }) : toolbar}
            {cards ? (
              <div className={styles.views}>
                <Tooltip content={t('ui.view.table')} relationship="label">
                  <ToggleButton appearance="subtle" icon={<TableSimpleRegular />} checked={!asCards} onClick={() => setView('table')} />
                </Tooltip>
                <Tooltip content={t('ui.view.cards')} relationship="label">
                  <ToggleButton appearance="subtle" icon={<GridRegular />} checked={asCards} onClick={() => setView('cards')} />
                </Tooltip>
              </div>
            ) : null}
            <Tooltip content={t('ui.refresh')} relationship="label">
              <Button
                appearance="subtle"
                icon={<ArrowClockwiseRegular />}
                disabled={result.isFetching}
                onClick={() => {
                  void result.refetch();
                }}
              />
            </Tooltip>
            {hideable.length > 0 && !asCards ? (
              <Menu
                checkedValues={{ columns: columns.filter(isVisible).map((c) => c.key) }}
                onCheckedValueChange={(_, data) => {
                  const next = { ...columnsState };
                  for (const c of hideable) next[c.key] = { ...next[c.key], show: data.checkedItems.includes(c.key) };
                  setColumnsState(next);
                }}
              >
                <MenuTrigger disableButtonEnhancement>
                  <Tooltip content={t('ui.columnSettings')} relationship="label">
                    <Button appearance="subtle" icon={<TableSettingsRegular />} />
                  </Tooltip>
                </MenuTrigger>
                <MenuPopover>
                  <MenuList>
                    {columns.map((c) => (
                      <MenuItemCheckbox key={c.key} name="columns" value={c.key} disabled={c.hideable === false}>
                        {c.header}
                      </MenuItemCheckbox>
                    ))}
                  </MenuList>
                </MenuPopover>
              </Menu>
            ) : null}
          </div>
        </div>
        {selectable && batchActions && batchActions.length > 0 ? (
          <div className={styles.batch}>
            {batchActions.map((a) => (
              <Button
                key={a.key}
                icon={runningAction === a.key ? <Spinner size="tiny" /> : a.icon}
                appearance={a.danger ? 'primary' : 'secondary'}
                className={mergeClasses(a.danger && selectedIds.length > 0 && danger.primary)}
                disabled={targetsOf(a).length === 0 || runningAction !== undefined}
                onClick={() => void runBatch(a)}
              >
                {a.label}
              </Button>
            ))}
            {selectedIds.length > 0 ? (
              <>
                <Text>{t('ui.selected', { count: selectedIds.length })}</Text>
                <Button appearance="transparent" onClick={clearSelection}>
                  {t('ui.clearSelection')}
                </Button>
              </>
            ) : null}
          </div>
        ) : null}
        {showError && items.length > 0 ? (
          // A refetch failed over rows already shown: keep them, say so above.
          <MessageBar intent="error" className={styles.error}>
            <MessageBarBody>
              <MessageBarTitle>{t('ui.loadFailed')}</MessageBarTitle>
              {errorMessage}
            </MessageBarBody>
            <MessageBarActions>{retry}</MessageBarActions>
          </MessageBar>
        ) : null}
        <div className={styles.scroll}>
          {result.isFetching && !loadingFirst ? (
            <ProgressBar className={styles.progress} thickness="medium" aria-label={t('ui.loading')} />
          ) : null}
          {cardList ?? (
            <Table className={styles.table} aria-label={label} aria-busy={result.isFetching}>
              <TableHeader>
                <TableRow>
                  {selectable ? (
                    <TableSelectionCell
                      type="checkbox"
                      checked={allSelected ? true : someSelected ? 'mixed' : false}
                      onClick={toggleAll}
                      checkboxIndicator={{ 'aria-label': t('ui.selectAll') }}
                      invisible={items.length === 0}
                    />
                  ) : null}
                  {indexColumn ? <TableHeaderCell style={{ width: 64 }}>{t('ui.index')}</TableHeaderCell> : null}
                  {visibleColumns.map((c) => {
                    if (!c.sortField) {
                      return (
                        <TableHeaderCell key={c.key} style={cellStyle(c)}>
                          {c.header}
                        </TableHeaderCell>
                      );
                    }
                    const field = c.sortField;
                    const direction =
                      sort.field === field && sort.order
                        ? sort.order === 'ascend'
                          ? 'ascending'
                          : 'descending'
                        : undefined;
                    return (
                      <TableHeaderCell
                        key={c.key}
                        style={cellStyle(c)}
                        sortable
                        sortDirection={direction}
                        button={{
                          onClick: () => {
                            setSort(nextSort(sort, field));
                            setPageIndex(1);
                          },
                        }}
                      >
                        {c.header}
                      </TableHeaderCell>
                    );
                  })}
                  {rowActions ? (
                    <TableHeaderCell style={rowActionsWidth !== undefined ? { width: rowActionsWidth } : undefined}>
                      {t('ui.actions')}
                    </TableHeaderCell>
                  ) : null}
                </TableRow>
              </TableHeader>
              <TableBody>{body}</TableBody>
            </Table>
          )}
        </div>
        {/* Below the rows: filled in a pass after them, so that they paint first. */}
        <SecondPass>
          <Pager
            pageIndex={pageIndex}
            pageSize={pageSize}
            total={total}
            pageSizeOptions={pageSizeOptions}
            onPageChange={setPageIndex}
            onPageSizeChange={(size) => {
              setPageSize(size);
              setPageIndex(1);
            }}
          />
        </SecondPass>
      </div>
    </div>
  );
}
