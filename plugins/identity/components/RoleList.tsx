import { formatDateTime, PageContainer, ServerTable, useEndpoints, useRecordDialog, useTableActions, useTranslation } from '@/core';
import { KEYS, type Role, roleApi } from '../api';
import { RoleFormDialog } from './RoleFormDialog';

export function RoleList() {
  const { t } = useTranslation('identity');
  const roles = useEndpoints(roleApi);
  const table = useTableActions(KEYS.roles);
  const dialog = useRecordDialog();
  const detail = (r: Role) => `/role/${encodeURIComponent(r.id)}`;
  const type = [
    { value: 'default', label: t('role.type.default') },
    { value: 'new', label: t('role.type.new') },
  ];

  return (
    <PageContainer>
      <ServerTable<Role>
        tableKey="role"
        title={t('role.title')}
        queryKey={KEYS.roles}
        fetchPage={roles.page}
        getRowId={(r) => r.id}
        searchFields={[
          { name: 'name', label: t('role.fields.name') },
          { name: 'type', label: t('role.fields.type'), type: 'radio', options: type },
        ]}
        columns={[
          { key: 'name', header: t('role.fields.name'), hideable: false, render: (r) => r.name, link: { to: detail, menu: 'role-detail' } },
          { key: 'type', header: t('role.fields.type'), sortField: 'type', render: (r) => t(r.type === 'default' ? 'role.type.default' : 'role.type.new') },
          { key: 'created', header: t('common.created'), sortField: 'created', render: (r) => formatDateTime(r.created) },
        ]}
        add={{ menu: 'role-add', onClick: dialog.openNew }}
        // Built-in roles are fixed: edit and delete shown, not offered.
        rowActions={(r) => [
          { key: 'detail', label: t('common.detail'), menu: 'role-detail', href: `${detail(r)}?activeKey=info` },
          { key: 'edit', label: t('common.edit'), menu: 'role-edit', disabled: !r.modifiable, onClick: () => dialog.openEdit(r.id) },
        ]}
        remove={{ menu: 'role-del', run: roles.remove, disabled: (r) => !r.deletable }}
      />
      <RoleFormDialog dialog={dialog} onSaved={() => table.done(t('common.success'))} />
    </PageContainer>
  );
}
