import {
  AddButton,
  type BatchAction,
  formatDateTime,
  PageContainer,
  RowActions,
  ServerTable,
  type ServerTableColumn,
  useApi,
  useBus,
  useConfirmDelete,
  useCan,
  useReloadTable,
  useTranslation,
} from '@/core';
import { DeleteRegular } from '@fluentui/react-icons/svg/delete';
import { useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { groupApi, KEYS, type UserGroupRow } from '../api';
import { type EditDialog, settled } from './shared';
import { UserGroupFormDialog } from './UserGroupFormDialog';

export function UserGroupList() {
  const { t } = useTranslation('identity');
  const api = useApi();
  const groups = useMemo(() => groupApi(api), [api]);
  const bus = useBus();
  const navigate = useNavigate();
  const confirmDelete = useConfirmDelete();
  const reload = useReloadTable(KEYS.groups);
  const canDetail = useCan('user-group-detail');
  const canDelete = useCan('user-group-del');
  const [dialog, setDialog] = useState<EditDialog>(null);

  const remove = async (ids: readonly (string | number)[]) => {
    if (await settled(() => groups.remove(ids))) {
      bus.emit('notify', { intent: 'success', message: t('common.deleted') });
      await reload();
    }
  };

  const columns: ServerTableColumn<UserGroupRow>[] = [
    {
      key: 'name',
      header: t('group.fields.name'),
      sortField: 'name',
      hideable: false,
      render: (g) => (canDetail ? <Link to={`/user-group/${encodeURIComponent(g.id)}`}>{g.name}</Link> : g.name),
    },
    { key: 'created', header: t('common.created'), sortField: 'created', render: (g) => formatDateTime(g.created) },
  ];

  const batchActions: BatchAction<UserGroupRow>[] = canDelete
    ? [
        {
          key: 'delete',
          label: t('common.del'),
          icon: <DeleteRegular />,
          danger: true,
          onClick: async (ids) => {
            if (await confirmDelete({ title: t('group.batchDelete.title', { count: ids.length }) })) await remove(ids);
          },
        },
      ]
    : [];

  return (
    <PageContainer>
      <ServerTable<UserGroupRow>
        tableKey="user-group"
        title={t('group.title')}
        queryKey={KEYS.groups}
        fetchPage={groups.page}
        getRowId={(g) => g.id}
        rowLabel={(g) => t('common.select', { name: g.name })}
        columns={columns}
        searchFields={[{ name: 'name', label: t('group.fields.name') }]}
        batchActions={batchActions}
        toolbar={<AddButton menu="user-group-add" onClick={() => setDialog({ mode: 'new' })} />}
        rowActions={(g) => (
          <RowActions
            actions={[
              { key: 'edit', label: t('common.edit'), menu: 'user-group-edit', onClick: () => setDialog({ mode: 'edit', id: g.id }) },
              { key: 'del', label: t('common.del'), menu: 'user-group-del', danger: true, confirm: true, onClick: () => remove([g.id]) },
              {
                key: 'detail',
                label: t('common.detail'),
                menu: 'user-group-detail',
                overflow: true,
                onClick: () => navigate(`/user-group/${encodeURIComponent(g.id)}?activeKey=info`),
              },
            ]}
          />
        )}
      />
      <UserGroupFormDialog
        open={dialog !== null}
        id={dialog?.mode === 'edit' ? dialog.id : undefined}
        onClose={() => setDialog(null)}
        onSaved={async () => {
          bus.emit('notify', { intent: 'success', message: t('common.success') });
          await reload();
        }}
      />
    </PageContainer>
  );
}
