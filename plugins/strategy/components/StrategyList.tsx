import { formatDateTime, PageContainer, ServerTable, type ServerTableColumn, useEndpoints, useRecordDialog, useTableActions, useTranslation } from '@/core';
import { FLAGS, KEYS, type Strategy, strategyApi } from '../api';
import { FlagBadge } from './FlagBadge';
import { StrategyFormDialog } from './StrategyFormDialog';

export const detailPath = (id: string) => `/strategy/${encodeURIComponent(id)}`;

/** 授权策略: what a grant lets its holder do with files and the clipboard, one badge per flag. */
export function StrategyList() {
  const { t } = useTranslation('strategy');
  const strategies = useEndpoints(strategyApi);
  const table = useTableActions(KEYS.list);
  const dialog = useRecordDialog();

  const flagColumns: ServerTableColumn<Strategy>[] = FLAGS.map((flag) => ({
    key: flag,
    header: t(`fields.${flag}`),
    render: (s) => <FlagBadge on={s[flag] === true} />,
  }));

  return (
    <PageContainer>
      <ServerTable<Strategy>
        tableKey="strategy"
        title={t('list.title')}
        queryKey={KEYS.list}
        fetchPage={strategies.page}
        getRowId={(s) => s.id}
        rowLabel={(s) => t('list.select', { name: s.name })}
        searchFields={[{ name: 'name', label: t('fields.name') }]}
        columns={[
          {
            key: 'name',
            header: t('fields.name'),
            sortField: 'name',
            hideable: false,
            render: (s) => s.name,
            link: { to: (s) => detailPath(s.id), menu: 'strategy-detail' },
          },
          ...flagColumns,
          { key: 'created', header: t('fields.created'), sortField: 'created', render: (s) => formatDateTime(s.created) },
        ]}
        add={{ menu: 'strategy-add', onClick: dialog.openNew }}
        rowActions={(s) => [
          { key: 'detail', label: t('list.detail'), menu: 'strategy-detail', href: detailPath(s.id) },
          { key: 'edit', label: t('list.edit'), menu: 'strategy-edit', onClick: () => dialog.openEdit(s.id) },
        ]}
        remove={{ menu: 'strategy-del', run: strategies.remove, batch: (rows) => t('list.batchDelete', { count: rows.length }) }}
      />
      <StrategyFormDialog dialog={dialog} onSaved={() => table.done(t('list.saved'))} />
    </PageContainer>
  );
}
