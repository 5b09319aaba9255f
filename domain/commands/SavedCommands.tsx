import {
  CopyText,
  FormDialog,
  formatDateTime,
  type KeyGate,
  PageContainer,
  type PageSource,
  type RowAction,
  ServerTable,
  type ServerTableColumn,
  type TableActions,
  useRecordDialog,
  useTableActions,
} from '@/core';
import type { ReactNode } from 'react';

/** What a saved command's row needs: the administrators' list (every owner's) and the portal's (the caller's own). */
export interface SavedCommandRow {
  id: string;
  name: string;
  /** Sent to a terminal as it is: one command per line. */
  content: string;
  created: string;
}

/** The form's values: the body of a create or an update, and what loading one for an edit gives. */
// A type, not an interface: the form kit needs its index signature.
export type SavedCommandBody = { name: string; content: string };

/** The calls behind the screen, on the admin's routes (`/commands`) or the portal's (`/worker/commands`). */
export interface SavedCommandsApi<Row extends SavedCommandRow> {
  page: PageSource<Row>;
  get: (id: string) => Promise<SavedCommandBody>;
  create: (body: SavedCommandBody) => Promise<unknown>;
  update: (id: string, body: SavedCommandBody) => Promise<unknown>;
  remove: (ids: readonly (string | number)[]) => Promise<unknown>;
}

/**
 * The screen's strings, as keys below the calling plugin's own prefix (e.g. `command.`): the caller maps each to its
 * typed `t`, `(key, values) => t(`command.${key}`, values)`, so a missing key fails to compile there.
 */
export type SavedCommandsKey =
  | 'title'
  | 'select'
  | 'copy'
  | 'edit'
  | 'saved'
  | 'batchDelete'
  | 'dialog.new'
  | 'dialog.edit'
  | 'fields.name'
  | 'fields.content'
  | 'fields.created'
  | 'placeholders.content'
  | 'validation.name'
  | 'validation.content';

export interface SavedCommandsProps<Row extends SavedCommandRow> {
  /** Column settings key (`localStorage['cs-<tableKey>']`). */
  tableKey: string;
  /** The list's base query key; a record's key for the form is `[...recordKey, id]`. */
  queryKey: readonly unknown[];
  recordKey: readonly unknown[];
  api: SavedCommandsApi<Row>;
  text: (key: SavedCommandsKey, values?: Record<string, unknown>) => string;
  /** Permission keys of the buttons; none = every signed-in account may (its own commands). */
  gates?: { add?: KeyGate; edit?: KeyGate; remove?: KeyGate };
  /** Columns shown between the content and the creation time (e.g. the owner). */
  extraColumns?: ServerTableColumn<Row>[];
  /** Row actions after 编辑 (e.g. 更换所有者). */
  extraRowActions?: (row: Row) => RowAction[];
  /** Dialogs of the extra actions, given the table's actions (reload with a message). */
  children?: (table: TableActions) => ReactNode;
}

const EMPTY: SavedCommandBody = { name: '', content: '' };

/**
 * Saved command lines, searchable by name and content, with the form that creates and edits one (a name and the lines
 * to send, one command per line). The administrators' 动态指令 and the portal's 我的指令 are this screen with their own
 * routes, keys and strings.
 */
export function SavedCommands<Row extends SavedCommandRow>({
  tableKey,
  queryKey,
  recordKey,
  api,
  text,
  gates = {},
  extraColumns = [],
  extraRowActions,
  children,
}: SavedCommandsProps<Row>) {
  const table = useTableActions(queryKey);
  const dialog = useRecordDialog();
  const { id } = dialog;

  return (
    <PageContainer>
      <ServerTable<Row>
        tableKey={tableKey}
        title={text('title')}
        queryKey={queryKey}
        fetchPage={api.page}
        getRowId={(c) => c.id}
        rowLabel={(c) => text('select', { name: c.name })}
        searchFields={[
          { name: 'name', label: text('fields.name') },
          { name: 'content', label: text('fields.content') },
        ]}
        columns={[
          { key: 'name', header: text('fields.name'), sortField: 'name', hideable: false, render: (c) => c.name },
          {
            key: 'content',
            header: text('fields.content'),
            render: (c) => <CopyText text={c.content} monospace maxWidth={360} copyLabel={text('copy', { name: c.name })} />,
          },
          ...extraColumns,
          { key: 'created', header: text('fields.created'), sortField: 'created', render: (c) => formatDateTime(c.created) },
        ]}
        add={{ menu: gates.add, onClick: dialog.openNew }}
        rowActions={(c) => [
          { key: 'edit', label: text('edit'), menu: gates.edit, onClick: () => dialog.openEdit(c.id) },
          ...(extraRowActions?.(c) ?? []),
        ]}
        remove={{ menu: gates.remove, run: api.remove, batch: (rows) => text('batchDelete', { count: rows.length }) }}
      />
      <FormDialog<SavedCommandBody>
        open={dialog.open}
        onClose={dialog.close}
        title={text(id === undefined ? 'dialog.new' : 'dialog.edit')}
        initialValues={EMPTY}
        record={id === undefined ? undefined : { queryKey: [...recordKey, id], load: () => api.get(id) }}
        width={640}
        fields={[
          { name: 'name', label: text('fields.name'), required: true, requiredMessage: text('validation.name'), maxLength: 128 },
          {
            name: 'content',
            label: text('fields.content'),
            type: 'textarea',
            required: true,
            requiredMessage: text('validation.content'),
            placeholder: text('placeholders.content'),
            rows: { min: 5, max: 10 },
            monospace: true,
          },
        ]}
        onSubmit={async (v) => {
          // The content goes as typed: leading spaces and blank lines may matter to the terminal.
          const body = { name: v.name.trim(), content: v.content };
          await (id === undefined ? api.create(body) : api.update(id, body));
          await table.done(text('saved'));
        }}
      />
      {children?.(table)}
    </PageContainer>
  );
}
