import {
  AddButton,
  formatDateTime,
  PageContainer,
  RowActions,
  type SearchField,
  ServerTable,
  type ServerTableColumn,
  useApi,
  useBus,
  useCan,
  useReloadTable,
  useTranslation,
} from '@/core';
import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { KEYS, type Role, roleApi } from '../api';
import { RoleFormDialog } from './RoleFormDialog';
import { type EditDialog, settled } from './shared';

export function RoleList() {
  const { t } = useTranslation('identity');
  const api = useApi();
  const roles = useMemo(() => roleApi(api), [api]);
  const bus = useBus();
  const reload = useReloadTable(KEYS.roles);
  const canDetail = useCan('role-detail');
  const [dialog, setDialog] = useState<EditDialog>(null);

  const typeLabel = (r: Role) => t(r.type === 'default' ? 'role.type.default' : 'role.type.new');

  const searchFields: SearchField[] = [
    { name: 'name', label: t('role.fields.name') },
    {
      name: 'type',
      label: t('role.fields.type'),
      type: 'radio',
      options: [
        { value: 'default', label: t('role.type.default') },
        { value: 'new', label: t('role.type.new') },
      ],
    },
  ];

  const columns: ServerTableColumn<Role>[] = [
    {
      key: 'name',
      header: t('role.fields.name'),
      hideable: false,
      render: (r) => (canDetail ? <Link to={`/role/${encodeURIComponent(r.id)}`}>{r.name}</Link> : r.name),
    },
    { key: 'type', header: t('role.fields.type'), sortField: 'type', render: typeLabel },
    { key: 'created', header: t('common.created'), sortField: 'created', render: (r) => formatDateTime(r.created) },
  ];

  return (
    <PageContainer>
      <ServerTable<Role>
        tableKey="role"
        title={t('role.title')}
        queryKey={KEYS.roles}
        fetchPage={roles.page}
        getRowId={(r) => r.id}
        columns={columns}
        searchFields={searchFields}
        toolbar={<AddButton menu="role-add" onClick={() => setDialog({ mode: 'new' })} />}
        rowActions={(r) => (
          <RowActions
            actions={[
              { key: 'detail', label: t('common.detail'), menu: 'role-detail', href: `/role/${encodeURIComponent(r.id)}?activeKey=info` },
              // Built-in roles are fixed: shown, not offered.
              {
                key: 'edit',
                label: t('common.edit'),
                menu: 'role-edit',
                disabled: !r.modifiable,
                onClick: () => setDialog({ mode: 'edit', id: r.id }),
              },
              {
                key: 'del',
                label: t('common.del'),
                menu: 'role-del',
                danger: true,
                confirm: true,
                disabled: !r.deletable,
                onClick: async () => {
                  if (await settled(() => roles.remove([r.id]))) {
                    bus.emit('notify', { intent: 'success', message: t('common.deleted') });
                    await reload();
                  }
                },
              },
            ]}
          />
        )}
      />
      <RoleFormDialog
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
