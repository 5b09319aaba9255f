import { AddButton, type FieldOption, FormDialog, type FormItem, formatDateTime, type KeyGate, type PageQuery, type PageResult, ServerTable, type ServerTableColumn, useTableActions } from '@/core';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { AccessExplainDialog, type AccessExplanation } from '../AccessExplainDialog';
import { useValidityFields, ValidityBadge, type ValidityState, ValidityWindow } from '../validity';

/** What every grant row carries, whoever it was made to and whichever asset it opens. */
export interface GrantTabRow {
  /** The authorisation row's id (DELETE /authorised/:id). */
  id: string;
  /** '' = no strategy (no restriction). */
  strategyId: string;
  strategyName: string;
  /** '' = open on that side. */
  validFrom: string;
  validUntil: string;
  state: ValidityState;
  created: string;
}

/** The bind form's values: whom or what (`ids`), with which strategy ('' = none), for how long ('' = open). */
// A type, not an interface: the form kit needs its index signature.
export type GrantValues = { ids: string[]; strategyId: string; validFrom: string; validUntil: string };

/** A user and an asset whose access the explanation dialog answers for, with the names its title shows. */
export interface ExplainedPair {
  userId: string;
  userName: string;
  assetId: string;
  assetName: string;
}

/** The tab's strings, as keys below the calling plugin's own prefix (e.g. `grants.`). */
export type GrantsTabKey =
  | 'fields.strategy'
  | 'fields.window'
  | 'fields.state'
  | 'fields.created'
  | 'actions.grant'
  | 'actions.remove'
  | 'actions.explain'
  | 'dialog.strategy'
  | 'dialog.strategyPlaceholder'
  | 'dialog.strategyHint'
  | 'remove.title'
  | 'remove.message'
  | 'granted'
  | 'removed'
  | 'explainTitle';

type QueryKey = readonly unknown[];
type Options = readonly FieldOption[];

export interface GrantsTabProps<Row extends GrantTabRow> {
  /** Column settings key (`localStorage['cs-<tableKey>']`). */
  tableKey: string;
  title: string;
  /** The caller's typed `t` on its own keys: `(key, values) => t(`grants.${key}`, values)`. */
  text: (key: GrantsTabKey, values?: Record<string, unknown>) => string;
  /** Everything about these grants (the list and the already-granted lookup): reloaded after a change. */
  allKey: QueryKey;
  listKey: QueryKey;
  fetchPage: (query: PageQuery) => Promise<PageResult<Row>>;
  /** Sent with every page request: the record whose grants these are. */
  extraParams: Readonly<Record<string, string>>;
  /** The other side of each grant (who, or which asset): its search label and its columns, first in the row. */
  subject: { label: string; columns: ServerTableColumn<Row>[]; name: (row: Row) => string };
  gates: { add: KeyGate; remove: KeyGate };
  /** The bind dialog: its title, the field choosing the other side, and the call. */
  bind: {
    title: string;
    label: string;
    requiredMessage: string;
    choices: { queryKey: QueryKey; load: () => Promise<Options> };
    submit: (values: GrantValues) => Promise<unknown>;
  };
  strategies: { queryKey: QueryKey; load: () => Promise<Options> };
  unbind: (id: string) => Promise<unknown>;
  /** 为什么 on a row: the pair it asks about (null = not for this row); absent = no 为什么 at all. */
  explain?: {
    pair: (row: Row) => ExplainedPair | null;
    queryKey: (userId: string, assetId: string) => QueryKey;
    load: (userId: string, assetId: string) => Promise<AccessExplanation>;
  };
}

const EMPTY: GrantValues = { ids: [], strategyId: '', validFrom: '', validUntil: '' };

/**
 * A detail page's grants tab: an asset's users or groups, a user's or a group's assets. The grants with their
 * strategy, validity window and state; granting more (whom or what, a strategy, a window); removing one; and, for a
 * user and an asset, why the user may open it.
 */
export function GrantsTab<Row extends GrantTabRow>(props: GrantsTabProps<Row>) {
  const { tableKey, title, text, allKey, listKey, fetchPage, extraParams, subject, gates, bind, strategies, unbind, explain } = props;
  const table = useTableActions(allKey);
  const validity = useValidityFields<GrantValues>({ from: 'validFrom', until: 'validUntil' });
  const [binding, setBinding] = useState(false);
  const [explained, setExplained] = useState<ExplainedPair | null>(null);

  const fields: FormItem<GrantValues>[] = [
    {
      name: 'ids',
      label: bind.label,
      type: 'multiselect',
      searchable: true,
      required: true,
      requiredMessage: bind.requiredMessage,
      remoteOptions: bind.choices,
    },
    {
      name: 'strategyId',
      label: text('dialog.strategy'),
      type: 'select',
      placeholder: text('dialog.strategyPlaceholder'),
      hint: text('dialog.strategyHint'),
      remoteOptions: strategies,
    },
    validity,
  ];

  return (
    <>
      <ServerTable<Row>
        tableKey={tableKey}
        title={title}
        queryKey={listKey}
        fetchPage={fetchPage}
        extraParams={extraParams}
        getRowId={(r) => r.id}
        searchFields={[{ name: 'name', label: subject.label }]}
        columns={[
          ...subject.columns,
          {
            key: 'strategy',
            header: text('fields.strategy'),
            render: (r) => (r.strategyId ? <Link to={`/strategy/${encodeURIComponent(r.strategyId)}`}>{r.strategyName || r.strategyId}</Link> : '-'),
          },
          { key: 'window', header: text('fields.window'), render: (r) => <ValidityWindow from={r.validFrom} until={r.validUntil} /> },
          { key: 'state', header: text('fields.state'), render: (r) => <ValidityBadge state={r.state} /> },
          { key: 'created', header: text('fields.created'), render: (r) => formatDateTime(r.created) },
        ]}
        toolbar={<AddButton menu={gates.add} label={text('actions.grant')} onClick={() => setBinding(true)} />}
        rowActions={(r) => {
          const pair = explain?.pair(r) ?? null;
          return [
            ...(pair ? [{ key: 'explain', label: text('actions.explain'), onClick: () => setExplained(pair) }] : []),
            {
              key: 'remove',
              label: text('actions.remove'),
              menu: gates.remove,
              danger: true,
              confirm: { title: text('remove.title', { name: subject.name(r) }), message: text('remove.message') },
              onClick: () => table.run(() => unbind(r.id), text('removed')),
            },
          ];
        }}
      />
      <FormDialog<GrantValues>
        open={binding}
        onClose={() => setBinding(false)}
        title={bind.title}
        initialValues={EMPTY}
        fields={fields}
        onSubmit={async (v) => {
          await bind.submit(v);
          // Reloads everything under the grants' key: the list and the already-granted lookup.
          await table.done(text('granted'));
        }}
      />
      {explain ? (
        <AccessExplainDialog
          open={explained !== null}
          onClose={() => setExplained(null)}
          title={explained ? text('explainTitle', { user: explained.userName, asset: explained.assetName }) : undefined}
          queryKey={explain.queryKey(explained?.userId ?? '', explained?.assetId ?? '')}
          load={() => explain.load(explained?.userId ?? '', explained?.assetId ?? '')}
        />
      ) : null}
    </>
  );
}
